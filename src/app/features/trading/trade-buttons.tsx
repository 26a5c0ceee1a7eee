import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { Product } from '../../../shared/api/market';
import type { MarketStatus } from '../../../shared/market/market-hours';
import { isTradable, isTradableInMode, tradeBlock } from '../../../shared/market/tradability';
import { Direction } from '../../../shared/trading/order-rules';
import { useTradeModeContext } from '../catalogue/trade-mode-context';

/** Sell and buy, or why the product cannot be traded now (in the current trade mode). */
export function TradeButtons(props: { product: Product; status: MarketStatus; onTrade?: (direction: Direction) => void }) {
  useSignals();
  const { t } = useTranslation();
  const { context, pending } = useTradeModeContext();
  const { mode } = context;
  if (pending) return <div className="trade-buttons" />;
  // Switched on, but not in this mode (e.g. no options on it): say so rather than offer a form that refuses.
  if (isTradable(props.product) && !isTradableInMode(props.product, context)) {
    return (
      <div className="trade-buttons">
        <p className="trade-closed" role="status">
          {t(`chart.not_trade_${mode}`)}
        </p>
      </div>
    );
  }
  const blocked = tradeBlock([props.product], props.status);
  if (blocked) {
    return (
      <div className="trade-buttons">
        <p className="trade-closed" role="status">
          {t(blocked === 'closed' ? 'chart.closed' : 'chart.market_closed')}
        </p>
      </div>
    );
  }
  const target = mode === 'option' ? 'placeOption' : 'place';
  // In option mode the same two buttons buy up or buy down.
  const sellLabel = t(mode === 'option' ? 'option.buy_down' : 'market.sell');
  const buyLabel = t(mode === 'option' ? 'option.buy_up' : 'market.buy');
  const symbol = props.product.productCode;
  const { onTrade } = props;
  if (onTrade) {
    return (
      <div className="trade-buttons">
        <button type="button" className="button sell" onClick={() => onTrade(Direction.sell)}>
          {sellLabel}
        </button>
        <button type="button" className="button buy" onClick={() => onTrade(Direction.buy)}>
          {buyLabel}
        </button>
      </div>
    );
  }
  return (
    <div className="trade-buttons">
      <Link href={`/${symbol}/${target}?direction=${Direction.sell}`} className="button sell">
        {sellLabel}
      </Link>
      <Link href={`/${symbol}/${target}?direction=${Direction.buy}`} className="button buy">
        {buyLabel}
      </Link>
    </div>
  );
}
