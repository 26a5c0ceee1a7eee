import * as z from 'zod/mini';
import { contract, moneyInput } from './contract';
import { decimalString } from './envelope';

/**
 * Timed options: the product calls (anonymous and signed in), placement on the exchange
 * root (real and demo paths), and the order calls. The order calls have no Mock variants:
 * the server answers from the book of the caller's token.
 */
/** The largest page of running orders (the open list fetches them all with 99999). */
export const optionRunningLimitMax = 99_999;
/** The largest page of settled orders (the history asks for 10). */
export const optionSettledLimitMax = 100;

/**
 * An option product. `timeRatePayload` maps keys to entries (ordered by key), each
 * `timeLong;profitRate;chips;max;min[;name]` (see src/shared/options/option-rules.ts).
 */
export const optionProduct = z.object({
  id: z.int(),
  productCode: z.string(),
  productName: z.string(),
  /** 1 tradable, 0 not. */
  tradeStatus: z.union([z.literal(0), z.literal(1)]),
  /** The fee as a fraction of the amount ("0.01" is 1 %), charged at placement. */
  feeRate: decimalString,
  timeRatePayload: z.record(z.string(), z.string()),
});
export type OptionProduct = z.infer<typeof optionProduct>;

export const optionProductsBody = z.strictObject({
  limit: z._default(z.int().check(z.minimum(1), z.maximum(100)), 20),
  page: z._default(z.int().check(z.minimum(1)), 1),
  productCode: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(32))),
});
export const optionProductsData = z.object({ optionsProducts: z.array(optionProduct) });

export const findOptionsProduct = contract('/v1/wa-na/option/findOptionsProduct', optionProductsBody, optionProductsData);
export const optionProductList = contract('/v1/waa/option/productList', optionProductsBody, optionProductsData);

export const addOptionOrderBody = z.strictObject({
  tradePair: z.string().check(z.trim(), z.minLength(1), z.maxLength(32)),
  /** The `id` of the pair's option product. */
  optionsProductId: z.int().check(z.positive()),
  /** The price the client showed; the server starts the option at its own latest tick. */
  price: moneyInput,
  /** Delivery time in seconds: one of the product's entries. */
  timeLong: z.int().check(z.positive()),
  /** The client's clock at submission (unix time); informational, the server's clock rules. */
  btime: z.int().check(z.minimum(0)),
  /** The profit rate the client showed, as a fraction (profit percent ÷ 100): must be the one on offer. */
  rate: moneyInput,
  /** A whole amount within the entry's min and max. */
  amount: moneyInput,
  /** 0 up (buy), 1 down (sell). */
  orderType: z.union([z.literal(0), z.literal(1)]),
  /** Retrying with the same id places one option. */
  clientOrderId: z.string().check(z.trim(), z.minLength(1), z.maxLength(64)),
});
export type AddOptionOrderBody = z.infer<typeof addOptionOrderBody>;

export const addOptionOrderData = z.object({
  /** The order number. */
  uid: z.string(),
  /** When the option started (ms); it ends timeLong seconds later. */
  beginTime: z.int(),
});
export type AddOptionOrderData = z.infer<typeof addOptionOrderData>;

/** Real accounts use the plain path, demo accounts the Mock one (the exchange root). */
export const addOptionOrder = contract('/exchange/addOptionOrder', addOptionOrderBody, addOptionOrderData);
export const addOptionOrderMock = contract('/exchange/addOptionOrderMock', addOptionOrderBody, addOptionOrderData);

// Defined with the option rules; named here too for the callers of these contracts.
export { OptionStatus } from '../options/option-rules';

/** An option order as the specification names its fields. */
export const optionOrder = z.object({
  id: z.int(),
  /** The order number. */
  uid: z.string(),
  /** 0 up (buy), 1 down (sell). */
  orderType: z.int(),
  tradePair: z.string(),
  productName: z.string(),
  optionsProductId: z.int(),
  /** The start price: the server's tick at placement (its time in priceTime). */
  price: decimalString,
  priceTime: z.int(),
  /** The settlement price: the recorded tick at endTime (its time in priceEndTime); null while running or when void. */
  priceEnd: z.nullable(decimalString),
  priceEndTime: z.nullable(z.int()),
  feeAmount: decimalString,
  /** Seconds. */
  timeLong: z.int(),
  beginTime: z.int(),
  endTime: z.int(),
  /** When it was settled; null while running. */
  completeTime: z.nullable(z.int()),
  amount: decimalString,
  /** The profit rate as a fraction (profit percent ÷ 100), as placed. */
  rate: decimalString,
  /** The result: the profit on a win, minus the amount on a loss, 0 when equal or void; null while running. */
  winLost: z.nullable(decimalString),
  /** 0 running, 1 settled. */
  status: z.union([z.literal(0), z.literal(1)]),
  /** The same as `status`, under the name the specification gives it (lists filter on it). */
  positionStatus: z.union([z.literal(0), z.literal(1)]),
  /** How it ended: win, loss, equal (amount refunded) or void (amount and fee refunded); null while running. */
  result: z.nullable(z.enum(['win', 'loss', 'equal', 'void'])),
  /** Why a void option was voided ('no-price': no recorded tick near endTime; 'demo-reset'). */
  voidReason: z.nullable(z.string()),
});
export type OptionOrder = z.infer<typeof optionOrder>;

export const optionUidBody = z.strictObject({ uid: z.string().check(z.trim(), z.minLength(1), z.maxLength(40)) });

export const optionOrderByUid = contract('/v1/waa/option/order', optionUidBody, optionOrder);
export const optionCompleted = contract('/v1/waa/option/completed', optionUidBody, z.object({ completed: z.boolean() }));

export const optionOrderListBody = z.strictObject({
  page: z._default(z.int().check(z.minimum(1)), 1),
  /** Running lists take up to 99999; settled pages hold at most 100 (10 by default). */
  limit: z._default(z.int().check(z.minimum(1), z.maximum(optionRunningLimitMax)), 10),
  positionStatus: z.union([z.literal(0), z.literal(1)]),
});
export type OptionOrderListBody = z.infer<typeof optionOrderListBody>;

export const optionOrderListData = z.object({
  items: z.array(optionOrder),
  pages: z.int(),
  /** The sum of winLost over the book's options settled today (server day, UTC) and over all. */
  todayWinLoss: decimalString,
  totalWinLoss: decimalString,
});
export type OptionOrderListData = z.infer<typeof optionOrderListData>;

export const optionOrderList = contract('/v1/waa/option/orderList', optionOrderListBody, optionOrderListData);
