import { useSignals } from '@preact/signals-react/runtime';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { listedProducts, listedProductTypes } from '../../../shared/market/product-list';
import { ProductTypeTabs } from './product-type-tabs';
import { productsSignal, useProducts } from './products';
import { ProductsPending } from './products-pending';
import { QuoteList } from './quote-list';
import { useTradeModeContext } from './trade-mode-context';

/**
 * Tabs per product type over a live quote list. `singleTrade` (a product type, with the
 * single-trade template) shows that one type without tabs.
 */
export function QuotationBoard(props: { onOpen: (symbol: string) => void; singleTrade?: number | null }) {
  useSignals();
  useProducts();
  const { t } = useTranslation();
  const state = productsSignal.value;
  const { context, pending } = useTradeModeContext();
  const types = listedProductTypes(state.list, context);
  const [chosenType, setChosenType] = useState<number | null>(null);
  const singleTrade = props.singleTrade ?? null;
  const selectedType = singleTrade ?? (chosenType !== null && types.includes(chosenType) ? chosenType : (types[0] ?? 1));
  const products = listedProducts(state.list, selectedType, context);
  return (
    <>
      {singleTrade === null && types.length > 0 ? <ProductTypeTabs types={types} selected={selectedType} onSelect={setChosenType} /> : null}
      <div
        id="quote-panel"
        role={singleTrade === null ? 'tabpanel' : undefined}
        aria-labelledby={singleTrade === null ? `type-tab-${selectedType}` : undefined}
        className="quote-panel"
      >
        {(state.status !== 'ready' && state.list.length === 0) || pending ? (
          <ProductsPending />
        ) : products.length === 0 ? (
          <p className="list-state">{t('common.no_data')}</p>
        ) : (
          <QuoteList products={products} label={t(`market.type_${selectedType}`)} onOpen={props.onOpen} />
        )}
      </div>
    </>
  );
}
