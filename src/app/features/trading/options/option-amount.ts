import { divideRounded, moneyScale, parseMoney } from '../../../../shared/money/money';
import { optionAmountBounds } from '../../../../shared/options/option-rules';

/** Option amounts are whole units (amount_positive_int_rule): the stepper's precision is 0 and its step 1. */
const unit = 10n ** BigInt(moneyScale);
const step = 1n;

/**
 * The − / + stepper (`sign` −1 / 1): the typed amount rounded to a whole unit, moved by one step, and
 * kept within the entry's minimum (at least 1) and maximum (0: none). An empty or
 * unreadable field starts at the minimum.
 */
export function stepOptionAmount(typed: string, sign: 1 | -1, bounds: { min: number; max: number }): string {
  const { min, max } = optionAmountBounds(bounds);
  const lower = BigInt(min);
  const upper = max === null ? null : BigInt(max);
  const units = parseMoney(typed);
  let next = units === null || typed.trim() === '' ? lower : divideRounded(units, unit) + (sign === 1 ? step : -step);
  if (next < lower) next = lower;
  if (upper !== null && next > upper) next = upper;
  return next.toString();
}
