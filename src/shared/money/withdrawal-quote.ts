import { AppErrorCode } from '../errors/app-codes';
import { divideMoney, formatMoney, money, moneyScale, multiplyMoney, parseMoney, type Units } from './money';

/**
 * The withdrawal's rules (../shared/spec/account-and-money.md "Withdraw"), defined once for
 * the app (range hint, fee preview) and the server (the quote it answers, the submission it
 * accepts): the amount's input rule, the bounds (the coin's or the bank channel's, within the
 * general 50 – 10,000,000 USD), and the fee quote. Amounts are exact (BigInt units of 10^-8).
 */

/** The general limits, in USD (spec §9 "Withdrawal: minimum 50 USD, maximum 10,000,000 USD"). */
export const withdrawalUsdMin = money('50');
export const withdrawalUsdMax = money('10000000');

/** Amounts are typed with at most 5 decimals (spec §9). */
export const withdrawalAmountDecimals = 5;

/** The fee quote's type (spec §3 "Fee quote"): PERCENTAGE, FIX_AMOUNT or empty, which charges no fee. */
export const WithdrawalFeeType = { percentage: 'PERCENTAGE', fixAmount: 'FIX_AMOUNT', none: '' } as const;
export type WithdrawalFeeType = (typeof WithdrawalFeeType)[keyof typeof WithdrawalFeeType];
export const withdrawalFeeTypes = [WithdrawalFeeType.percentage, WithdrawalFeeType.fixAmount, WithdrawalFeeType.none] as const;

/** The amount field's rule: digits and one point, a leading "." stripped, at most 5 decimals. */
export function withdrawalAmountInput(raw: string): string {
  let value = raw.replace(/[^\d.]/g, '').replace(/^\.+/, '');
  const point = value.indexOf('.');
  if (point >= 0) value = value.slice(0, point + 1) + value.slice(point + 1).replace(/\./g, '').slice(0, withdrawalAmountDecimals);
  return value;
}

/** Whether a typed amount is a positive number with at most 5 decimals (what a quote may be asked for). */
export function parseWithdrawalAmount(value: string): Units | null {
  if (!/^\d{1,22}(\.\d{1,5})?$/.test(value.trim())) return null;
  const units = parseMoney(value);
  return units !== null && units > 0n ? units : null;
}

/** A withdrawal channel's terms: a coin network's or the bank card channel's. */
export interface WithdrawalChannel {
  /** In the channel's currency; null where the channel names none (the bank channel's bound defaults to 0). */
  minAmount: Units | null;
  maxAmount: Units | null;
  feeType: WithdrawalFeeType;
  /** A percentage (1.5 = 1.5 %) or a fixed amount in the channel's currency; unused when the type is empty. */
  feeNum: Units;
}

export interface WithdrawalBounds {
  min: Units;
  max: Units;
}

/**
 * The amounts one may withdraw on a channel, in its currency: the channel's bounds (0 where
 * it names none) within the general 50 – 10,000,000 USD at the currency's USD rate. Empty
 * (min > max) when the two do not meet.
 */
export function withdrawalBounds(channel: Pick<WithdrawalChannel, 'minAmount' | 'maxAmount'>, usdRate: Units): WithdrawalBounds {
  if (usdRate <= 0n) throw new RangeError('a withdrawal needs a positive USD rate');
  // The smallest amount worth 50 USD (rounded up), the largest worth at most 10,000,000 USD (rounded down).
  const usdMinInCurrency = ceilDivide(withdrawalUsdMin * 10n ** 8n, usdRate);
  const usdMaxInCurrency = (withdrawalUsdMax * 10n ** 8n) / usdRate;
  const channelMin = channel.minAmount ?? 0n;
  const channelMax = channel.maxAmount ?? 0n;
  return { min: channelMin > usdMinInCurrency ? channelMin : usdMinInCurrency, max: channelMax < usdMaxInCurrency ? channelMax : usdMaxInCurrency };
}

function ceilDivide(numerator: bigint, denominator: bigint): bigint {
  return (numerator + denominator - 1n) / denominator;
}

/**
 * The bounds as an amount can be typed (5 decimals): the minimum rounded up, the maximum cut
 * down. The same typed amounts are within them; the hint then names amounts one can type.
 */
export function typedWithdrawalBounds(bounds: WithdrawalBounds): WithdrawalBounds {
  const step = 10n ** BigInt(moneyScale - withdrawalAmountDecimals);
  const min = bounds.min % step === 0n ? bounds.min : bounds.min - (bounds.min % step) + step;
  return { min, max: bounds.max - (bounds.max % step) };
}

export function withinBounds(amount: Units, bounds: WithdrawalBounds): boolean {
  return amount >= bounds.min && amount <= bounds.max;
}

/**
 * What "Max" fills in: the most the available balance allows within the channel's bounds, cut
 * (never rounded up) to the amount field's 5 decimals; the fee comes out of the amount, so it
 * is what is held. Null when nothing can be withdrawn: the balance under the minimum, or
 * nothing left to arrive after the fee.
 */
export function withdrawalMaxAmount(available: Units, bounds: WithdrawalBounds, channel: Pick<WithdrawalChannel, 'feeType' | 'feeNum'>): Units | null {
  const step = 10n ** BigInt(moneyScale - withdrawalAmountDecimals);
  const capped = available < bounds.max ? available : bounds.max;
  const amount = capped - (capped % step);
  if (amount <= 0n || amount < bounds.min) return null;
  return amount - withdrawalFee(amount, channel) > 0n ? amount : null;
}

/** The fee of a withdrawal of `amount` on the channel, in its currency, rounded to the ledger's scale. */
export function withdrawalFee(amount: Units, channel: Pick<WithdrawalChannel, 'feeType' | 'feeNum'>): Units {
  if (channel.feeType === WithdrawalFeeType.none) return 0n;
  if (channel.feeType === WithdrawalFeeType.fixAmount) return channel.feeNum;
  return divideMoney(multiplyMoney(amount, channel.feeNum), money('100'));
}

/** The quote as `withdraw/walletCalculate` and `withdraw/bankCalculate` answer it (strings are exact decimals). */
export interface WithdrawalQuote {
  feeType: WithdrawalFeeType;
  /** The fee, in the channel's currency. */
  feeNum: string;
  feeUsd: string;
  /** What arrives: the amount less the fee. */
  practical: string;
  /** The amount is more than the available balance. */
  isOver: boolean;
  /** The available balance once the amount is held. */
  afterBalance: string;
  /** What arrives and the balance after, in USD at the quote's rate (the form shows both in USD, spec §2 "Withdraw"). */
  practicalUsd: string;
  afterBalanceUsd: string;
}

export function withdrawalQuote(input: { amount: Units; channel: WithdrawalChannel; usdRate: Units; available: Units }): WithdrawalQuote {
  const fee = withdrawalFee(input.amount, input.channel);
  const practical = input.amount - fee;
  const afterBalance = input.available - input.amount;
  return {
    feeType: input.channel.feeType,
    feeNum: formatMoney(fee),
    feeUsd: formatMoney(multiplyMoney(fee, input.usdRate)),
    practical: formatMoney(practical),
    isOver: input.amount > input.available,
    afterBalance: formatMoney(afterBalance),
    practicalUsd: formatMoney(multiplyMoney(practical, input.usdRate)),
    afterBalanceUsd: formatMoney(multiplyMoney(afterBalance, input.usdRate)),
  };
}

export type WithdrawalRefusal =
  | { code: typeof AppErrorCode.INCORRECT_PARAMETER_VALUE; reason: 'amount_range'; min: string; max: string }
  | { code: typeof AppErrorCode.INCORRECT_PARAMETER_VALUE; reason: 'practical_rule' }
  | { code: typeof AppErrorCode.INCORRECT_PARAMETER_VALUE; reason: 'practical_mismatch' }
  | { code: typeof AppErrorCode.INSUFFICIENT_BALANCE; reason: 'insufficient_balance' };

/**
 * Whether a submission may go on, before the hold: the amount within the bounds, something
 * left to arrive after the fee, the practical amount the customer saw equal to the one the
 * rules give now (so a changed fee is never paid unseen), and enough available balance
 * (the hold re-checks this atomically; this is the answer the customer reads first).
 */
export function withdrawalRefusal(input: {
  amount: Units;
  practicalSeen: Units;
  channel: WithdrawalChannel;
  usdRate: Units;
  available: Units;
}): WithdrawalRefusal | null {
  const bounds = withdrawalBounds(input.channel, input.usdRate);
  if (!withinBounds(input.amount, bounds)) {
    return { code: AppErrorCode.INCORRECT_PARAMETER_VALUE, reason: 'amount_range', min: formatMoney(bounds.min), max: formatMoney(bounds.max) };
  }
  const practical = input.amount - withdrawalFee(input.amount, input.channel);
  if (practical <= 0n) return { code: AppErrorCode.INCORRECT_PARAMETER_VALUE, reason: 'practical_rule' };
  if (practical !== input.practicalSeen) return { code: AppErrorCode.INCORRECT_PARAMETER_VALUE, reason: 'practical_mismatch' };
  if (input.amount > input.available) return { code: AppErrorCode.INSUFFICIENT_BALANCE, reason: 'insufficient_balance' };
  return null;
}
