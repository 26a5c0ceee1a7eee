import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { useSearch } from 'wouter';
import { PageFrame } from '../../components/page-frame';
import { productsSignal, useProducts } from '../../features/catalogue/products';
import { ProductMissingPage } from '../../features/catalogue/products-pending';
import { useMarketStatus } from '../../features/trading/use-market-status';
import { PlaceForm } from '../../features/trading/place-form';
import { Direction } from '../../../shared/trading/order-rules';

/** `/:symbol/place?direction=0|1`: the market order form for one product. */
export function PlacePage(props: { params: Record<string, string> }) {
  useSignals();
  useProducts();
  const { t } = useTranslation();
  const symbol = props.params.symbol ?? '';
  const direction = new URLSearchParams(useSearch()).get('direction') === String(Direction.sell) ? Direction.sell : Direction.buy;
  const state = productsSignal.value;
  const product = state.list.find((item) => item.productCode === symbol);
  const status = useMarketStatus(product);
  if (!product) return <ProductMissingPage titleKey="page.place" symbol={symbol} />;
  return (
    <PageFrame title={`${t(direction === Direction.buy ? 'market.buy' : 'market.sell')} · ${product.productName}`}>
      <PlaceForm product={product} status={status} direction={direction} />
    </PageFrame>
  );
}
