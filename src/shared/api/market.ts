import * as z from 'zod/mini';
import { klinePeriods } from '../market/kline';
import { contract, noBody } from './contract';
import { decimalString } from './envelope';
import { productTypes } from '../market/product-types';

export { ProductType, productTypeNumber, productTypes, type ProductTypeName } from '../market/product-types';

const weekdaySeconds = z.array(z.int().check(z.minimum(0), z.maximum(86399))).check(z.length(7));

export const productSchema = z.object({
  productCode: z.string(),
  productName: z.string(),
  productType: z.int().check(z.minimum(1), z.maximum(5)),
  tradeStatus: z.union([z.literal(0), z.literal(1)]),
  pricePrecision: z.int().check(z.minimum(0), z.maximum(8)),
  /** Volume step. */
  pip: decimalString,
  /** Leverage. */
  multiple: z.int().check(z.positive()),
  minCount: decimalString,
  maxCount: decimalString,
  /** Decimals of the volume. */
  countNum: z.int().check(z.minimum(0), z.maximum(8)),
  logoUrl: z.string(),
  sort: z.nullable(z.int()),
  marketStartTime: weekdaySeconds,
  marketCloseTime: weekdaySeconds,
  contractSize: decimalString,
  spread: decimalString,
  feeRate: decimalString,
  overnightRate: decimalString,
});
export type Product = z.infer<typeof productSchema>;

export const priceTickSchema = z.object({
  symbol: z.string(),
  name: z.string(),
  price: decimalString,
  bidPrice: decimalString,
  askPrice: decimalString,
  volume: decimalString,
  lastUpdate: z.int(),
  type: z.enum(productTypes),
  priceChangePercent: decimalString,
  low: decimalString,
  high: decimalString,
});
export type PriceTick = z.infer<typeof priceTickSchema>;

export const wireBarSchema = z.object({
  time: z.int(),
  openPrice: decimalString,
  highestPrice: decimalString,
  lowestPrice: decimalString,
  closePrice: decimalString,
  volume: decimalString,
  turnover: decimalString,
});

export const marketStatusSchema = z.enum(['open', 'closed', 'early_trading']);

/** History requests ask for at most this many bars. */
export const historyLimitMax = 300;

export const historyBody = z.strictObject({
  symbol: z.string().check(z.minLength(1), z.maxLength(32)),
  period: z.enum(klinePeriods),
  limit: z._default(z.int().check(z.minimum(1), z.maximum(historyLimitMax)), historyLimitMax),
});

export const historyRangeBody = z.strictObject({
  symbol: z.string().check(z.minLength(1), z.maxLength(32)),
  period: z.enum(klinePeriods),
  from: z.int().check(z.minimum(0)),
  to: z.int().check(z.minimum(0)),
});

export const productListData = z.object({ list: z.array(productSchema) });

/**
 * What the order form needs to place an order on a product: volume bounds, step and
 * decimals, the leverage choices (the product's own, its maximum, and the lower steps), the fee and
 * overnight rates, the contract size that sizes the margin, and the product's hours.
 */
export const productOrderInfoSchema = z.extend(z.omit(productSchema, { logoUrl: true, sort: true }), {
  /** The leverages an order may take (`multiple`, the default, among them). */
  leverages: z.array(z.int().check(z.positive())),
});
export type ProductOrderInfo = z.infer<typeof productOrderInfoSchema>;

export const productCodeBody = z.strictObject({ productCode: z.string().check(z.trim(), z.minLength(1), z.maxLength(32)) });

// Market-data calls under {marketRoot}; `:symbol` is filled from the payload's symbol.
export const marketHistory = contract('/market/history', historyBody, z.array(wireBarSchema));
export const marketHistoryRange = contract('/market/history/limit', historyRangeBody, z.array(wireBarSchema));
/** The latest tick, and whether it is stale: older than the staleness limit (`market/price-freshness.ts`), no live feed behind it. */
export const marketThumb = contract('/market/thumb/:symbol', noBody, z.extend(priceTickSchema, { stale: z.boolean() }));
export const marketStatus = contract('/market/status/:symbol', noBody, marketStatusSchema);
export const productList = contract('/v1/wa-na/forex/product/list', noBody, productListData);

// Signed in: the search list (tradable products), and the products' trading info.
export const productSearchList = contract('/v1/waa/product/searchList', noBody, z.object({ forexProductList: z.array(productSchema) }));
export const productOrderInfoAll = contract('/v1/waa/product/orderInfoAll', noBody, z.record(z.string(), productOrderInfoSchema));
export const productOrderInfo = contract('/v1/waa/product/orderInfo', productCodeBody, productOrderInfoSchema);

/**
 * `/topic/price-1s/{symbol}`: the symbol's latest tick at most once per this many ms (the
 * newest at the end of each window), for screens that glance at a price (lists, hot cards,
 * a hidden browser's positions) and need not pay for every tick.
 */
export const glancePriceIntervalMs = 1_000;

/** The per-symbol price topic: every tick, or at most one a second (`glance`). */
export const priceTopic = (symbol: string, glance = false) => (glance ? `/topic/price-1s/${symbol}` : `/topic/price/${symbol}`);

/** The STOMP destinations the market endpoint serves. */
export function parseMarketDestination(
  destination: string,
):
  | { topic: 'prices' }
  | { topic: 'price' | 'price-1s'; symbol: string }
  | { topic: 'kline'; symbol: string; period: (typeof klinePeriods)[number] }
  | null {
  if (destination === '/topic/prices') return { topic: 'prices' };
  const price = /^\/topic\/(price|price-1s)\/([A-Za-z0-9._-]{1,32})$/.exec(destination);
  if (price?.[2]) return { topic: price[1] === 'price' ? 'price' : 'price-1s', symbol: price[2] };
  const kline = /^\/topic\/kline\/([A-Za-z0-9._-]{1,32})\/([0-9a-z]+)$/.exec(destination);
  const period = kline?.[2];
  if (kline?.[1] && period && (klinePeriods as readonly string[]).includes(period)) {
    return { topic: 'kline', symbol: kline[1], period: period as (typeof klinePeriods)[number] };
  }
  return null;
}

/** A decimal string of the contract (the same rule as `decimalString`, without zod). */
export const decimalPattern = /^-?\d+(\.\d+)?$/;
const productTypeSet = new Set<string>(productTypes);

/**
 * The hot-path twin of `priceTickSchema`: the same rules without building a new object,
 * for the worker's tick ingest. `tests/unit/shared/api/market.test.ts` keeps the two in
 * agreement.
 */
export function isPriceTick(value: unknown): value is PriceTick {
  if (typeof value !== 'object' || value === null) return false;
  const tick = value as Record<string, unknown>;
  return (
    typeof tick.symbol === 'string' &&
    typeof tick.name === 'string' &&
    typeof tick.type === 'string' &&
    productTypeSet.has(tick.type) &&
    typeof tick.lastUpdate === 'number' &&
    Number.isInteger(tick.lastUpdate) &&
    [tick.price, tick.bidPrice, tick.askPrice, tick.volume, tick.priceChangePercent, tick.low, tick.high].every(
      (field) => typeof field === 'string' && decimalPattern.test(field),
    )
  );
}

/** A `/topic/prices` body as ticks; null when it is not JSON or not of the contract's shape. */
export function decodePriceBatch(body: string): PriceTick[] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  return Array.isArray(parsed) && parsed.every(isPriceTick) ? parsed : null;
}
