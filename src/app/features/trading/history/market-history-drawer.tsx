import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { TradeOrder } from '../../../../shared/api/trading';
import { useBrandFormat } from '../../../format/use-brand-format';
import { DetailList, type DetailRow } from '../../../components/detail-list';
import { Dialog } from '../../../components/dialog';
import { changeTone } from '../../catalogue/price-tone';
import { Direction, PriceType } from '../../../../shared/trading/order-rules';

/** The specification's mobile height of the history drawer, in px. */
const historyDrawerHeightPx = 362;

/** Why the server closed an order (`closeReason`), in words; an unknown reason shows as sent. */
const closeReasonKeys: Record<string, string> = {
  manual: 'history.reason_manual',
  stop_loss: 'history.reason_stop_loss',
  take_profit: 'history.reason_take_profit',
  stop_out: 'history.reason_stop_out',
  'demo-reset': 'history.reason_demo_reset',
};

export function closeReasonText(reason: string | null, t: TFunction): string | null {
  if (reason === null) return null;
  const key = closeReasonKeys[reason];
  return key ? t(key) : reason;
}

/** Every field of a closed market order (the overnight fees are inside the fee: the order keeps one total). */
export function MarketHistoryDrawer(props: { order: TradeOrder; onClose: () => void }) {
  const { t } = useTranslation();
  const format = useBrandFormat();
  const { order } = props;
  const amount = format.amount;
  const time = format.time;
  const buy = order.orderType === Direction.buy;
  const pnl = order.profitLoss === null ? null : amount(order.profitLoss);
  const rows: DetailRow[] = [
    { label: t('position.order_id'), value: order.uid },
    { label: t('position.direction'), value: t(buy ? 'market.buy' : 'market.sell'), tone: buy ? 'up' : 'down' },
    { label: t('trade.price_type'), value: t(order.buyPoint === PriceType.pending ? 'trade.pending_order' : 'trade.market_price') },
    { label: t('position.volume'), value: order.orderQuantity },
    { label: t('history.lever'), value: `${order.lever}×` },
    { label: t('position.margin'), value: amount(order.securityDepositInitial) },
    { label: t('position.open_price'), value: order.openingPrice },
    { label: t('history.close_price'), value: order.closingPrice },
    { label: t('trade.stop_loss'), value: order.stopPrice },
    { label: t('trade.take_profit'), value: order.takeProfitPrice },
    { label: t('history.fee_with_overnight'), value: amount(order.feeAmount) },
    { label: t('position.profit_loss'), value: pnl, tone: pnl === null ? '' : changeTone(pnl) },
    { label: t('position.order_time'), value: time(order.orderTime) },
    { label: t('history.open_time'), value: time(order.transactionTimeTs) },
    { label: t('history.close_time'), value: time(order.closingTimeTs) },
    { label: t('history.close_reason'), value: closeReasonText(order.closeReason, t) },
  ];
  return (
    <Dialog title={`${order.productName} · ${t('position.details')}`} onClose={props.onClose} heightPx={historyDrawerHeightPx}>
      <DetailList rows={rows} className="history-details" />
    </Dialog>
  );
}
