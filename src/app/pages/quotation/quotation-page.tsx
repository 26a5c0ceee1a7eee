import { useSignals } from '@preact/signals-react/runtime';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearch } from 'wouter';
import { listedProducts, listedProductTypes, parseSingleTrade } from '../../../shared/market/product-list';
import { useApp } from '../../app-context';
import { PageFrame } from '../../components/page-frame';
import { useIsDesktop } from '../../layouts/use-viewport';
import { loadProducts, productsSignal, useProducts } from '../../market/products';
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

/**
 * Quotation: tabs per product type over a live quote list. With the single-trade
 * template, `?singleTrade=<type>` shows that one type without tabs.
 */
export function QuotationPage() {
  useSignals();
  useProducts();
  const { t } = useTranslation();
  const { config } = useApp();
  const [, navigate] = useLocation();
  const isDesktop = useIsDesktop();
  const search = new URLSearchParams(useSearch());
  const singleTrade = config.singleTradeTemplate ? parseSingleTrade(search.get('singleTrade')) : null;
  const state = productsSignal.value;
  const types = listedProductTypes(state.list);
  const [chosenType, setChosenType] = useState<number | null>(null);
  const selectedType = singleTrade ?? (chosenType !== null && types.includes(chosenType) ? chosenType : (types[0] ?? 1));
  const products = listedProducts(state.list, selectedType);

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
      {singleTrade === null && types.length > 0 ? <ProductTypeTabs types={types} selected={selectedType} onSelect={setChosenType} /> : null}
      <div id="quote-panel" role={singleTrade === null ? 'tabpanel' : undefined} aria-labelledby={singleTrade === null ? `type-tab-${selectedType}` : undefined} className="quote-panel">
        {state.status !== 'ready' && state.list.length === 0 ? (
          <ProductsPending />
        ) : products.length === 0 ? (
          <p className="list-state">{t('common.no_data')}</p>
        ) : (
          <QuoteList
            products={products}
            label={t(`market.type_${selectedType}`)}
            onOpen={(symbol) => navigate(`/${symbol}/chart`)}
          />
        )}
      </div>
    </PageFrame>
  );
}
