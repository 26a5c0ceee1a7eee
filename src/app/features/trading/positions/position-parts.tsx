import { useSignals } from '@preact/signals-react/runtime';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { resetMock } from '../../../../shared/api/account';
import { cancelOrder, cancelOrderMock, closeOrder, closeOrderMock, type PositionsSummary, type TradeOrder } from '../../../../shared/api/trading';
import { useBrandFormat } from '../../../format/use-brand-format';
import { useApp } from '../../../app-context';
import { confirmDialog } from '../../../components/confirm';
import { DetailList } from '../../../components/detail-list';
import { Dialog } from '../../../components/dialog';
import { Icon } from '../../../components/icons';
import { showToast } from '../../../components/toasts';
import { positionsSignal, sessionSignal } from '../../../engine/signals';
import { changeTone } from '../../catalogue/price-tone';
import { pricePrecisionOf, useProducts } from '../../catalogue/products';
import { isDemoSession } from '../../../../shared/protocol/engine';
import { Direction } from '../../../../shared/trading/order-rules';
import { parseMoney } from '../../../../shared/money/money';
import { EditOrderDialog, useHoldCountdown } from './order-edit';

/** What the shared pieces of the positions page and the desktop grid are made of. */

export type PositionTab = 'opening' | 'pending';

/**
 * The market positions a view shows for a tab: its summary and orders from the live feed,
 * and the details drawer of the order opened. The caller's component must track signals.
 */
export function useMarketPositions(tab: PositionTab) {
  // Prices are shown at their products' digits: the catalogue comes with the positions (a direct load has none yet).
  useProducts();
  const [openId, setOpenId] = useState<string | null>(null);
  const positions = positionsSignal.value;
  const summary = tab === 'opening' ? positions.holt : positions.pending;
  const orders = summary?.orderList ?? [];
  // The drawer closes by itself when its order leaves the feed (closed, filled, canceled).
  const open = openId ? orders.find((order) => order.uid === openId) : undefined;
  return {
    summary,
    orders,
    openOrder: (order: TradeOrder) => setOpenId(order.uid),
    drawer: open ? <OrderDrawer order={open} tab={tab} onClose={() => setOpenId(null)} /> : null,
  };
}

/** The orders of the tab as the view lists them; before the feed's first answer, or when the tab is empty, says so instead. */
export function PositionOrders(props: { summary: PositionsSummary | null; tab: PositionTab; children: ReactNode }) {
  const { t } = useTranslation();
  if (props.summary === null) {
    return (
      <p className="list-state" aria-busy="true">
        {t('position.waiting')}
      </p>
    );
  }
  if (props.summary.orderList.length === 0) return <p className="list-state">{t(props.tab === 'opening' ? 'position.empty_opening' : 'position.empty_pending')}</p>;
  return props.children;
}

export function PositionsSummaryBar(props: { summary: PositionsSummary | null; tab: PositionTab }) {
  const { t } = useTranslation();
  const format = useBrandFormat();
  const amount = (value: string | undefined) => (value === undefined ? '—' : format.amount(value));
  const pnl = props.summary?.profitLossSum;
  const ratio = props.summary?.securityDepositPrent;
  return (
    <dl className="position-summary numeric">
      <div>
        <dt>{t(props.tab === 'opening' ? 'position.profit_loss' : 'position.expected_profit_loss')}</dt>
        <dd className={pnl ? changeTone(pnl) : ''} data-testid="summary-pnl">
          {amount(pnl)}
        </dd>
      </div>
      <div>
        <dt>{t('position.net_worth')}</dt>
        <dd data-testid="summary-net-worth">{amount(props.summary?.netValue)}</dd>
      </div>
      <div>
        <dt>{t('position.free_margin')}</dt>
        <dd data-testid="summary-available">{amount(props.summary?.securityDepositAvailableSum)}</dd>
      </div>
      <div className="summary-prepayment-ratio">
        {/* The specification's prepayment ratio: the feed's securityDepositPrent (equity over used margin, %), which is 0 while no margin is used. */}
        <dt>{t('position.prepayment_ratio')}</dt>
        <dd data-testid="summary-prepayment-ratio">{ratio === undefined || parseMoney(ratio) === 0n ? '—' : format.percent(ratio)}</dd>
      </div>
    </dl>
  );
}

/**
 * Closing a position or canceling a pending order, after a confirmation: the details
 * drawer's button and the grid row's close button both act through it.
 */
function useOrderAction(order: TradeOrder, tab: PositionTab, onDone?: () => void) {
  const { t } = useTranslation();
  const { http } = useApp();
  const [busy, setBusy] = useState(false);
  const demo = isDemoSession(sessionSignal.value);
  const cover = tab === 'opening';

  async function act() {
    if (!(await confirmDialog({ title: t(cover ? 'position.cover' : 'position.cancel_order'), message: t(cover ? 'position.cover_confirm' : 'position.cancel_confirm') }))) return;
    setBusy(true);
    try {
      const contract = cover ? (demo ? closeOrderMock : closeOrder) : demo ? cancelOrderMock : cancelOrder;
      await http.call(contract, { orderId: order.uid });
      // The specification's notice for a cover or a cancel: "operation success".
      showToast('success', t('notice.operation_success'));
      onDone?.();
    } catch {
      // The request client has told the user why (e.g. the minimum holding time).
    } finally {
      setBusy(false);
    }
  }
  return { busy, act, labelKey: cover ? 'position.cover' : 'position.cancel_order' };
}

/** A grid row's own close (or cancel) button, as terminals put one on every row; the row itself opens the details. */
export function CloseOrderButton(props: { order: TradeOrder; tab: PositionTab }) {
  const { t } = useTranslation();
  const { busy, act, labelKey } = useOrderAction(props.order, props.tab);
  // Inside its minimum holding time the row's button says for how long instead of failing after a confirmation.
  const holdLeft = useHoldCountdown(props.order);
  const label = holdLeft !== null ? t('position.can_close_in', { time: holdLeft }) : t(labelKey);
  return (
    <button
      type="button"
      className="grid-row-action"
      aria-label={label}
      title={label}
      disabled={busy || holdLeft !== null}
      onClick={(event) => {
        event.stopPropagation();
        void act();
      }}
    >
      <Icon name="close" size={16} />
    </button>
  );
}

/** The details of an open position or pending order, with cover or cancel after a confirmation. */
export function OrderDrawer(props: { order: TradeOrder; tab: PositionTab; onClose: () => void }) {
  const { t } = useTranslation();
  const format = useBrandFormat();
  const { order } = props;
  const { busy, act, labelKey } = useOrderAction(order, props.tab, props.onClose);
  const [editing, setEditing] = useState(false);
  // Inside its minimum holding time a position cannot be closed by hand: the button says for how long.
  const holdLeft = useHoldCountdown(order);

  const price = (value: string | null) => format.price(value, pricePrecisionOf(order.tradePair));
  const rows: [string, string | null][] = [
    [t('position.order_id'), order.uid],
    [t('position.direction'), t(order.orderType === Direction.buy ? 'market.buy' : 'market.sell')],
    [t('position.volume'), order.orderQuantity],
    [props.tab === 'opening' ? t('position.open_price') : t('position.limit_price'), price(order.openingPrice ?? order.limitPrice)],
    [t('position.current_price'), price(order.currentPrice)],
    [t('trade.stop_loss'), price(order.stopPrice)],
    [t('trade.take_profit'), price(order.takeProfitPrice)],
    [t('position.margin'), format.amount(order.securityDepositInitial)],
    [t('history.fee_with_overnight'), format.amount(order.feeAmount)],
    [t('history.overnight_fee'), format.amount(order.overnightFee)],
    [props.tab === 'opening' ? t('position.profit_loss') : t('position.expected_profit_loss'), order.profitLoss === null ? null : format.amount(order.profitLoss)],
    [t('position.order_time'), format.time(order.orderTime)],
  ];
  return (
    <Dialog title={`${order.productName} · ${t('position.details')}`} onClose={props.onClose} heightPx={orderInfoDrawerHeightPx}>
      <DetailList rows={rows.map(([label, value]) => ({ label, value }))} />
      <button type="button" className="button secondary order-action" onClick={() => setEditing(true)}>
        {t('position.edit')}
      </button>
      <button type="button" className="button primary order-action" disabled={busy || holdLeft !== null} onClick={() => void act()}>
        {holdLeft !== null ? t('position.can_close_in', { time: holdLeft }) : t(labelKey)}
      </button>
      {editing ? <EditOrderDialog order={order} onClose={() => setEditing(false)} /> : null}
    </Dialog>
  );
}

/** The specification's mobile height of the order-info drawer. */
const orderInfoDrawerHeightPx = 462;

/** The tabs of the market positions: open positions and pending orders. */
export function PositionTabs(props: { tab: PositionTab; onTab: (tab: PositionTab) => void }) {
  const { t } = useTranslation();
  return (
    <div className="segmented position-tabs" role="group" aria-label={t('position.tabs')}>
      {(['opening', 'pending'] as const).map((each) => (
        <button key={each} type="button" aria-pressed={each === props.tab} onClick={() => props.onTab(each)}>
          {t(`position.${each}`)}
        </button>
      ))}
    </div>
  );
}

/** Restores the demo account (demo orders closed, virtual balance back) after a confirmation. */
export function ResetDemoButton() {
  useSignals();
  const { t } = useTranslation();
  const { http } = useApp();
  if (!isDemoSession(sessionSignal.value)) return null;
  async function resetDemo() {
    if (!(await confirmDialog({ title: t('position.reset_demo'), message: t('position.reset_demo_confirm') }))) return;
    try {
      await http.call(resetMock, {});
      // The specification's notice after a reset: "operation success".
      showToast('success', t('notice.operation_success'));
    } catch {
      // Told by the request client.
    }
  }
  return (
    <button type="button" className="tool-button" onClick={() => void resetDemo()}>
      {t('position.reset_demo')}
    </button>
  );
}
