import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { useSearch } from 'wouter';
import { PageFrame } from '../../components/page-frame';
import { productsSignal, useProducts } from '../../features/catalogue/products';
import { ProductMissingPage } from '../../features/catalogue/products-pending';
import { useLeaveWhenClosed } from '../../features/trading/use-leave-when-closed';
import { useMarketStatus } from '../../features/trading/use-market-status';
import { PlaceForm } from '../../features/trading/place-form';
import { isTradable } from '../../../shared/market/tradability';
import { Direction } from '../../../shared/trading/order-rules';

/** `/:symbol/place?direction=0|1`: the market order form for one product; on phones a product whose trade status is off says "closed" and goes back. */
export function PlacePage(props: { params: Record<string, string> }) {
  useSignals();
  useProducts();
  const { t } = useTranslation();
  const symbol = props.params.symbol ?? '';
  const direction = new URLSearchParams(useSearch()).get('direction') === String(Direction.sell) ? Direction.sell : Direction.buy;
  const state = productsSignal.value;
  const product = state.list.find((item) => item.productCode === symbol);
  const status = useMarketStatus(product);
  useLeaveWhenClosed(product !== undefined && !isTradable(product), symbol);
  if (!product) return <ProductMissingPage titleKey="page.place" symbol={symbol} />;
  return (
    <PageFrame title={`${t(direction === Direction.buy ? 'market.buy' : 'market.sell')} · ${product.productName}`}>
      <PlaceForm product={product} status={status} direction={direction} />
    </PageFrame>
  );
}
