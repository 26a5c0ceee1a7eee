import { useSignals } from '@preact/signals-react/runtime';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { resetMock } from '../../../shared/api/account';
import { cancelOrder, cancelOrderMock, closeOrder, closeOrderMock, type PositionsSummary, type TradeOrder } from '../../../shared/api/trading';
import { formatDateTime } from '../../../shared/format/date-time';
import { formatAmount } from '../../../shared/format/amount';
import { useApp } from '../../app-context';
import { confirmDialog } from '../../components/confirm';
import { Dialog } from '../../components/dialog';
import { PageFrame } from '../../components/page-frame';
import { showToast } from '../../components/toasts';
import { positionsSignal, sessionSignal } from '../../engine/signals';
import { changeTone } from '../../market/price-tone';

type Tab = 'opening' | 'pending';

function Summary(props: { summary: PositionsSummary | null; tab: Tab }) {
  const { t } = useTranslation();
  const { config } = useApp();
  const amount = (value: string | undefined) => (value === undefined ? '—' : formatAmount(value, { grouping: config.amountCommaGrouping }));
  const pnl = props.summary?.profitLossSum;
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
        <dt>{t('position.available_prepayment')}</dt>
        <dd data-testid="summary-available">{amount(props.summary?.securityDepositAvailableSum)}</dd>
      </div>
    </dl>
  );
}

function OrderRow(props: { order: TradeOrder; onOpen: () => void }) {
  const { t } = useTranslation();
  const { order } = props;
  const buy = order.orderType === 0;
  const pnl = order.profitLoss ?? '0';
  return (
    <li className="order-row">
      <button type="button" className="order-row-button" onClick={props.onOpen} aria-label={`${order.productName} ${order.uid}`}>
        <span className="order-name">
          <strong>{order.productName}</strong>
          <span className={`order-direction ${buy ? 'up' : 'down'}`}>{t(buy ? 'market.buy' : 'market.sell')}</span>
          <span className="numeric">{order.orderQuantity}</span>
        </span>
        <span className="order-prices numeric">
          <span>{order.openingPrice ?? order.limitPrice}</span>
          <span>{order.currentPrice ?? '—'}</span>
        </span>
        <span className={`order-pnl numeric ${changeTone(pnl)}`} data-testid={`pnl-${order.uid}`}>
          {pnl}
        </span>
      </button>
    </li>
  );
}

function OrderDrawer(props: { order: TradeOrder; tab: Tab; onClose: () => void }) {
  const { t } = useTranslation();
  const { http, config } = useApp();
  const [busy, setBusy] = useState(false);
  const { order } = props;
  const demo = sessionSignal.value.accountMode === 'demo';

  async function act() {
    const cover = props.tab === 'opening';
    if (!(await confirmDialog({ title: t(cover ? 'position.cover' : 'position.cancel_order'), message: t(cover ? 'position.cover_confirm' : 'position.cancel_confirm') }))) return;
    setBusy(true);
    try {
      const contract = cover ? (demo ? closeOrderMock : closeOrder) : demo ? cancelOrderMock : cancelOrder;
      await http.call(contract, { orderId: order.uid });
      showToast('success', t(cover ? 'position.covered' : 'position.canceled'));
      props.onClose();
    } catch {
      // The request client has told the user why (e.g. the minimum holding time).
    } finally {
      setBusy(false);
    }
  }

  const rows: [string, string | null][] = [
    [t('position.order_id'), order.uid],
    [t('position.direction'), t(order.orderType === 0 ? 'market.buy' : 'market.sell')],
    [t('position.volume'), order.orderQuantity],
    [props.tab === 'opening' ? t('position.open_price') : t('position.limit_price'), order.openingPrice ?? order.limitPrice],
    [t('position.current_price'), order.currentPrice],
    [t('trade.stop_loss'), order.stopPrice],
    [t('trade.take_profit'), order.takeProfitPrice],
    [t('position.margin'), order.securityDepositInitial],
    [t('position.fee'), order.feeAmount],
    [props.tab === 'opening' ? t('position.profit_loss') : t('position.expected_profit_loss'), order.profitLoss],
    [t('position.order_time'), formatDateTime(order.orderTime, config.timeZone)],
  ];
  return (
    <Dialog title={`${order.productName} · ${t('position.details')}`} onClose={props.onClose}>
      <dl className="order-details numeric">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value ?? '—'}</dd>
          </div>
        ))}
      </dl>
      <button type="button" className="button primary order-action" disabled={busy} onClick={() => void act()}>
        {t(props.tab === 'opening' ? 'position.cover' : 'position.cancel_order')}
      </button>
    </Dialog>
  );
}

/**
 * `/position`: open positions and pending orders of the signed-in account, live from the
 * engine's positions feed (profit and loss as prices move), with the summary, a details
 * drawer to close or cancel, and the demo reset.
 */
export function PositionPage() {
  useSignals();
  const { t } = useTranslation();
  const { http } = useApp();
  const [tab, setTab] = useState<Tab>('opening');
  const [openId, setOpenId] = useState<string | null>(null);
  const positions = positionsSignal.value;
  const demo = sessionSignal.value.accountMode === 'demo';
  const summary = tab === 'opening' ? positions.holt : positions.pending;
  const orders = summary?.orderList ?? [];
  // The drawer closes by itself when its order leaves the feed (closed, filled, canceled).
  const open = openId ? orders.find((order) => order.uid === openId) : undefined;

  async function resetDemo() {
    if (!(await confirmDialog({ title: t('position.reset_demo'), message: t('position.reset_demo_confirm') }))) return;
    try {
      await http.call(resetMock, {});
      showToast('success', t('position.reset_done'));
    } catch {
      // Told by the request client.
    }
  }

  return (
    <PageFrame
      back={false}
      title={t('page.position')}
      actions={
        demo ? (
          <button type="button" className="tool-button" onClick={() => void resetDemo()}>
            {t('position.reset_demo')}
          </button>
        ) : null
      }
    >
      <div className="segmented position-tabs" role="group" aria-label={t('position.tabs')}>
        {(['opening', 'pending'] as const).map((each) => (
          <button key={each} type="button" aria-pressed={each === tab} onClick={() => setTab(each)}>
            {t(`position.${each}`)}
          </button>
        ))}
      </div>
      <Summary summary={summary} tab={tab} />
      {summary === null ? (
        <p className="list-state" aria-busy="true">
          {t('position.waiting')}
        </p>
      ) : orders.length === 0 ? (
        <p className="list-state">{t(tab === 'opening' ? 'position.empty_opening' : 'position.empty_pending')}</p>
      ) : (
        <ul className="order-rows" aria-label={t(`position.${tab}`)}>
          {orders.map((order) => (
            <OrderRow key={order.uid} order={order} onOpen={() => setOpenId(order.uid)} />
          ))}
        </ul>
      )}
      {open ? <OrderDrawer order={open} tab={tab} onClose={() => setOpenId(null)} /> : null}
    </PageFrame>
  );
}
