import * as z from 'zod/mini';
import { contract, moneyInput } from './contract';
import { decimalString } from './envelope';
import { accountBalance } from './account';
import { optionOrder } from './options';
import { historyFilters } from '../trading/history-filters';
import { noticeFeedMessage } from './notices';

export const addOrderBody = z.strictObject({
  tradePair: z.string().check(z.trim(), z.minLength(1), z.maxLength(32)),
  /** "0" for a market order; the limit price of a pending one. */
  price: moneyInput,
  stopPrice: z.optional(moneyInput),
  takeProfitPrice: z.optional(moneyInput),
  orderQuantity: moneyInput,
  /** Leverage; must be the product's. */
  multiple: z.int().check(z.positive()),
  /** 0 buy, 1 sell. */
  orderType: z.union([z.literal(0), z.literal(1)]),
  /** 2 market, 1 pending. */
  buyPoint: z.union([z.literal(1), z.literal(2)]),
  /** Retrying with the same id places one order. */
  clientOrderId: z.string().check(z.trim(), z.minLength(1), z.maxLength(64)),
});
export type AddOrderBody = z.infer<typeof addOrderBody>;

export const orderIdBody = z.strictObject({ orderId: z.string().check(z.trim(), z.minLength(1), z.maxLength(40)) });

/** Real accounts use the plain paths, demo accounts the Mock ones (the exchange root). */
export const addOrder = contract('/exchange/addOrder', addOrderBody, z.string());
export const addOrderMock = contract('/exchange/addOrderMock', addOrderBody, z.string());
export const closeOrder = contract('/exchange/closeOrder', orderIdBody, z.null());
export const closeOrderMock = contract('/exchange/closeOrderMock', orderIdBody, z.null());
export const cancelOrder = contract('/exchange/cancelOrder', orderIdBody, z.null());
export const cancelOrderMock = contract('/exchange/cancelOrderMock', orderIdBody, z.null());

/**
 * Moves an open position's stop loss and take profit, or a pending order's limit price and
 * levels, under the placement rules. A level left out stays as it is; "" removes it (the
 * emptied field as the form holds it, and a string like every other price of the body, where
 * null would be a second type); "0" is refused (313/314). A moved limit price locks the margin
 * it needs, or releases the excess; an extra beyond the free margin is refused (203).
 */
export const levelRemoved = '';
const levelEdit = z.union([moneyInput, z.literal(levelRemoved)]);
export const updateOrderBody = z.strictObject({
  orderId: z.string().check(z.trim(), z.minLength(1), z.maxLength(40)),
  stopPrice: z.optional(levelEdit),
  takeProfitPrice: z.optional(levelEdit),
  /** The new limit price; pending orders only. */
  price: z.optional(moneyInput),
});
export type UpdateOrderBody = z.infer<typeof updateOrderBody>;
export const updateOrder = contract('/exchange/updateOrder', updateOrderBody, z.null());
export const updateOrderMock = contract('/exchange/updateOrderMock', updateOrderBody, z.null());

/** What an edit sends for a level: a typed price; "" when the order had one and it was emptied; nothing when it had none. */
export function levelEditOf(typed: string, had: string | null): string | undefined {
  if (typed.trim() !== '') return typed;
  return had === null ? undefined : levelRemoved;
}

/** A market order as the specification names its fields (open, pending or closed). */
export const tradeOrder = z.object({
  id: z.int(),
  /** The order number (shown as the order id). */
  uid: z.string(),
  /** 0 buy, 1 sell. */
  orderType: z.int(),
  /** 1 pending, 2 market. */
  buyPoint: z.int(),
  /** 1 pending, 2 position, 3 deal (closed), 4 canceled. */
  status: z.int(),
  /** The same as `status`, under the name the specification gives it (lists filter on it). */
  positionStatus: z.int(),
  tradePair: z.string(),
  productName: z.string(),
  orderQuantity: decimalString,
  lever: z.int(),
  /** Margin. */
  securityDepositInitial: decimalString,
  openingPrice: z.nullable(decimalString),
  /** The limit price of a pending order. */
  limitPrice: z.nullable(decimalString),
  /** The price a position would close at now (live feed), else null. */
  currentPrice: z.nullable(decimalString),
  /** The cover price of a closed order. */
  closingPrice: z.nullable(decimalString),
  stopPrice: z.nullable(decimalString),
  takeProfitPrice: z.nullable(decimalString),
  /** Realized (closed) or open profit and loss; for a pending order the expected one at its limit. */
  profitLoss: z.nullable(decimalString),
  /** Opening fee and overnight fees so far. */
  feeAmount: decimalString,
  /** The overnight fees so far alone (part of `feeAmount`). */
  overnightFee: decimalString,
  closeReason: z.nullable(z.string()),
  orderTime: z.int(),
  /** The same as `orderTime`, under the name the specification gives it. */
  orderTimeTs: z.int(),
  transactionTime: z.nullable(z.int()),
  transactionTimeTs: z.nullable(z.int()),
  closingTimeTs: z.nullable(z.int()),
  /** When an open position may first be closed by hand (its minimum holding time); null otherwise. */
  closableAfterTime: z.nullable(z.int()),
});
export type TradeOrder = z.infer<typeof tradeOrder>;

/** The time columns a list of orders can be sorted by, newest first. */
export const orderTimeColumns = ['orderTime', 'transactionTime', 'closingTime'] as const;
export type OrderTimeColumn = (typeof orderTimeColumns)[number];

/**
 * The history's status tabs (position status 1 to 4: pending, position, deal, canceled),
 * each sorted by the time that ends its stage: placed, filled, or closed/canceled.
 */
export const historyStatusColumns: Record<1 | 2 | 3 | 4, readonly OrderTimeColumn[]> = {
  1: ['orderTime'],
  2: ['transactionTime'],
  3: ['closingTime'],
  4: ['closingTime'],
};

/** `columns`: the sort columns, most significant first (the specification sends ['closingTime']). */
const sortColumns = z.array(z.enum(orderTimeColumns)).check(z.minLength(1), z.maxLength(orderTimeColumns.length));

export const historyBody = z.strictObject({
  page: z._default(z.int().check(z.minimum(1)), 1),
  limit: z._default(z.int().check(z.minimum(1), z.maximum(100)), 10),
  positionStatus: z._default(z.int().check(z.minimum(1), z.maximum(4)), 3),
  columns: z._default(sortColumns, ['closingTime']),
  /** One of the history's filters (see history-filters.ts); when sent it replaces positionStatus. */
  filter: z.optional(z.enum(historyFilters)),
});

export const orderHistoryData = z.object({
  list: z.array(tradeOrder),
  pages: z.int(),
  profitLossToday: decimalString,
  profitLossTotal: decimalString,
});

export const orderHistory = contract('/v1/waa/order/history', historyBody, orderHistoryData);
export const orderHistoryMock = contract('/v1/waa/order/historyMock', historyBody, orderHistoryData);

/**
 * The transaction list: the book's orders newest first, of any status unless one is asked
 * for; `uid` narrows it to that one order of the book (the list's `?uid=` detail).
 */
export const orderListBody = z.strictObject({
  page: z._default(z.int().check(z.minimum(1)), 1),
  limit: z._default(z.int().check(z.minimum(1), z.maximum(100)), 10),
  positionStatus: z.optional(z.int().check(z.minimum(1), z.maximum(4))),
  uid: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(40))),
  columns: z._default(sortColumns, ['orderTime']),
});

export const orderListData = z.object({
  list: z.array(tradeOrder),
  pages: z.int(),
});

export const orderList = contract('/v1/waa/order/list', orderListBody, orderListData);
export const orderListMock = contract('/v1/waa/order/listMock', orderListBody, orderListData);

/** The summary the positions feed pushes with each list. */
export const positionsSummary = z.object({
  orderList: z.array(tradeOrder),
  profitLossSum: decimalString,
  /** Equity: cash + locked margin + open profit and loss. */
  netValue: decimalString,
  /** Margin level in percent. */
  securityDepositPrent: decimalString,
  /** Free margin (the available prepayment). */
  securityDepositAvailableSum: decimalString,
});
export type PositionsSummary = z.infer<typeof positionsSummary>;

/** A message of `/exchange/ws`. */
export const positionsFeedMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('holtOrder'), data: positionsSummary }),
  z.object({ type: z.literal('pendingOrder'), data: positionsSummary }),
]);
export type PositionsFeedMessage = z.infer<typeof positionsFeedMessage>;

/** An option placed or settled, pushed on `/exchange/ws` to the option's account. */
export const optionFeedMessage = z.object({ type: z.literal('option'), data: optionOrder });
export type OptionFeedMessage = z.infer<typeof optionFeedMessage>;

/**
 * The account's balance (the same fields as `user/balance`), pushed on `/exchange/ws` when
 * the socket joins and after every change to the account's money, so that no view polls it.
 */
export const accountFeedMessage = z.object({ type: z.literal('account'), data: accountBalance });
export type AccountFeedMessage = z.infer<typeof accountFeedMessage>;

/**
 * Every message of `/exchange/ws`. The positions lists alone stay `positionsFeedMessage`,
 * so that a reader of the positions does not take an option for a list. A notice's message
 * (the unread count, src/shared/api/notices.ts) rides the same socket.
 */
export const exchangeFeedMessage = z.discriminatedUnion('type', [...positionsFeedMessage.def.options, optionFeedMessage, accountFeedMessage, noticeFeedMessage]);
export type ExchangeFeedMessage = z.infer<typeof exchangeFeedMessage>;

/**
 * What a browser may say on `/exchange/ws`: the pace it wants pushes that only prices cause
 * (positions' profit and loss) at most, e.g. slower while no tab is visible. Changes of
 * orders or money still come at once. The server keeps it between its own interval (250 ms)
 * and 60 s; anything else a browser sends is ignored.
 */
export const exchangeCadenceMessage = z.strictObject({ type: z.literal('cadence'), data: z.strictObject({ intervalMs: z.int().check(z.minimum(0), z.maximum(3_600_000)) }) });
export type ExchangeCadenceMessage = z.infer<typeof exchangeCadenceMessage>;
