import type { TFunction } from 'i18next';
import { OptionStatus, optionOrderList, type OptionOrder } from '../../../../shared/api/options';
import { optionStatusTone } from '../../../../shared/trading/status-tones';
import { formatMoney, parseMoney } from '../../../../shared/money/money';
import { OptionDirection, optionRefund } from '../../../../shared/options/option-rules';
import type { BrandFormat } from '../../../format/use-brand-format';
import { changeTone } from '../../catalogue/price-tone';
import { pricePrecisionOf } from '../../catalogue/products';
import { HistoryGrid } from './history-grid';
import { historyPageSize, type HistoryKind } from './history-kind';
import { HistoryList } from './history-list';
import { HistoryResultText } from './history-parts';
import type { PageOf } from './use-paged-list';
import type { OptionStatusTab } from '../options/option-status-tabs';
import { optionShowsSettlementTime } from '../../../../shared/trading/order-detail-times';

/** A page of settled options with the account's win/loss of today and of all time. */
interface OptionHistoryPage extends PageOf<OptionOrder> {
  todayWinLoss: string;
  totalWinLoss: string;
}

/** The placed rate (a fraction, "0.8") as the percent the form offered ("80.00%"), exactly. */
function ratePercent(rate: string, format: BrandFormat): string {
  const fraction = parseMoney(rate);
  return fraction === null ? rate : format.percent(formatMoney(fraction * 100n));
}

/** A settled option's result in words; a running one says it is unsettled. */
function resultLabel(order: OptionOrder, t: TFunction): string {
  return order.result === null ? t('option.unsettled') : t(`option.result_${order.result}`);
}

/**
 * Settled options (`option/orderList` status 1; the server answers from the token's book,
 * real or demo); the result with the win/loss as an option's result.
 */
/** A price of the option at its product's precision. */
function priceOf(order: { tradePair: string }, value: string | null, format: BrandFormat): string {
  return format.price(value, pricePrecisionOf(order.tradePair));
}

export const optionHistory: HistoryKind<OptionOrder, OptionHistoryPage> = {
  async fetchPage(http, _session, page, signal) {
    const data = await http.call(optionOrderList, { page, limit: historyPageSize, positionStatus: OptionStatus.settled }, { silent: true, signal });
    return { items: data.items, pages: data.pages, todayWinLoss: data.todayWinLoss, totalWinLoss: data.totalWinLoss };
  },
  totalsOf: (page) => ({ today: page.todayWinLoss, total: page.totalWinLoss }),
  texts: { label: 'history.settled_options', empty: 'history.empty_options', end: 'history.end_options' },
  isUp: (order) => order.orderType === OptionDirection.up,
  directionKeys: { up: 'option.buy_up', down: 'option.buy_down' },

  statusOf: (order, { t }) => ({ text: t(order.status === OptionStatus.settled ? 'option.settled' : 'option.unsettled'), tone: optionStatusTone(order.status) }),

  resultOf(order, { t, format }) {
    const testId = `option-history-result-${order.uid}`;
    if (order.winLost === null || order.result === null) return { text: resultLabel(order, t), tone: '', testId };
    // A draw or a void is no result of 0.00: it says what came back, untoned.
    const refund = optionRefund(order);
    if (refund !== null) return { note: resultLabel(order, t), text: format.units(refund), tone: '', testId };
    // A void of a demo reset moved no money: its words alone.
    if (order.result === 'void') return { note: resultLabel(order, t), text: '', tone: '', testId };
    // Toned by the amount shown: a result that rounds to 0.00 is not coloured.
    const winLost = format.amount(order.winLost);
    return { note: resultLabel(order, t), text: winLost, tone: changeTone(winLost), testId };
  },

  rowOf: (order, { t, format }) => ({
    detail: t('option.seconds', { seconds: order.timeLong }),
    prices: `${priceOf(order, order.price, format)} → ${priceOf(order, order.priceEnd, format)}`,
    time: format.time(order.completeTime),
  }),

  leadingWidths: { uid: 'minmax(170px, 1fr)', direction: 'minmax(80px, 0.6fr)' },
  columns: (look) => {
    const { t, format } = look;
    const { amount, time } = format;
    return [
      { key: 'delivery', label: t('option.delivery_time'), width: 'minmax(64px, 0.6fr)', numeric: true, hidePriority: 4, cell: (order) => t('option.seconds', { seconds: order.timeLong }) },
      { key: 'start', label: t('option.place_price'), width: 'minmax(80px, 1fr)', numeric: true, cell: (order) => priceOf(order, order.price, format) },
      { key: 'end', label: t('option.end_price'), width: 'minmax(80px, 1fr)', numeric: true, cell: (order) => priceOf(order, order.priceEnd, format) },
      { key: 'amount', label: t('option.order_amount'), width: 'minmax(70px, 0.8fr)', numeric: true, cell: (order) => amount(order.amount) },
      { key: 'fee', label: t('option.fee'), width: 'minmax(56px, 0.6fr)', numeric: true, hidePriority: 3, cell: (order) => amount(order.feeAmount) },
      { key: 'begin', label: t('history.execution_time'), width: 'minmax(142px, 1fr)', numeric: true, hidePriority: 2, cell: (order) => time(order.beginTime) },
      { key: 'settled', label: t('option.settlement_time'), width: 'minmax(142px, 1fr)', numeric: true, cell: (order) => time(order.completeTime) },
      // The result stays in view at the end (pinned) while the columns before it scroll.
      { key: 'winLost', label: t('history.win_loss'), width: 'minmax(120px, 1fr)', numeric: true, pin: 'end', cell: (order) => <HistoryResultText result={optionHistory.resultOf(order, look)} /> },
    ];
  },

  detailsOf(order, { t, format }) {
    const { amount, time } = format;
    const refund = optionRefund(order);
    const winLost = order.winLost === null || order.result === 'void' || order.result === 'equal' ? null : amount(order.winLost);
    return [
      { label: t('option.delivery_time'), value: t('option.seconds', { seconds: order.timeLong }) },
      { label: t('option.order_amount'), value: amount(order.amount) },
      { label: t('history.profit_rate'), value: ratePercent(order.rate, format) },
      { label: t('option.start_price'), value: priceOf(order, order.price, format) },
      { label: t('option.end_price'), value: priceOf(order, order.priceEnd, format) },
      { label: t('option.fee'), value: amount(order.feeAmount) },
      { label: t('history.result'), value: resultLabel(order, t) },
      refund === null
        ? { label: t('history.win_loss'), value: winLost, tone: winLost === null ? '' : changeTone(winLost) }
        : { label: t('history.refunded'), value: format.units(refund) },
      { label: t('history.execution_time'), value: time(order.beginTime) },
      // Settled options only (the spec): a running one has none yet.
      ...(optionShowsSettlementTime(order.status) ? [{ label: t('option.settlement_time'), value: time(order.completeTime) }] : []),
    ];
  },
};

/**
 * The transaction list's options of one status (`option/orderList`: running or settled, from
 * the token's book); rows show when the option was placed. No totals.
 */
export function transactionOptionsOf(status: OptionStatusTab): HistoryKind<OptionOrder, PageOf<OptionOrder>> {
  const { totalsOf: _totals, ...look } = optionHistory;
  return {
    ...look,
    async fetchPage(http, _session, page, signal) {
      const data = await http.call(optionOrderList, { page, limit: historyPageSize, positionStatus: status }, { silent: true, signal });
      return { items: data.items, pages: data.pages };
    },
    texts: { label: 'page.transaction_list', empty: 'transactions.empty_options', end: 'history.end_options' },
    rowOf: (order, lookOf) => ({ ...optionHistory.rowOf(order, lookOf), time: lookOf.format.listTime(order.beginTime) }),
  };
}

/** Phones: settled options. */
export function OptionHistoryList() {
  return <HistoryList kind={optionHistory} />;
}

/** Desktop: settled options with the specification's option columns. */
export function OptionHistoryGrid() {
  return <HistoryGrid kind={optionHistory} />;
}
