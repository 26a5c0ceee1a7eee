import { divideRounded, moneyScale, parseMoney } from '../../../../shared/money/money';

/** Option amounts are whole units (amount_positive_int_rule): the stepper's precision is 0 and its step 1. */
const unit = 10n ** BigInt(moneyScale);
const step = 1n;

/**
 * The − / + stepper (`sign` −1 / 1): the typed amount rounded to a whole unit, moved by one step, and
 * kept within the entry's minimum (at least 1) and maximum (0: none). An empty or
 * unreadable field starts at the minimum.
 */
export function stepOptionAmount(typed: string, sign: 1 | -1, bounds: { min: number; max: number }): string {
  const lower = BigInt(Math.max(bounds.min, 1));
  const upper = bounds.max > 0 ? BigInt(bounds.max) : null;
  const units = parseMoney(typed);
  let next = units === null || typed.trim() === '' ? lower : divideRounded(units, unit) + (sign === 1 ? step : -step);
  if (next < lower) next = lower;
  if (upper !== null && next > upper) next = upper;
  return next.toString();
}
