import { AppErrorCode } from '../errors/app-codes';
import { isTradable } from '../market/tradability';
import { divideRounded, moneyScale, multiplyMoney, parseMoney, type Units } from '../money/money';

/**
 * Timed options, the rules the server and the option form share: the product's
 * delivery-time entries, the placement checks with their codes, the payout arithmetic
 * (exact money) and the countdown's progress. Pure: no I/O, no clock.
 */

/**
 * One entry of a product's `timeRatePayload`, as text:
 *
 *     timeLong;profitRate;chips;max;min[;name]
 *
 * e.g. `30;80;10|50|100|500;10000;10;30s`. The outer fields are separated by `;` (the
 * chips use `|`, so the outer delimiter must differ); every field is trimmed; `name`
 * is optional and may not contain `;`. timeLong: whole seconds above 0. profitRate:
 * percent above 0 with at most 2 decimals (80 pays 80 % of the amount on a win).
 * chips: whole amounts above 0 separated by `|`, or empty for none. max and min: whole
 * amounts; max 0 means no maximum; min may not exceed a non-zero max.
 */
export const timeRateFieldDelimiter = ';';
export const chipDelimiter = '|';

export interface OptionTimeRate {
  /** The payload key the entry came from (entries are ordered by key). */
  key: string;
  timeLong: number;
  /** Profit rate in percent, as an exact decimal ("80", "87.5"). */
  profitRate: string;
  chips: number[];
  /** 0: no maximum. */
  max: number;
  min: number;
  name: string;
}

const wholeNumber = /^\d{1,15}$/;
const percent = /^\d{1,4}(\.\d{1,2})?$/;

/** One entry, or null when it is malformed. */
export function parseTimeRateEntry(key: string, text: string): OptionTimeRate | null {
  const fields = text.split(timeRateFieldDelimiter).map((field) => field.trim());
  if (fields.length < 5 || fields.length > 6) return null;
  const [timeText = '', rateText = '', chipsText = '', maxText = '', minText = '', name = ''] = fields;
  if (!wholeNumber.test(timeText) || !percent.test(rateText) || !wholeNumber.test(maxText) || !wholeNumber.test(minText)) return null;
  const timeLong = Number(timeText);
  const max = Number(maxText);
  const min = Number(minText);
  if (timeLong <= 0 || (parseMoney(rateText) ?? 0n) <= 0n) return null;
  if (max > 0 && min > max) return null;
  const chipTexts = chipsText === '' ? [] : chipsText.split(chipDelimiter).map((chip) => chip.trim());
  if (chipTexts.some((chip) => !wholeNumber.test(chip) || Number(chip) <= 0)) return null;
  // Written back without leading zeros so that equal rates compare equal as text.
  const profitRate = rateText.replace(/^0+(?=\d)/, '');
  return { key, timeLong, profitRate, chips: chipTexts.map(Number), max, min, name };
}

/** Keys in order: numerically when both are whole numbers ("2" before "10"), else as text. */
function compareKeys(a: string, b: string): number {
  if (/^\d+$/.test(a) && /^\d+$/.test(b)) return Number(a) - Number(b) || a.localeCompare(b);
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The usable entries of a payload, ordered by key, and the keys rejected: malformed
 * entries, and an entry repeating an earlier entry's duration (it would be ambiguous).
 */
export function parseTimeRatePayload(payload: Readonly<Record<string, string>>): { entries: OptionTimeRate[]; rejected: string[] } {
  const entries: OptionTimeRate[] = [];
  const rejected: string[] = [];
  for (const key of Object.keys(payload).sort(compareKeys)) {
    const entry = parseTimeRateEntry(key, payload[key] ?? '');
    if (!entry || entries.some((other) => other.timeLong === entry.timeLong)) rejected.push(key);
    else entries.push(entry);
  }
  return { entries, rejected };
}

/** Which rule a placement broke: the specification's message keys, or the server-only checks. */
export type OptionRule =
  | 'no_option_configuration'
  | 'pair_missing'
  | 'option_config_missing'
  | 'closed'
  | 'delivery_empty_rule'
  | 'delivery_time_rule'
  | 'rate_rule'
  | 'amount_empty_rule'
  | 'amount_positive_int_rule'
  | 'amount_range_rule'
  | 'insufficient_balance';

export interface OptionViolation {
  rule: OptionRule;
  code: number;
}

export interface OptionPlacementInput {
  /** Whether any option product is configured at all (603 when none). */
  anyConfiguration: boolean;
  /** Whether the pair is a known instrument (604). */
  pairExists: boolean;
  /** The pair's option product (606 when missing), with its parsed entries. */
  product: { tradeStatus: number; feeRate: string; entries: readonly OptionTimeRate[] } | null;
  /** The underlying market is open and its product tradable (605 otherwise). */
  marketOpen: boolean;
  /** The chosen delivery time in seconds; null when none is chosen yet. */
  timeLong: number | null;
  /** The profit rate the client showed, as a fraction ("0.8" for 80 %); null skips the check (the form). */
  rate: string | null;
  /** The amount as typed or sent. */
  amount: string;
  /** Available cash; null skips the balance check. */
  balance: Units | null;
}

const unit = 10n ** BigInt(moneyScale);

/** The whole amounts an entry allows: at least its minimum and never below 1; at most its maximum, none when that is 0. */
export function optionAmountBounds(entry: Pick<OptionTimeRate, 'min' | 'max'>): { min: number; max: number | null } {
  return { min: Math.max(entry.min, 1), max: entry.max > 0 ? entry.max : null };
}

/** The fee of an option: amount × the product's fee rate (a fraction, "0.01" is 1 %). */
export function optionFee(amount: Units, feeRate: string): Units {
  return multiplyMoney(amount, parseMoney(feeRate) ?? 0n);
}

/**
 * The placement rules in the order they are checked; null when the placement is valid.
 * Configuration: 603, 604, 606, 605. Delivery time and rate: 602. Amount: a whole number
 * (1016), at least the minimum and, when the maximum is above 0, at most it (1016);
 * amount and fee together within the balance (203).
 */
export function optionPlacementViolation(input: OptionPlacementInput): OptionViolation | null {
  if (!input.anyConfiguration) return { rule: 'no_option_configuration', code: AppErrorCode.NO_OPTION_CONFIGURATION };
  if (!input.pairExists) return { rule: 'pair_missing', code: AppErrorCode.PAIR_DOES_NOT_EXIST };
  const product = input.product;
  if (!product || product.entries.length === 0) return { rule: 'option_config_missing', code: AppErrorCode.OPTION_CONFIG_FOR_PAIR_MISSING };
  if (!isTradable(product) || !input.marketOpen) return { rule: 'closed', code: AppErrorCode.PAIR_NOT_TRADABLE };
  if (input.timeLong === null) return { rule: 'delivery_empty_rule', code: AppErrorCode.OPTION_TIME_ERROR };
  const entry = product.entries.find((each) => each.timeLong === input.timeLong);
  if (!entry) return { rule: 'delivery_time_rule', code: AppErrorCode.OPTION_TIME_ERROR };
  if (input.rate !== null) {
    const rate = parseMoney(input.rate);
    // The rate the client showed must be the one on offer: a payout never differs from what the user saw.
    if (rate === null || rate * 100n !== parseMoney(entry.profitRate)) return { rule: 'rate_rule', code: AppErrorCode.OPTION_TIME_ERROR };
  }
  const text = input.amount.trim();
  if (text === '') return { rule: 'amount_empty_rule', code: AppErrorCode.INCORRECT_PARAMETER_VALUE };
  const amount = parseMoney(text);
  if (amount === null || amount <= 0n || amount % unit !== 0n) return { rule: 'amount_positive_int_rule', code: AppErrorCode.INCORRECT_PARAMETER_VALUE };
  const whole = amount / unit;
  const bounds = optionAmountBounds(entry);
  if (whole < BigInt(bounds.min) || (bounds.max !== null && whole > BigInt(bounds.max))) {
    return { rule: 'amount_range_rule', code: AppErrorCode.INCORRECT_PARAMETER_VALUE };
  }
  if (input.balance !== null && amount + optionFee(amount, product.feeRate) > input.balance) {
    return { rule: 'insufficient_balance', code: AppErrorCode.INSUFFICIENT_BALANCE };
  }
  return null;
}

/** An option's direction (the wire's orderType): 0 up (buy), 1 down (sell). */
export const OptionDirection = { up: 0, down: 1 } as const;
export type OptionDirection = (typeof OptionDirection)[keyof typeof OptionDirection];

/** An option order's status: 0 running (pending or waiting for settlement), 1 settled. */
export const OptionStatus = { running: 0, settled: 1 } as const;
export type OptionStatus = (typeof OptionStatus)[keyof typeof OptionStatus];

export type OptionOutcome = 'win' | 'loss' | 'equal';

export interface OptionSettlement {
  outcome: OptionOutcome;
  /** What goes back to the user's cash: amount + profit on a win, nothing on a loss, the amount when equal. */
  payout: Units;
  /** The user's result: the profit on a win, minus the amount on a loss, 0 when equal (the fee is apart). */
  winLost: Units;
}

/** The profit of a win: amount × profit rate ÷ 100, rounded to the ledger's scale. */
export function optionProfit(amount: Units, profitRatePercent: string): Units {
  return divideRounded(amount * (parseMoney(profitRatePercent) ?? 0n), 100n * unit);
}

/** Up (0) wins when the end price is above the start price, down (1) when below; equal refunds. */
export function settleOption(direction: OptionDirection, amount: Units, profitRatePercent: string, startPrice: Units, endPrice: Units): OptionSettlement {
  if (endPrice === startPrice) return { outcome: 'equal', payout: amount, winLost: 0n };
  const won = direction === OptionDirection.up ? endPrice > startPrice : endPrice < startPrice;
  if (!won) return { outcome: 'loss', payout: 0n, winLost: -amount };
  const profit = optionProfit(amount, profitRatePercent);
  return { outcome: 'win', payout: amount + profit, winLost: profit };
}

/** Why a demo account's reset voided its running options: nothing was refunded, the account started afresh. */
export const demoResetVoidReason = 'demo-reset';

/**
 * What a settled option gave back, as its history shows it in place of a result: the amount
 * on a draw, the amount and the fee on a void (none when a demo reset voided it: no money
 * moved); null for a win or a loss, whose result is their win/loss.
 */
export function optionRefund(order: { result: string | null; voidReason: string | null; amount: string; feeAmount: string }): Units | null {
  const amount = parseMoney(order.amount);
  if (amount === null) return null;
  if (order.result === 'equal') return amount;
  if (order.result !== 'void' || order.voidReason === demoResetVoidReason) return null;
  return amount + (parseMoney(order.feeAmount) ?? 0n);
}

/** How a running option stands at the live price: as it would settle now. */
export type OptionStanding = 'winning' | 'losing' | 'even';

/**
 * A running option's standing: up wins above its start price, down below it, the start price
 * itself is even (the amount back), compared exactly; null while either price is unknown.
 */
export function optionStanding(direction: OptionDirection, startPrice: string | null, livePrice: string | null | undefined): OptionStanding | null {
  const start = startPrice === null ? null : parseMoney(startPrice);
  const live = livePrice === null || livePrice === undefined ? null : parseMoney(livePrice);
  if (start === null || live === null) return null;
  if (live === start) return 'even';
  return (direction === OptionDirection.up ? live > start : live < start) ? 'winning' : 'losing';
}

/** The countdown bar: ceil(remaining seconds ÷ timeLong × 100), from 100 down to 0. */
export function progressPercent(remainingMs: number, timeLongSeconds: number): number {
  if (!(remainingMs > 0) || !(timeLongSeconds > 0)) return 0;
  return Math.min(100, Math.ceil((remainingMs * 100) / (timeLongSeconds * 1000)));
}

/** The seconds left at which a screen reader hears an option's countdown: a few milestones, not every second. */
export const countdownMilestonesSeconds = [60, 30, 10] as const;

/** The milestone the countdown has reached (the last one passed), or null before the first. */
export function countdownMilestone(secondsLeft: number): number | null {
  const passed = countdownMilestonesSeconds.filter((milestone) => secondsLeft <= milestone);
  return passed.length ? Math.min(...passed) : null;
}
