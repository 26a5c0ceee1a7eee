import { useSignals } from '@preact/signals-react/runtime';
import { OptionDirection } from '../../../shared/options/option-rules';
import { useTranslation } from 'react-i18next';
import { useSearch } from 'wouter';
import { isTradable } from '../../../shared/market/tradability';
import { PageFrame } from '../../components/page-frame';
import { optionProductsSignal, useOptionProducts } from '../../features/catalogue/option-products';
import { productsSignal, useProducts } from '../../features/catalogue/products';
import { ProductMissingPage } from '../../features/catalogue/products-pending';
import { OptionPlaceBody } from '../../features/trading/options/option-place-body';
import { useLeaveWhenClosed } from '../../features/trading/use-leave-when-closed';
import { useMarketStatus } from '../../features/trading/use-market-status';

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
  const symbol = props.params.symbol ?? '';
  const direction = new URLSearchParams(useSearch()).get('direction') === String(OptionDirection.down) ? OptionDirection.down : OptionDirection.up;
  const product = productsSignal.value.list.find((item) => item.productCode === symbol);
  const optionProduct = optionProductsSignal.value.byCode.get(symbol);
  const status = useMarketStatus(product);
  const closed = product !== undefined && optionProduct !== undefined && !(isTradable(optionProduct) && isTradable(product));
  useLeaveWhenClosed(closed, symbol);

  if (!product) return <ProductMissingPage titleKey="page.place_option" symbol={symbol} />;
  return (
    <PageFrame title={`${t(direction === OptionDirection.up ? 'option.buy_up' : 'option.buy_down')} · ${product.productName}`}>
      <OptionPlaceBody product={product} status={status} direction={direction} />
    </PageFrame>
  );
}
