import { ErrorCode } from '../errors/catalogue';
import { divideMoney, multiplyMoney, parseMoney, type Units } from '../money/money';

/** Direction everywhere: 0 buy, 1 sell. Price type (buyPoint): 2 market, 1 pending. */
export type Direction = 0 | 1;
export type PriceType = 1 | 2;

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
  return direction === 0 ? limitPrice * 100n < currentPrice * (100n - band) : limitPrice * 100n > currentPrice * (100n + band);
}

/** Margin = price × volume × contract size ÷ leverage. */
export function marginFor(price: Units, volume: Units, terms: Pick<ProductTerms, 'contractSize' | 'multiple'>): Units {
  const notional = multiplyMoney(multiplyMoney(price, volume), parseMoney(terms.contractSize) ?? 0n);
  return divideMoney(notional, BigInt(terms.multiple) * 100_000_000n);
}

/** Fee = price × volume × contract size × fee rate. */
export function feeFor(price: Units, volume: Units, terms: Pick<ProductTerms, 'contractSize' | 'feeRate'>): Units {
  return multiplyMoney(multiplyMoney(multiplyMoney(price, volume), parseMoney(terms.contractSize) ?? 0n), parseMoney(terms.feeRate) ?? 0n);
}

/** Profit (positive) or loss of a position closed at `closePrice`. */
export function profitLossFor(direction: Direction, openPrice: Units, closePrice: Units, volume: Units, terms: Pick<ProductTerms, 'contractSize'>): Units {
  const move = direction === 0 ? closePrice - openPrice : openPrice - closePrice;
  return multiplyMoney(multiplyMoney(move, volume), parseMoney(terms.contractSize) ?? 0n);
}

/**
 * The order rules with their codes: stop loss and take profit are checked against the
 * price the order fills at (the current ask for a market buy, the bid for a market sell,
 * the limit price of a pending order). Null when valid.
 */
export function orderRuleViolation(request: OrderRequest, terms: ProductTerms, currentPrice: Units): number | null {
  if (terms.tradeStatus !== 1) return ErrorCode.PAIR_PROHIBITED;
  if (request.volume <= 0n) return ErrorCode.LOT_SIZE_NOT_POSITIVE;
  const step = parseMoney(terms.pip) ?? 0n;
  if (step > 0n && request.volume % step !== 0n) return ErrorCode.INCORRECT_PARAMETER_VALUE;
  if (request.volume < (parseMoney(terms.minCount) ?? 0n)) return ErrorCode.LOT_SIZE_BELOW_LIMIT;
  if (request.volume > (parseMoney(terms.maxCount) ?? 0n)) return ErrorCode.LOT_SIZE_ABOVE_LIMIT;
  const buy = request.direction === 0;
  if (request.priceType === 1) {
    if (request.limitPrice === null || request.limitPrice <= 0n) return ErrorCode.PENDING_PRICE_NOT_POSITIVE;
    // A buy limit waits below the price, a sell limit above it; otherwise it is a market order.
    if (buy ? request.limitPrice > currentPrice : request.limitPrice < currentPrice) return ErrorCode.INCORRECT_PARAMETER_VALUE;
  }
  if (request.stopLoss !== null && request.stopLoss <= 0n) return ErrorCode.INCORRECT_PARAMETER_VALUE;
  if (request.takeProfit !== null && request.takeProfit <= 0n) return ErrorCode.INCORRECT_PARAMETER_VALUE;
  const { stopLoss, takeProfit } = request;
  if (request.priceType === 2) {
    // Market: against the price it fills at.
    if (buy) {
      if (takeProfit !== null && takeProfit < currentPrice) return ErrorCode.TAKE_PROFIT_BELOW_CURRENT;
      if (stopLoss !== null && stopLoss > currentPrice) return ErrorCode.STOP_LOSS_ABOVE_CURRENT;
    } else {
      if (takeProfit !== null && takeProfit > currentPrice) return ErrorCode.TAKE_PROFIT_ABOVE_CURRENT;
      if (stopLoss !== null && stopLoss < currentPrice) return ErrorCode.STOP_LOSS_BELOW_CURRENT;
    }
  } else if (request.limitPrice !== null) {
    // Pending: against the limit price it will fill at.
    const limit = request.limitPrice;
    if (buy) {
      if (takeProfit !== null && takeProfit < limit) return ErrorCode.TAKE_PROFIT_BELOW_LIMIT;
      if (stopLoss !== null && stopLoss > limit) return ErrorCode.STOP_LOSS_ABOVE_LIMIT;
    } else {
      if (takeProfit !== null && takeProfit > limit) return ErrorCode.TAKE_PROFIT_ABOVE_LIMIT;
      if (stopLoss !== null && stopLoss < limit) return ErrorCode.STOP_LOSS_BELOW_LIMIT;
    }
  }
  return null;
}
