import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { useApp } from '../../app-context';
import { PageFrame } from '../../components/page-frame';
import { loadProducts, productsSignal } from './products';

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
