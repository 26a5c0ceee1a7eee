import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import type { Product } from '../../../../shared/api/market';
import type { MarketStatus } from '../../../../shared/market/market-hours';
import type { OptionDirection } from '../../../../shared/options/option-rules';
import { useApp } from '../../../app-context';
import { loadOptionProducts, optionProductsSignal, useOptionProducts } from '../../catalogue/option-products';
import { OptionPlaceForm } from './option-place-form';

/**
 * The option form for one product once its option product is known: loading, the retry
 * after a failed load, or "no options for this product". The page on phones and the
 * workspace's place panel on desktop.
 */
export function OptionPlaceBody(props: { product: Product; status: MarketStatus; direction: OptionDirection; onDirection?: (direction: OptionDirection) => void }) {
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
