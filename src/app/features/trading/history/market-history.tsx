import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { historyStatusColumns, orderHistory, orderHistoryMock, orderList, orderListMock, type OrderTimeColumn, type TradeOrder } from '../../../../shared/api/trading';
import { isDemoSession, type SessionSnapshot } from '../../../../shared/protocol/engine';
import type { HttpClient } from '../../../api/http-client';
import { historyFilters, type HistoryFilter } from '../../../../shared/trading/history-filters';
import { Direction, OrderStatus, PriceType } from '../../../../shared/trading/order-rules';
import { tradeStatusTone } from '../../../../shared/trading/status-tones';
import type { BrandFormat } from '../../../format/use-brand-format';
import { changeTone } from '../../catalogue/price-tone';
import { pricePrecisionOf } from '../../catalogue/products';
import { HistoryGrid } from './history-grid';
import { historyPageSize, type HistoryKind } from './history-kind';
import { HistoryList } from './history-list';
import { HistoryResultText, historyStatusColumn } from './history-parts';
import type { PageOf } from './use-paged-list';
import { marketDetailTimes } from '../../../../shared/trading/order-detail-times';

/** A page of closed market orders with the account's realized profit and loss. */
export interface MarketHistoryPage extends PageOf<TradeOrder> {
  profitLossToday: string;
  profitLossTotal: string;
}

/** Why the server closed an order (`closeReason`), in words; an unknown reason shows as sent. */
const closeReasonKeys: Record<string, string> = {
  manual: 'history.reason_manual',
  stop_loss: 'history.reason_stop_loss',
  take_profit: 'history.reason_take_profit',
  stop_out: 'history.reason_stop_out',
  'demo-reset': 'history.reason_demo_reset',
  'insufficient-balance': 'history.reason_insufficient_balance',
};

function closeReasonText(reason: string | null, t: TFunction): string | null {
  if (reason === null) return null;
  const key = closeReasonKeys[reason];
  return key ? t(key) : reason;
}

function priceTypeText(order: TradeOrder, t: TFunction): string {
  return t(order.buyPoint === PriceType.pending ? 'trade.pending_order' : 'trade.market_price');
}

/** The history's status tabs, in the specification's order (position status 1 to 4). */
export type HistoryStatus = (typeof OrderStatus)[keyof typeof OrderStatus];
export const historyStatuses: readonly HistoryStatus[] = [OrderStatus.pending, OrderStatus.position, OrderStatus.deal, OrderStatus.canceled];

/** A price of the order at its product's precision. */
function priceOf(order: TradeOrder, value: string | null, format: BrandFormat): string {
  return format.price(value, pricePrecisionOf(order.tradePair));
}

/** What the history shows: the orders of one status tab, or those under one filter. */
export type HistoryChoice = { status: HistoryStatus } | { filter: HistoryFilter };

/**
 * Filtered lists sort by the time every order under the filter has: running ones by when
 * they were placed, ended ones by when they ended.
 */
const filterColumns: Record<HistoryFilter, readonly OrderTimeColumn[]> = {
  all: ['orderTime'],
  unsettled: ['orderTime'],
  deal: ['closingTime'],
  canceled: ['closingTime'],
  exception: ['closingTime'],
};

/**
 * Market orders of one status (closed ones unless another tab is chosen) or under one filter:
 * `order/history` for a real session, `order/historyMock` for a demo one; the orders' profit
 * and loss as their result.
 */
function marketHistoryOf(choice: HistoryChoice): HistoryKind<TradeOrder, MarketHistoryPage> {
  const query =
    'filter' in choice
      ? { filter: choice.filter, columns: [...filterColumns[choice.filter]] }
      : { positionStatus: choice.status, columns: [...historyStatusColumns[choice.status]] };
  const texts =
    'filter' in choice
      ? { label: `history.filter_${choice.filter}`, empty: 'history.empty_filter', end: 'history.end' }
      : choice.status === OrderStatus.deal
        ? marketHistoryLook.texts
        : { label: `history.status_${choice.status}`, empty: 'history.empty_status', end: 'history.end' };
  return {
    ...marketHistoryLook,
    async fetchPage(http, session, page, signal) {
      const data = await http.call(isDemoSession(session) ? orderHistoryMock : orderHistory, { page, limit: historyPageSize, ...query }, { silent: true, signal });
      return { items: data.list, pages: data.pages, profitLossToday: data.profitLossToday, profitLossTotal: data.profitLossTotal };
    },
    texts,
  };
}

const marketHistoryLook: Omit<HistoryKind<TradeOrder, MarketHistoryPage>, 'fetchPage'> = {
  totalsOf: (page) => ({ today: page.profitLossToday, total: page.profitLossTotal }),
  texts: { label: 'history.closed_orders', empty: 'history.empty', end: 'history.end' },
  isUp: (order) => order.orderType === Direction.buy,
  directionKeys: { up: 'market.buy', down: 'market.sell' },

  statusOf: (order, { t }) => ({ text: t(`history.status_${order.status}`), tone: tradeStatusTone(order.status) }),

  resultOf(order, { format }) {
    // Toned by the amount shown: a loss that rounds to 0.00 is not red.
    const pnl = format.amount(order.profitLoss ?? '0');
    return { text: pnl, tone: changeTone(pnl), testId: `history-pnl-${order.uid}` };
  },

  rowOf: (order, { format }) => ({
    detail: order.orderQuantity,
    // An order that never opened shows the price it waited for.
    prices:
      order.openingPrice === null && order.limitPrice !== null
        ? `@ ${priceOf(order, order.limitPrice, format)}`
        : `${priceOf(order, order.openingPrice, format)} → ${priceOf(order, order.closingPrice, format)}`,
    time: format.time(order.closingTimeTs),
  }),

  leadingWidths: { uid: 'minmax(134px, 1fr)', direction: 'minmax(72px, 0.5fr)' },
  columns: (look) => {
    const { t, format } = look;
    const { amount, time } = format;
    return [
      { key: 'priceType', label: t('trade.price_type'), width: 'minmax(84px, 0.8fr)', hidePriority: 2, cell: (order) => priceTypeText(order, t) },
      { key: 'volume', label: t('position.volume'), width: 'minmax(56px, 0.6fr)', numeric: true, cell: (order) => order.orderQuantity },
      { key: 'placePrice', label: t('position.open_price'), width: 'minmax(70px, 1fr)', numeric: true, cell: (order) => priceOf(order, order.openingPrice, format) },
      { key: 'coverPrice', label: t('history.close_price'), width: 'minmax(70px, 1fr)', numeric: true, cell: (order) => priceOf(order, order.closingPrice, format) },
      { key: 'stop', label: t('trade.stop_loss'), width: 'minmax(64px, 0.8fr)', numeric: true, hidePriority: 4, cell: (order) => priceOf(order, order.stopPrice, format) },
      { key: 'take', label: t('trade.take_profit'), width: 'minmax(64px, 0.8fr)', numeric: true, hidePriority: 5, cell: (order) => priceOf(order, order.takeProfitPrice, format) },
      { key: 'fee', label: t('position.fee'), width: 'minmax(48px, 0.6fr)', numeric: true, hidePriority: 6, cell: (order) => amount(order.feeAmount) },
      { key: 'placeTime', label: t('position.order_time'), width: 'minmax(142px, 1fr)', numeric: true, hidePriority: 3, cell: (order) => time(order.orderTime) },
      { key: 'coverTime', label: t('history.close_time'), width: 'minmax(142px, 1fr)', numeric: true, cell: (order) => time(order.closingTimeTs) },
      // The result stays in view at the end (pinned) while the columns before it scroll.
      { key: 'pnl', label: t('position.profit_loss'), width: 'minmax(96px, 1fr)', numeric: true, pin: 'end', cell: (order) => <HistoryResultText result={marketHistoryLook.resultOf(order, look)} /> },
    ];
  },

  /** The overnight fees are inside the fee: the order keeps one total. */
  detailsOf(order, { t, format }) {
    const { amount, time } = format;
    const pnl = order.profitLoss === null ? null : amount(order.profitLoss);
    // Place (fill) time for a position or a deal, cover time for a deal: the spec's detail.
    const shown = marketDetailTimes(order.positionStatus);
    return [
      { label: t('trade.price_type'), value: priceTypeText(order, t) },
      { label: t('position.volume'), value: order.orderQuantity },
      { label: t('history.lever'), value: `${order.lever}×` },
      { label: t('position.margin'), value: amount(order.securityDepositInitial) },
      // A pending (or canceled pending) order's asked price; a market order has none.
      ...(order.limitPrice === null ? [] : [{ label: t('position.limit_price'), value: priceOf(order, order.limitPrice, format) }]),
      { label: t('position.open_price'), value: priceOf(order, order.openingPrice, format) },
      { label: t('history.close_price'), value: priceOf(order, order.closingPrice, format) },
      { label: t('trade.stop_loss'), value: priceOf(order, order.stopPrice, format) },
      { label: t('trade.take_profit'), value: priceOf(order, order.takeProfitPrice, format) },
      { label: t('history.fee_with_overnight'), value: amount(order.feeAmount) },
      { label: t('history.overnight_fee'), value: amount(order.overnightFee) },
      { label: t('position.profit_loss'), value: pnl, tone: pnl === null ? '' : changeTone(pnl) },
      { label: t('position.order_time'), value: time(order.orderTime) },
      ...(shown.placeTime ? [{ label: t('history.open_time'), value: time(order.transactionTimeTs) }] : []),
      ...(shown.coverTime ? [{ label: t('history.close_time'), value: time(order.closingTimeTs) }] : []),
      { label: t('history.close_reason'), value: closeReasonText(order.closeReason, t) },
    ];
  },
};

/**
 * The transaction list's market orders (`order/list`, `order/listMock` for a demo session):
 * every order of the book newest placed first, or those of one status; no totals. Rows show
 * when the order was placed, as the list is sorted by it.
 */
export function transactionOrdersOf(status: HistoryStatus | null): HistoryKind<TradeOrder, PageOf<TradeOrder>> {
  const { totalsOf: _totals, ...look } = marketHistoryLook;
  return {
    ...look,
    async fetchPage(http, session, page, signal) {
      const query = { page, limit: historyPageSize, columns: ['orderTime' as const], ...(status === null ? {} : { positionStatus: status }) };
      const data = await http.call(isDemoSession(session) ? orderListMock : orderList, query, { silent: true, signal });
      return { items: data.list, pages: data.pages };
    },
    texts: { label: 'page.transaction_list', empty: status === null ? 'transactions.empty' : 'history.empty_status', end: 'transactions.end' },
    // Orders of every status side by side: each row says its status (the row's badge, the grid's status column).
    rowOf: (order, lookOf) => ({ ...marketHistoryLook.rowOf(order, lookOf), time: lookOf.format.listTime(order.orderTime) }),
    columns: (lookOf) => [historyStatusColumn(marketHistoryLook, lookOf), ...marketHistoryLook.columns(lookOf)],
  };
}

/** One order of the book by its id (the transaction list's `?uid=`), or null when the book has none by that id. */
export async function findTransactionOrder(http: HttpClient, session: SessionSnapshot, uid: string): Promise<TradeOrder | null> {
  const data = await http.call(isDemoSession(session) ? orderListMock : orderList, { page: 1, limit: 1, uid }, { silent: true });
  return data.list[0] ?? null;
}

/** One kind per status tab and per filter, made once so that a list keeps its pages while it shows. */
const statusKinds = new Map(historyStatuses.map((status) => [status, marketHistoryOf({ status })]));
const filterKinds = new Map(historyFilters.map((filter) => [filter, marketHistoryOf({ filter })]));

function kindOf(choice: HistoryChoice): { key: string; kind: HistoryKind<TradeOrder, MarketHistoryPage> } {
  const kind = 'filter' in choice ? filterKinds.get(choice.filter) : statusKinds.get(choice.status);
  if (!kind) throw new Error('no history kind for this choice');
  return { key: 'filter' in choice ? `filter-${choice.filter}` : `status-${choice.status}`, kind };
}

const closedOrders: HistoryChoice = { status: OrderStatus.deal };

/** Phones: market orders of one status (closed by default) or filter; a new choice is a new list. */
export function MarketHistoryList(props: { choice?: HistoryChoice }) {
  const { key, kind } = kindOf(props.choice ?? closedOrders);
  return <HistoryList key={key} kind={kind} />;
}

/** Desktop: market orders of one status or filter with the specification's columns. */
export function MarketHistoryGrid(props: { choice?: HistoryChoice }) {
  const { key, kind } = kindOf(props.choice ?? closedOrders);
  return <HistoryGrid key={key} kind={kind} />;
}

/**
 * The status tabs (pending, position, deal, canceled) and, below them, the filters (all,
 * unsettled, deal, canceled, exception) above the market history: one choice at a time, so a
 * pressed filter leaves no tab selected; pressing it again goes back to the closed orders.
 */
export function HistoryStatusTabs(props: { selected: HistoryChoice; onSelect: (choice: HistoryChoice) => void }) {
  const { t } = useTranslation();
  const { selected, onSelect } = props;
  return (
    <>
      <div className="type-tabs history-status-tabs" role="tablist" aria-label={t('history.status_tabs')}>
        {historyStatuses.map((status) => (
          <button key={status} type="button" role="tab" aria-selected={'status' in selected && status === selected.status} className="type-tab" onClick={() => onSelect({ status })}>
            {t(`history.status_${status}`)}
          </button>
        ))}
      </div>
      <div className="history-filters" role="group" aria-label={t('history.filters')}>
        {historyFilters.map((filter) => {
          const pressed = 'filter' in selected && filter === selected.filter;
          return (
            <button key={filter} type="button" className="chip" aria-pressed={pressed} onClick={() => onSelect(pressed ? closedOrders : { filter })}>
              {t(`history.filter_${filter}`)}
            </button>
          );
        })}
      </div>
    </>
  );
}
