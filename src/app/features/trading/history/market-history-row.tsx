import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { TradeOrder } from '../../../../shared/api/trading';
import { useBrandFormat } from '../../../format/use-brand-format';
import { changeTone } from '../../catalogue/price-tone';
import { Direction } from '../../../../shared/trading/order-rules';

/** Row height in px; the virtualizer positions rows by it and the stylesheet sizes them to it. */
export const marketHistoryRowHeight = 72;

/** One closed market order in the phone list: product, direction, volume, open → close, profit and loss, close time. */
export const MarketHistoryRow = memo(function MarketHistoryRow(props: { order: TradeOrder; onOpen: (order: TradeOrder) => void }) {
  const { t } = useTranslation();
  const format = useBrandFormat();
  const { order } = props;
  const buy = order.orderType === Direction.buy;
  // Toned by the amount shown: a loss that rounds to 0.00 is not red.
  const pnl = format.amount(order.profitLoss ?? '0');
  return (
    <button type="button" className="history-row-button" onClick={() => props.onOpen(order)} aria-label={`${order.productName} ${order.uid}`}>
      <span className="history-row-main">
        <span className="order-name">
          <strong>{order.productName}</strong>
          <span className={`order-direction ${buy ? 'up' : 'down'}`}>{t(buy ? 'market.buy' : 'market.sell')}</span>
          <span className="numeric">{order.orderQuantity}</span>
        </span>
        <span className="history-row-prices numeric">
          {order.openingPrice ?? '—'} → {order.closingPrice ?? '—'}
        </span>
      </span>
      <span className="history-row-side">
        <span className={`order-pnl numeric ${changeTone(pnl)}`} data-testid={`history-pnl-${order.uid}`}>
          {pnl}
        </span>
        <span className="history-row-time numeric">{order.closingTimeTs === null ? '—' : format.time(order.closingTimeTs)}</span>
      </span>
    </button>
  );
});
