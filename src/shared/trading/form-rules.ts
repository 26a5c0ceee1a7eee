import { formatMoney, moneyScale, parseMoney, type Units } from '../money/money';
import { Direction, feeFor, pendingPriceBandPercent, pendingPriceOutsideBand, profitLossFor, type ProductTerms } from './order-rules';

/**
 * The place form's input rules (the specification's section 5): what a typed value
 * becomes when the field is left, and which message says why. Pure, shared by the forms
 * and their tests; the server checks again with codes.
 */
export type FieldVerdict =
  | { ok: true; value: string }
  | { ok: false; value: string; messageKey: string; params?: Record<string, string> };

/** Keeps digits and one decimal point, with at most `decimals` decimals (as typed). */
export function sanitizeDecimalInput(typed: string, decimals: number): string {
  let seenPoint = false;
  let out = '';
  for (const char of typed) {
    if (char >= '0' && char <= '9') out += char;
    else if ((char === '.' || char === ',') && !seenPoint && decimals > 0) {
      seenPoint = true;
      out += '.';
    }
  }
  const [whole = '', fraction] = out.split('.');
  return fraction === undefined ? whole : `${whole}.${fraction.slice(0, decimals)}`;
}

function fixed(units: Units, decimals: number): string {
  const text = formatMoney(units, decimals);
  const [whole, fraction = ''] = text.split('.');
  return decimals > 0 ? `${whole}.${fraction.slice(0, decimals).padEnd(decimals, '0')}` : (whole ?? '0');
}

/** Volume: empty → the minimum; above the maximum → the maximum; below the minimum → the minimum; else down to the step. */
export function checkVolume(typed: string, terms: { minCount: string; maxCount: string; pip: string; countNum: number }): FieldVerdict {
  const min = parseMoney(terms.minCount) ?? 0n;
  const max = parseMoney(terms.maxCount) ?? 0n;
  const step = parseMoney(terms.pip) ?? 0n;
  const decimals = terms.countNum;
  const value = parseMoney(typed);
  if (typed.trim() === '' || value === null) return { ok: false, value: fixed(min, decimals), messageKey: 'trade.volume_empty' };
  if (value > max) return { ok: false, value: fixed(max, decimals), messageKey: 'trade.volume_max', params: { max: fixed(max, decimals) } };
  if (value < min) return { ok: false, value: fixed(min, decimals), messageKey: 'trade.volume_min', params: { min: fixed(min, decimals) } };
  const stepped = step > 0n ? value - (value % step) : value;
  return { ok: true, value: fixed(stepped < min ? min : stepped, decimals) };
}

/**
 * A price that must stay on one side of the current price: at most it (`'max'`) or at
 * least it (`'min'`). Beyond it, the field is set to the current price with a message.
 */
export function checkSidedPrice(typed: string, current: Units, side: 'max' | 'min', decimals: number, emptyKey: string): FieldVerdict {
  const value = parseMoney(typed);
  if (typed.trim() === '' || value === null) return { ok: false, value: '', messageKey: emptyKey };
  if (value < 0n) return { ok: false, value: '', messageKey: 'trade.stoploss_zero_rule' };
  const limit = fixed(current, decimals);
  if (side === 'max' && value > current) return { ok: false, value: limit, messageKey: 'trade.max_is', params: { value: limit } };
  if (side === 'min' && value < current) return { ok: false, value: limit, messageKey: 'trade.min_is', params: { value: limit } };
  return { ok: true, value: fixed(value, decimals) };
}

/**
 * A pending price: on its side of the current price (a buy limit at or below it, a sell
 * limit at or above it) and within the band around it; beyond the band the field is set
 * to the band's edge, with the server's message.
 */
export function checkPendingPrice(typed: string, current: Units, buy: boolean, decimals: number): FieldVerdict {
  const sided = checkSidedPrice(typed, current, buy ? 'max' : 'min', decimals, 'trade.wrong_price');
  const value = sided.ok ? parseMoney(sided.value) : null;
  if (value === null || !pendingPriceOutsideBand(buy ? Direction.buy : Direction.sell, value, current)) return sided;
  // The edge on the price grid, rounded into the band (up for a buy, down for a sell).
  const band = BigInt(pendingPriceBandPercent);
  const step = 10n ** BigInt(moneyScale - Math.min(decimals, moneyScale));
  const exact = current * (100n + (buy ? -band : band));
  const edge = buy ? (((exact + 99n) / 100n + step - 1n) / step) * step : (exact / 100n / step) * step;
  return { ok: false, value: fixed(edge, decimals), messageKey: 'trade.pending_price_band', params: { percent: String(pendingPriceBandPercent) } };
}

/** A stop loss or a take profit. */
export type Protection = 'stopLoss' | 'takeProfit';

/**
 * Where a protection must lie: a buy's stop loss below the reference price and its take
 * profit above it, the reverse for a sell (the same sides as the server's rules).
 */
export function protectionSide(kind: Protection, direction: Direction): 'below' | 'above' {
  return (kind === 'stopLoss') === (direction === Direction.buy) ? 'below' : 'above';
}

/**
 * A stop loss or take profit as typed, against the reference price (the price the order
 * fills or the position closes at, or the pending order's limit). Empty, zero or not a
 * number is refused with its message. On the wrong side (`onWrongSide`): the forms clamp
 * the field to the reference with the max-is or min-is message, as the spec's section 5
 * says (`'clamp'`); a dragged chart line is refused with the side it must be on and the
 * typed value kept (`'refuse'`), since a drop is not rewritten to a level it was not put at.
 */
export function checkProtection(typed: string, kind: Protection, direction: Direction, reference: Units, decimals: number, onWrongSide: 'clamp' | 'refuse' = 'clamp'): FieldVerdict {
  const stop = kind === 'stopLoss';
  if (typed.trim() === '') return { ok: false, value: typed, messageKey: stop ? 'trade.stoploss_empty_rule' : 'trade.takeprofit_empty_rule' };
  const value = parseMoney(typed);
  if (value === null || value <= 0n) return { ok: false, value: typed, messageKey: stop ? 'trade.stoploss_positive_rule' : 'trade.takeprofit_positive_rule' };
  const side = protectionSide(kind, direction);
  const wrongSide = side === 'below' ? value > reference : value < reference;
  if (!wrongSide) return { ok: true, value: fixed(value, decimals) };
  const limit = fixed(reference, decimals);
  if (onWrongSide === 'clamp') return { ok: false, value: limit, messageKey: side === 'below' ? 'trade.max_is' : 'trade.min_is', params: { value: limit } };
  const messageKey = `trade.${stop ? 'stoploss' : 'takeprofit'}_${side}_${direction === Direction.buy ? 'buy' : 'sell'}`;
  return { ok: false, value: typed, messageKey, params: { price: limit } };
}

/**
 * What the position would gain (positive) or lose if a typed stop loss or take profit
 * closed it: the shared profit rule from the price it opens at. Null while either is not
 * a usable number.
 */
export function protectionOutcome(typed: string, direction: Direction, openPrice: Units | null, volume: Units | null, terms: Pick<ProductTerms, 'contractSize'>): Units | null {
  const level = parseMoney(typed);
  if (level === null || level <= 0n || openPrice === null || volume === null || volume <= 0n) return null;
  return profitLossFor(direction, openPrice, level, volume, terms);
}

/**
 * The fee the form previews: what the fill will charge, at the price it fills at — the
 * current price for a market order, the limit for a pending one (charged when it fills).
 */
export function previewFee(fillPrice: Units | null, volume: Units | null, terms: Pick<ProductTerms, 'contractSize' | 'feeRate'>): Units | null {
  if (fillPrice === null || volume === null) return null;
  return feeFor(fillPrice, volume, terms);
}
