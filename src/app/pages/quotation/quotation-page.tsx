import { useSignals } from '@preact/signals-react/runtime';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearch } from 'wouter';
import { listedProducts, listedProductTypes, parseSingleTrade } from '../../../shared/market/product-list';
import { useApp } from '../../app-context';
import { PageFrame } from '../../components/page-frame';
import { useIsDesktop } from '../../layouts/use-viewport';
import { loadProducts, productsSignal, useProducts } from '../../market/products';
import { selectedSymbolSignal } from '../../market/selection';
import { ProductTypeTabs } from './product-type-tabs';
import { QuoteList } from './quote-list';

/** What a product list shows while the catalogue loads or when it could not be had. */
export function ProductsPending() {
  useSignals();
  const { t } = useTranslation();
  const { http } = useApp();
  const state = productsSignal.value;
  if (state.status === 'failed') {
    return (
      <div className="list-state" role="alert">
        <p>{t('market.products_failed')}</p>
        <button type="button" className="button secondary" onClick={() => void loadProducts(http)}>
          {t('common.retry')}
        </button>
      </div>
    );
  }
  return (
    <div className="list-state" aria-busy="true">
      <span className="spinner" aria-hidden="true" />
      <p>{t('common.loading')}</p>
    </div>
  );
}

/** A product page whose symbol is not (yet) in the catalogue: loading, or not listed. */
export function ProductMissingPage(props: { titleKey: string; symbol: string }) {
  useSignals();
  const { t } = useTranslation();
  return (
    <PageFrame title={t(props.titleKey)}>
      {productsSignal.value.list.length === 0 ? (
        <ProductsPending />
      ) : (
        <div className="list-state" role="alert">
          <p>{t('chart.product_not_found', { symbol: props.symbol })}</p>
          <Link href="/quotation">{t('market.all_quotes')}</Link>
        </div>
      )}
    </PageFrame>
  );
}

/**
 * Tabs per product type over a live quote list. `singleTrade` (a product type, with the
 * single-trade template) shows that one type without tabs.
 */
export function QuotationBoard(props: { onOpen: (symbol: string) => void; singleTrade?: number | null }) {
  useSignals();
  useProducts();
  const { t } = useTranslation();
  const state = productsSignal.value;
  const types = listedProductTypes(state.list);
  const [chosenType, setChosenType] = useState<number | null>(null);
  const singleTrade = props.singleTrade ?? null;
  const selectedType = singleTrade ?? (chosenType !== null && types.includes(chosenType) ? chosenType : (types[0] ?? 1));
  const products = listedProducts(state.list, selectedType);
  return (
    <>
      {singleTrade === null && types.length > 0 ? <ProductTypeTabs types={types} selected={selectedType} onSelect={setChosenType} /> : null}
      <div
        id="quote-panel"
        role={singleTrade === null ? 'tabpanel' : undefined}
        aria-labelledby={singleTrade === null ? `type-tab-${selectedType}` : undefined}
        className="quote-panel"
      >
        {state.status !== 'ready' && state.list.length === 0 ? (
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

/** Opens a product: its chart page on phones; on desktop it becomes the workspace's product. */
export function useOpenProduct(): (symbol: string) => void {
  const [, navigate] = useLocation();
  const isDesktop = useIsDesktop();
  return (symbol) => {
    if (isDesktop) {
      selectedSymbolSignal.value = symbol;
      navigate('/');
    } else navigate(`/${symbol}/chart`);
  };
}

/** `/quotation` (optional `?singleTrade=<type>` with the single-trade template). */
export function QuotationPage() {
  const { t } = useTranslation();
  const { config } = useApp();
  const isDesktop = useIsDesktop();
  const openProduct = useOpenProduct();
  const search = new URLSearchParams(useSearch());
  const singleTrade = config.singleTradeTemplate ? parseSingleTrade(search.get('singleTrade')) : null;
  return (
    <PageFrame
      title={t('page.quotation')}
      actions={
        isDesktop ? null : (
          <Link href="/search" className="icon-button" aria-label={t('common.search')}>
            ⌕
          </Link>
        )
      }
      fill
    >
      <QuotationBoard onOpen={openProduct} singleTrade={singleTrade} />
    </PageFrame>
  );
}
