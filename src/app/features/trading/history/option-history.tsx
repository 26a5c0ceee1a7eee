import { useSignals } from '@preact/signals-react/runtime';
import { OptionDirection } from '../../../../shared/options/option-rules';
import { memo, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { OptionStatus, optionOrderList, type OptionOrder } from '../../../../shared/api/options';
import { formatMoney, parseMoney } from '../../../../shared/money/money';
import { useBrandFormat } from '../../../format/use-brand-format';
import { useApp } from '../../../app-context';
import { DetailList, type DetailRow } from '../../../components/detail-list';
import { Dialog } from '../../../components/dialog';
import type { GridColumn } from '../../../components/virtual-grid';
import { sessionSignal } from '../../../engine/signals';
import { changeTone } from '../../catalogue/price-tone';
import { PagedHistoryGrid } from './history-grid';
import { PagedHistoryList, type HistorySource } from './history-list';
import { historyFailureCap, historyPageSize } from './market-history';
import { usePagedList, type PageOf } from './use-paged-list';
import { sessionAccount } from '../../../../shared/protocol/engine';

/** Row height in px of the phone list. */
const optionHistoryRowHeight = 72;
/** The specification's mobile height of the history drawer, in px. */
const historyDrawerHeightPx = 362;
const retryDelayStepMs = 500;
const retryDelayMaxMs = 3_000;

/** A page of settled options with the account's win/loss of today and of all time. */
interface OptionHistoryPage extends PageOf<OptionOrder> {
  todayWinLoss: string;
  totalWinLoss: string;
}

/**
 * Settled options of the signed-in account, 10 per page (`option/orderList` status 1; the
 * server answers from the token's book, real or demo). Starts over when the account changes.
 */
function useOptionHistory() {
  const { http } = useApp();
  const session = sessionSignal.value;
  return usePagedList<OptionOrder, OptionHistoryPage>({
    resetKey: sessionAccount(session) ?? '',
    fetchPage: async (page, signal) => {
      const data = await http.call(optionOrderList, { page, limit: historyPageSize, positionStatus: OptionStatus.settled }, { silent: true, signal });
      return { items: data.items, pages: data.pages, todayWinLoss: data.todayWinLoss, totalWinLoss: data.totalWinLoss };
    },
    keyOf: optionKey,
    failureCap: historyFailureCap,
    retryDelayMs: (failures) => Math.min(retryDelayStepMs * failures, retryDelayMaxMs),
  });
}

function optionKey(order: OptionOrder): string {
  return order.uid;
}

function directionLabel(order: OptionOrder, t: TFunction): string {
  return t(order.orderType === OptionDirection.up ? 'option.buy_up' : 'option.buy_down');
}

/** The placed rate (a fraction, "0.8") as the percent the form offered ("80.00%"), exactly. */
function ratePercent(rate: string): string {
  const fraction = parseMoney(rate);
  return fraction === null ? rate : `${formatMoney(fraction * 100n)}%`;
}

function resultLabel(order: OptionOrder, t: TFunction): string {
  return order.result === null ? '—' : t(`option.result_${order.result}`);
}

function useOptionSource(): HistorySource<OptionOrder, OptionHistoryPage> {
  const { t } = useTranslation();
  const paged = useOptionHistory();
  return {
    paged,
    today: paged.state.lastPage?.todayWinLoss ?? null,
    total: paged.state.lastPage?.totalWinLoss ?? null,
    label: t('history.settled_options'),
    emptyText: t('history.empty_options'),
    endText: t('history.end_options'),
    keyOf: optionKey,
  };
}

/** One settled option in the phone list: product, direction, delivery time, start → end price, win/loss, settlement time. */
const OptionHistoryRow = memo(function OptionHistoryRow(props: { order: OptionOrder; onOpen: (order: OptionOrder) => void }) {
  const { t } = useTranslation();
  const format = useBrandFormat();
  const { order } = props;
  // Toned by the amount shown: a result that rounds to 0.00 is not coloured.
  const winLost = format.amount(order.winLost ?? '0');
  return (
    <button type="button" className="history-row-button" onClick={() => props.onOpen(order)} aria-label={`${order.productName} ${order.uid}`}>
      <span className="history-row-main">
        <span className="order-name">
          <strong>{order.productName}</strong>
          <span className={`order-direction ${order.orderType === OptionDirection.up ? 'up' : 'down'}`}>{directionLabel(order, t)}</span>
          <span className="numeric">{t('option.seconds', { seconds: order.timeLong })}</span>
        </span>
        <span className="history-row-prices numeric">
          {order.price} → {order.priceEnd ?? '—'}
        </span>
      </span>
      <span className="history-row-side">
        <span className={`order-pnl numeric ${changeTone(winLost)}`} data-testid={`option-history-result-${order.uid}`}>
          {resultLabel(order, t)} {winLost}
        </span>
        <span className="history-row-time numeric">{order.completeTime === null ? '—' : format.time(order.completeTime)}</span>
      </span>
    </button>
  );
});

/** Every field of a settled option. */
function OptionHistoryDrawer(props: { order: OptionOrder; onClose: () => void }) {
  const { t } = useTranslation();
  const format = useBrandFormat();
  const { order } = props;
  const amount = format.amount;
  const time = format.time;
  const winLost = order.winLost === null ? null : amount(order.winLost);
  const rows: DetailRow[] = [
    { label: t('position.order_id'), value: order.uid },
    { label: t('position.direction'), value: directionLabel(order, t), tone: order.orderType === OptionDirection.up ? 'up' : 'down' },
    { label: t('option.delivery_time'), value: t('option.seconds', { seconds: order.timeLong }) },
    { label: t('option.order_amount'), value: amount(order.amount) },
    { label: t('history.profit_rate'), value: ratePercent(order.rate) },
    { label: t('option.start_price'), value: order.price },
    { label: t('option.end_price'), value: order.priceEnd },
    { label: t('option.fee'), value: amount(order.feeAmount) },
    { label: t('history.result'), value: resultLabel(order, t) },
    { label: t('history.win_loss'), value: winLost, tone: winLost === null ? '' : changeTone(winLost) },
    { label: t('history.execution_time'), value: time(order.beginTime) },
    { label: t('option.settlement_time'), value: time(order.completeTime) },
  ];
  return (
    <Dialog title={`${order.productName} · ${t('position.details')}`} onClose={props.onClose} heightPx={historyDrawerHeightPx}>
      <DetailList rows={rows} className="history-details" />
    </Dialog>
  );
}

/** Phones: settled options. */
export function OptionHistoryList() {
  useSignals();
  const source = useOptionSource();
  return (
    <PagedHistoryList
      source={source}
      rowHeight={optionHistoryRowHeight}
      row={(order, onOpen) => <OptionHistoryRow order={order} onOpen={onOpen} />}
      drawer={(order, onClose) => <OptionHistoryDrawer order={order} onClose={onClose} />}
    />
  );
}

/** The specification's desktop columns for option history. */
function useOptionColumns(): GridColumn<OptionOrder>[] {
  const { t } = useTranslation();
  const format = useBrandFormat();
  return useMemo(() => {
    const time = format.time;
    const amount = format.amount;
    return [
      { key: 'symbol', label: t('history.symbol'), width: 'minmax(70px, 1.2fr)', cell: (order) => <strong>{order.productName}</strong> },
      { key: 'uid', label: t('position.order_id'), width: 'minmax(170px, 1fr)', numeric: true, cell: (order) => order.uid },
      { key: 'direction', label: t('position.direction'), width: 'minmax(80px, 0.6fr)', cell: (order) => <span className={order.orderType === OptionDirection.up ? 'up' : 'down'}>{directionLabel(order, t)}</span> },
      { key: 'delivery', label: t('option.delivery_time'), width: 'minmax(64px, 0.6fr)', numeric: true, cell: (order) => t('option.seconds', { seconds: order.timeLong }) },
      { key: 'start', label: t('option.place_price'), width: 'minmax(80px, 1fr)', numeric: true, cell: (order) => order.price },
      { key: 'end', label: t('option.end_price'), width: 'minmax(80px, 1fr)', numeric: true, cell: (order) => order.priceEnd ?? '—' },
      { key: 'amount', label: t('option.order_amount'), width: 'minmax(70px, 0.8fr)', numeric: true, cell: (order) => amount(order.amount) },
      { key: 'fee', label: t('option.fee'), width: 'minmax(56px, 0.6fr)', numeric: true, cell: (order) => amount(order.feeAmount) },
      {
        key: 'winLost',
        label: t('history.win_loss'),
        width: 'minmax(90px, 1fr)',
        numeric: true,
        cell: (order) => {
          const shown = amount(order.winLost ?? '0');
          return (
            <span className={changeTone(shown)} data-testid={`option-history-result-${order.uid}`}>
              {resultLabel(order, t)} {shown}
            </span>
          );
        },
      },
      { key: 'begin', label: t('history.execution_time'), width: 'minmax(142px, 1fr)', numeric: true, cell: (order) => time(order.beginTime) },
      { key: 'settled', label: t('option.settlement_time'), width: 'minmax(142px, 1fr)', numeric: true, cell: (order) => time(order.completeTime) },
    ] satisfies GridColumn<OptionOrder>[];
  }, [t, format]);
}

/** Desktop: settled options with the specification's option columns. */
export function OptionHistoryGrid() {
  useSignals();
  const source = useOptionSource();
  const columns = useOptionColumns();
  return (
    <PagedHistoryGrid
      source={source}
      columns={columns}
      rowLabel={(order) => `${order.productName} ${order.uid}`}
      drawer={(order, onClose) => <OptionHistoryDrawer order={order} onClose={onClose} />}
    />
  );
}
