import { useSignals } from '@preact/signals-react/runtime';
import { useLocation } from 'wouter';
import { listedProducts } from '../../../shared/market/product-list';
import { PageFrame } from '../../components/page-frame';
import { ProductMissingPage } from '../../features/catalogue/products-pending';
import { productsSignal, useProducts } from '../../features/catalogue/products';
import { useTradeModeContext } from '../../features/catalogue/trade-mode-context';
import { ChartQuote, ProductChart, ProductSelect } from '../../features/chart/product-chart';
import { TradeButtons } from '../../features/trading/trade-buttons';
import { TradeModeSwitch } from '../../features/trading/trade-mode-switch';
import { useMarketStatus } from '../../features/trading/use-market-status';
import { useIsDesktop } from '../../layouts/use-viewport';

/** `/:symbol/chart`: the product's quote, its chart and the sell and buy buttons. */
export function ChartPage(props: { params: Record<string, string> }) {
  useSignals();
  useProducts();
  const [, navigate] = useLocation();
  const symbol = props.params.symbol ?? '';
  const state = productsSignal.value;
  const product = state.list.find((item) => item.productCode === symbol);
  const status = useMarketStatus(product);
  const { context } = useTradeModeContext();
  const listed = listedProducts(state.list, undefined, context);
  const choices = product && !listed.includes(product) ? [product, ...listed] : listed;
  const isDesktop = useIsDesktop();

  if (!product) return <ProductMissingPage titleKey="page.chart" symbol={symbol} />;
  return (
    <PageFrame title={<ProductSelect products={choices} current={symbol} onChange={(next) => navigate(`/${next}/chart`, { replace: true })} />} fill>
      <ChartQuote product={product} />
      {/* On desktop the period and candle type are in the top bar. */}
      <ProductChart product={product} status={status} withControls={!isDesktop} />
      {/* Beside the buttons it decides (market sell/buy or option down/up); on desktop the top bar has it. */}
      {isDesktop ? null : <TradeModeSwitch className="trade-mode-switch" />}
      <TradeButtons product={product} status={status} />
    </PageFrame>
  );
}
