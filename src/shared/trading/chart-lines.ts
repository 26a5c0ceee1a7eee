import type { OptionOrder } from '../api/options';
import type { TradeOrder, UpdateOrderBody } from '../api/trading';
import { parseMoney, type Units } from '../money/money';
import { OptionDirection, settleOption } from '../options/option-rules';
import { checkPendingPrice, checkProtection, type FieldVerdict, type Protection } from './form-rules';
import { closePriceOf, Direction, fillPriceOf, OrderStatus } from './order-rules';

/**
 * The lines the chart draws of what the trader holds on its symbol, and the rules of
 * dragging them: one definition for the chart, its accessible list and their tests. The
 * drop is checked by the place form's own rules (`form-rules.ts`); the server checks again.
 */

/** An open position's entry, a pending order's price, either one's stop loss or take profit, a running option's start. */
export type ChartLineKind = 'entry' | 'pending' | 'stopLoss' | 'takeProfit' | 'optionStart';

export interface ChartLine {
  /** Unique per order and kind: the overlay's id. */
  id: string;
  kind: ChartLineKind;
  orderUid: string;
  /** The price the line is drawn at, as the server sent it. */
  price: string;
  direction: Direction;
  /** Lots of a trade order; the amount of an option. */
  volume: string;
  /** The live open profit of a position (its entry line); null for the others. */
  profitLoss: string | null;
  /** Whether a drag may move it: stop loss, take profit and a pending order's price. */
  draggable: boolean;
}

const directionOf = (orderType: number): Direction => (orderType === Direction.buy ? Direction.buy : Direction.sell);

/** A stop loss and take profit line of an order, when it has them. */
function protectionLines(order: TradeOrder): ChartLine[] {
  const base = { orderUid: order.uid, direction: directionOf(order.orderType), volume: order.orderQuantity, profitLoss: null, draggable: true };
  const lines: ChartLine[] = [];
  if (order.stopPrice !== null) lines.push({ ...base, id: `${order.uid}:stopLoss`, kind: 'stopLoss', price: order.stopPrice });
  if (order.takeProfitPrice !== null) lines.push({ ...base, id: `${order.uid}:takeProfit`, kind: 'takeProfit', price: order.takeProfitPrice });
  return lines;
}

/**
 * The lines of `symbol`: each open position's entry (not draggable: it happened) with its
 * levels, each pending order's price with its levels. Orders of other symbols, closed or
 * canceled ones draw nothing.
 */
export function tradeLinesOf(symbol: string, orders: readonly TradeOrder[]): ChartLine[] {
  const lines: ChartLine[] = [];
  for (const order of orders) {
    if (order.tradePair !== symbol) continue;
    const direction = directionOf(order.orderType);
    const base = { orderUid: order.uid, direction, volume: order.orderQuantity };
    if (order.status === OrderStatus.position && order.openingPrice !== null) {
      lines.push({ ...base, id: `${order.uid}:entry`, kind: 'entry', price: order.openingPrice, profitLoss: order.profitLoss, draggable: false });
    } else if (order.status === OrderStatus.pending && order.limitPrice !== null) {
      lines.push({ ...base, id: `${order.uid}:pending`, kind: 'pending', price: order.limitPrice, profitLoss: null, draggable: true });
    } else continue;
    lines.push(...protectionLines(order));
  }
  return lines;
}

/** A running option's start price line (its end time is drawn as a marker apart). */
export function optionLinesOf(symbol: string, running: readonly OptionOrder[]): ChartLine[] {
  return running
    .filter((option) => option.tradePair === symbol && option.status === 0)
    .map((option) => ({
      id: `${option.uid}:optionStart`,
      kind: 'optionStart' as const,
      orderUid: option.uid,
      price: option.price,
      direction: option.orderType === OptionDirection.up ? Direction.buy : Direction.sell,
      volume: option.amount,
      profitLoss: null,
      draggable: false,
    }));
}

/** Whether a running option would win, lose or be refunded if it ended at `price` (the settlement's own rule). */
export type OptionStanding = 'winning' | 'losing' | 'even';

export function optionStanding(option: Pick<OptionOrder, 'orderType' | 'price' | 'amount' | 'rate'>, price: string | null): OptionStanding | null {
  const start = parseMoney(option.price);
  const now = price === null ? null : parseMoney(price);
  if (start === null || now === null) return null;
  const direction = option.orderType === OptionDirection.up ? OptionDirection.up : OptionDirection.down;
  const outcome = settleOption(direction, parseMoney(option.amount) ?? 0n, '0', start, now).outcome;
  return outcome === 'win' ? 'winning' : outcome === 'loss' ? 'losing' : 'even';
}

/**
 * The price a line dropped at: the chart's value (a number of its drawing, never money)
 * on the product's price grid. Null when it is not a price (dragged off the scale).
 */
export function priceFromDrag(chartValue: number | undefined, decimals: number): string | null {
  if (chartValue === undefined || !Number.isFinite(chartValue) || chartValue <= 0) return null;
  const text = chartValue.toFixed(Math.max(0, Math.min(decimals, 8)));
  return parseMoney(text) === null || (parseMoney(text) ?? 0n) <= 0n ? null : text;
}

/** The current quote of the line's symbol (bid and ask), as the feed gives it. */
export interface LineQuote {
  bid: string;
  ask: string;
}

/** What a drop proposes: the update the form would send, or why it snaps back (a translation key and its values). */
export type LineDrop =
  | { ok: true; price: string; body: UpdateOrderBody }
  | { ok: false; messageKey: string; params?: Record<string, string> }
  /** Dropped on the price it already has (a press without a move): nothing to ask or send. */
  | { ok: false; unchanged: true };

function refused(verdict: Extract<FieldVerdict, { ok: false }>): LineDrop {
  return { ok: false, messageKey: verdict.messageKey, ...(verdict.params ? { params: verdict.params } : {}) };
}

/**
 * A drop of `line` at `chartValue`, checked as the edit form checks a typed value: a
 * position's stop loss or take profit against the price it closes at now, a pending
 * order's against its limit; a pending price on its side of the current fill price and
 * within the band, with the order's levels still on their sides of the new price.
 */
export function checkLineDrop(line: ChartLine, order: TradeOrder, chartValue: number | undefined, quote: LineQuote | null, decimals: number): LineDrop {
  const typed = priceFromDrag(chartValue, decimals);
  // The chart reports a press and release as a drop too (a click on a line).
  if (typed !== null && parseMoney(typed) === parseMoney(line.price)) return { ok: false, unchanged: true };
  if (!line.draggable) return { ok: false, messageKey: 'chart.line_fixed' };
  if (typed === null) return { ok: false, messageKey: 'trade.wrong_price' };
  const direction = directionOf(order.orderType);
  const pending = order.status === OrderStatus.pending;
  if (line.kind === 'pending') {
    const current = quote === null ? null : parseMoney(fillPriceOf(direction, quote));
    if (current === null) return { ok: false, messageKey: 'chart.line_no_price' };
    const verdict = checkPendingPrice(typed, current, direction === Direction.buy, decimals);
    if (!verdict.ok) return refused(verdict);
    const limit = parseMoney(verdict.value) as Units;
    for (const [kind, level] of [['stopLoss', order.stopPrice], ['takeProfit', order.takeProfitPrice]] as const) {
      if (level === null) continue;
      const levelVerdict = checkProtection(level, kind, direction, limit, decimals, 'refuse');
      if (!levelVerdict.ok) return refused(levelVerdict);
    }
    return { ok: true, price: verdict.value, body: { orderId: order.uid, price: verdict.value } };
  }
  const kind: Protection = line.kind === 'stopLoss' ? 'stopLoss' : 'takeProfit';
  const referenceText = pending ? order.limitPrice : quote === null ? order.currentPrice : closePriceOf(direction, quote);
  const reference = referenceText === null ? null : parseMoney(referenceText);
  if (reference === null) return { ok: false, messageKey: 'chart.line_no_price' };
  const verdict = checkProtection(typed, kind, direction, reference, decimals, 'refuse');
  if (!verdict.ok) return refused(verdict);
  const body: UpdateOrderBody = kind === 'stopLoss' ? { orderId: order.uid, stopPrice: verdict.value } : { orderId: order.uid, takeProfitPrice: verdict.value };
  return { ok: true, price: verdict.value, body };
}
