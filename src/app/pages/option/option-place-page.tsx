import { useSignals } from '@preact/signals-react/runtime';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearch } from 'wouter';
import type { Product } from '../../../shared/api/market';
import type { MarketStatus } from '../../../shared/market/market-hours';
import { useApp } from '../../app-context';
import { PageFrame } from '../../components/page-frame';
import { showToast } from '../../components/toasts';
import { useIsDesktop } from '../../layouts/use-viewport';
import { loadOptionProducts, optionProductsSignal, useOptionProducts } from '../../market/option-products';
import { productsSignal, useProducts } from '../../market/products';
import { useMarketStatus } from '../chart/chart-page';
import { ProductMissingPage } from '../quotation/quotation-page';
import { OptionPlaceForm } from './option-place-form';

/**
 * The option form for one product once its option product is known: loading, the retry
 * after a failed load, or "no options for this product". The page on phones and the
 * workspace's place panel on desktop.
 */
export function OptionPlaceBody(props: { product: Product; status: MarketStatus; direction: 0 | 1; onDirection?: (direction: 0 | 1) => void }) {
  useSignals();
  useOptionProducts();
  const { t } = useTranslation();
  const { http } = useApp();
  const state = optionProductsSignal.value;
  const optionProduct = state.byCode.get(props.product.productCode);
  if (optionProduct && optionProduct.entries.length > 0) {
    return <OptionPlaceForm key={optionProduct.productCode} {...props} optionProduct={optionProduct} />;
  }
  if (state.status === 'loading') {
    return (
      <div className="list-state" aria-busy="true">
        <span className="spinner" aria-hidden="true" />
        <p>{t('common.loading')}</p>
      </div>
    );
  }
  if (state.status === 'failed') {
    return (
      <div className="list-state" role="alert">
        <p>{t('option.products_failed')}</p>
        <button type="button" className="button secondary" onClick={() => void loadOptionProducts(http)}>
          {t('common.retry')}
        </button>
      </div>
    );
  }
  return (
    <p className="list-state" role="status">
      {t('option.no_product', { name: props.product.productName })}
    </p>
  );
}

/**
 * `/:symbol/placeOption?direction=0|1`: the option form for one product. On phones a
 * product whose options are not tradable says "closed" and goes back, as the chart page
 * does for market products.
 */
export function OptionPlacePage(props: { params: Record<string, string> }) {
  useSignals();
  useProducts();
  useOptionProducts();
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const isDesktop = useIsDesktop();
  const symbol = props.params.symbol ?? '';
  const direction = new URLSearchParams(useSearch()).get('direction') === '1' ? 1 : 0;
  const product = productsSignal.value.list.find((item) => item.productCode === symbol);
  const optionProduct = optionProductsSignal.value.byCode.get(symbol);
  const status = useMarketStatus(product);
  const closed = product !== undefined && optionProduct !== undefined && (optionProduct.tradeStatus !== 1 || product.tradeStatus !== 1);

  useEffect(() => {
    if (!closed || isDesktop) return;
    showToast('error', t('chart.closed'));
    if (window.history.length > 1) window.history.back();
    else navigate(`/${symbol}/chart`, { replace: true });
  }, [closed, isDesktop, navigate, symbol, t]);

  if (!product) return <ProductMissingPage titleKey="page.place_option" symbol={symbol} />;
  return (
    <PageFrame title={`${t(direction === 0 ? 'option.buy_up' : 'option.buy_down')} · ${product.productName}`}>
      <OptionPlaceBody product={product} status={status} direction={direction} />
    </PageFrame>
  );
}
