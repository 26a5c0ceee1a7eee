import { AppErrorCode } from '../errors/app-codes';
import { isTradable } from '../market/tradability';
import { divideMoney, multiplyMoney, parseMoney, type Units } from '../money/money';
import { Direction } from './direction';

export { Direction } from './direction';

/** Price type (the wire's buyPoint): 1 pending (a limit price), 2 market. */
export const PriceType = { pending: 1, market: 2 } as const;
export type PriceType = (typeof PriceType)[keyof typeof PriceType];

/** Which side of a quote a price is read from. */
export type QuoteSide = 'bid' | 'ask';

/** A buy fills at the ask, a sell at the bid. */
export function fillSide(direction: Direction): QuoteSide {
  return direction === Direction.buy ? 'ask' : 'bid';
}

/** A buy closes (and its stop loss and take profit watch) the bid, a sell the ask. */
export function closeSide(direction: Direction): QuoteSide {
  return direction === Direction.buy ? 'bid' : 'ask';
}

/** The price an order in `direction` fills at on this quote. */
export function fillPriceOf<T>(direction: Direction, quote: { readonly bid: T; readonly ask: T }): T {
  return quote[fillSide(direction)];
}

/** The price a position in `direction` closes at on this quote. */
export function closePriceOf<T>(direction: Direction, quote: { readonly bid: T; readonly ask: T }): T {
  return quote[closeSide(direction)];
}

/** The spread of a quote: what a round trip costs per unit, ask − bid. */
export function spreadOf(quote: { readonly bid: Units; readonly ask: Units }): Units {
  return quote.ask - quote.bid;
}

/** Order statuses: 1 pending, 2 position, 3 deal (closed), 4 canceled. */
export const OrderStatus = { pending: 1, position: 2, deal: 3, canceled: 4 } as const;

export interface ProductTerms {
  tradeStatus: number;
  /** Volume step. */
  pip: string;
  minCount: string;
  maxCount: string;
  contractSize: string;
  /** Leverage. */
  multiple: number;
  feeRate: string;
}

export interface OrderRequest {
  direction: Direction;
  priceType: PriceType;
  volume: Units;
  /** The limit price of a pending order. */
  limitPrice: Units | null;
  stopLoss: Units | null;
  takeProfit: Units | null;
}

/**
 * A pending price must lie within this percentage of the market: a buy limit no lower than
 * (1 − band) × price, a sell limit no higher than (1 + band) × price. Far-away limits lock
 * next to no margin and would never fill.
 */
export const pendingPriceBandPercent = 50;

/** Whether a pending order's limit price lies outside the band around the current price. */
export function pendingPriceOutsideBand(direction: Direction, limitPrice: Units, currentPrice: Units): boolean {
  const band = BigInt(pendingPriceBandPercent);
  return direction === Direction.buy ? limitPrice * 100n < currentPrice * (100n - band) : limitPrice * 100n > currentPrice * (100n + band);
}

/** The common leverage steps a trader may pick below a product's own. */
export const leverageSteps = [1, 2, 5, 10, 20, 50, 100, 200, 500] as const;

/**
 * The leverages an order may use on a product: the steps below the product's leverage and
 * the product's own, its maximum and the default. Less leverage locks more margin.
 */
export function leverageChoices(productLeverage: number): number[] {
  return [...leverageSteps.filter((step) => step < productLeverage), productLeverage];
}

/** Whether an order may use `leverage` on a product whose own (maximum) leverage is `productLeverage`. */
export function leverageAllowed(leverage: number, productLeverage: number): boolean {
  return leverageChoices(productLeverage).includes(leverage);
}

/** Notional = price × volume × contract size: what a position is worth at `price`. */
export function notionalFor(price: Units, volume: Units, terms: Pick<ProductTerms, 'contractSize'>): Units {
  return multiplyMoney(multiplyMoney(price, volume), parseMoney(terms.contractSize) ?? 0n);
}

/** Margin = notional ÷ leverage. */
export function marginFor(price: Units, volume: Units, terms: Pick<ProductTerms, 'contractSize' | 'multiple'>): Units {
  return divideMoney(notionalFor(price, volume, terms), BigInt(terms.multiple) * 100_000_000n);
}

/** Fee = notional × fee rate. */
export function feeFor(price: Units, volume: Units, terms: Pick<ProductTerms, 'contractSize' | 'feeRate'>): Units {
  return multiplyMoney(notionalFor(price, volume, terms), parseMoney(terms.feeRate) ?? 0n);
}

/** The daily overnight fee of an open position: its notional at the open price × the product's overnight rate. */
export function overnightFeeFor(openPrice: Units, volume: Units, terms: { contractSize: string; overnightRate: string }): Units {
  return multiplyMoney(notionalFor(openPrice, volume, terms), parseMoney(terms.overnightRate) ?? 0n);
}

/** Profit (positive) or loss of a position closed at `closePrice`. */
export function profitLossFor(direction: Direction, openPrice: Units, closePrice: Units, volume: Units, terms: Pick<ProductTerms, 'contractSize'>): Units {
  const move = direction === Direction.buy ? closePrice - openPrice : openPrice - closePrice;
  return multiplyMoney(multiplyMoney(move, volume), parseMoney(terms.contractSize) ?? 0n);
}

/**
 * The order rules with their codes: stop loss and take profit are checked against the
 * price the order fills at (the current ask for a market buy, the bid for a market sell,
 * the limit price of a pending order). Null when valid.
 */
export function orderRuleViolation(request: OrderRequest, terms: ProductTerms, currentPrice: Units): number | null {
  if (!isTradable(terms)) return AppErrorCode.PAIR_PROHIBITED;
  if (request.volume <= 0n) return AppErrorCode.LOT_SIZE_NOT_POSITIVE;
  const step = parseMoney(terms.pip) ?? 0n;
  if (step > 0n && request.volume % step !== 0n) return AppErrorCode.INCORRECT_PARAMETER_VALUE;
  if (request.volume < (parseMoney(terms.minCount) ?? 0n)) return AppErrorCode.LOT_SIZE_BELOW_LIMIT;
  if (request.volume > (parseMoney(terms.maxCount) ?? 0n)) return AppErrorCode.LOT_SIZE_ABOVE_LIMIT;
  if (request.priceType === PriceType.pending) {
    if (request.limitPrice === null) return AppErrorCode.PENDING_PRICE_NOT_POSITIVE;
    // The band is the caller's to answer, with its own message.
    const pending = pendingPriceViolation(request.direction, request.limitPrice, currentPrice);
    if (typeof pending === 'number') return pending;
  }
  return protectionRuleViolation(request.direction, request.priceType === PriceType.market ? { kind: 'market', price: currentPrice } : { kind: 'pending', price: request.limitPrice ?? currentPrice }, request);
}

/**
 * The stop loss and take profit rules with their codes, at placement and when a position or
 * pending order is edited: each must be above 0 (313 / 314, below the lowest price allowed)
 * and on its side of the reference price — the price a market order fills or a position
 * closes at (308–311), or a pending order's limit (312–315). Null when valid.
 */
export function protectionRuleViolation(
  direction: Direction,
  reference: { kind: 'market' | 'pending'; price: Units },
  levels: { stopLoss: Units | null; takeProfit: Units | null },
): number | null {
  const { stopLoss, takeProfit } = levels;
  if (stopLoss !== null && stopLoss <= 0n) return AppErrorCode.STOP_LOSS_BELOW_LIMIT;
  if (takeProfit !== null && takeProfit <= 0n) return AppErrorCode.TAKE_PROFIT_BELOW_LIMIT;
  const buy = direction === Direction.buy;
  const price = reference.price;
  if (reference.kind === 'market') {
    if (buy) {
      if (takeProfit !== null && takeProfit < price) return AppErrorCode.TAKE_PROFIT_BELOW_CURRENT;
      if (stopLoss !== null && stopLoss > price) return AppErrorCode.STOP_LOSS_ABOVE_CURRENT;
    } else {
      if (takeProfit !== null && takeProfit > price) return AppErrorCode.TAKE_PROFIT_ABOVE_CURRENT;
      if (stopLoss !== null && stopLoss < price) return AppErrorCode.STOP_LOSS_BELOW_CURRENT;
    }
  } else if (buy) {
    if (takeProfit !== null && takeProfit < price) return AppErrorCode.TAKE_PROFIT_BELOW_LIMIT;
    if (stopLoss !== null && stopLoss > price) return AppErrorCode.STOP_LOSS_ABOVE_LIMIT;
  } else {
    if (takeProfit !== null && takeProfit > price) return AppErrorCode.TAKE_PROFIT_ABOVE_LIMIT;
    if (stopLoss !== null && stopLoss < price) return AppErrorCode.STOP_LOSS_BELOW_LIMIT;
  }
  return null;
}

/**
 * The limit price of a pending order, at placement and when it is moved: above 0 (301), on
 * its side of the current fill price (a buy limit at or below it, a sell limit at or above
 * it; else it would be a market order) and within the band. Null when valid; 'band' when
 * only the band is broken (answered with its own message).
 */
export function pendingPriceViolation(direction: Direction, limitPrice: Units, currentPrice: Units): number | 'band' | null {
  if (limitPrice <= 0n) return AppErrorCode.PENDING_PRICE_NOT_POSITIVE;
  if (direction === Direction.buy ? limitPrice > currentPrice : limitPrice < currentPrice) return AppErrorCode.INCORRECT_PARAMETER_VALUE;
  return pendingPriceOutsideBand(direction, limitPrice, currentPrice) ? 'band' : null;
}

/**
 * When a position may first be closed by hand: its open time plus the minimum holding time.
 * The server refuses an earlier close (409) and tells the app this time, so both read one rule.
 */
export function closableAfterMs(openedAtMs: number, minHoldSeconds: number): number {
  return openedAtMs + minHoldSeconds * 1000;
}

/**
 * What a position's close button waits for: the time left before `closableAfterTime` as
 * "m:ss", or null when it may be closed now (or has no holding time).
 */
export function holdTimeLeft(closableAfterTime: number | null, nowMs: number): string | null {
  return closableAfterTime !== null && nowMs < closableAfterTime ? holdCountdownText(closableAfterTime - nowMs) : null;
}

/** The time left before a manual close, as the button shows it: "m:ss", rounded up to the second. */
export function holdCountdownText(remainingMs: number): string {
  const seconds = Math.max(0, Math.ceil(remainingMs / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
