import { moneyScale, parseMoney, type Units } from './money';

/**
 * The rules of a transfer between a currency wallet and the USD trading cash, shared by
 * the wallet screen (its live quote) and the server (the quote it holds the customer to).
 * `num` is what leaves: the wallet's currency on the way in (type 0), USD trading cash on
 * the way out (type 1). The fee is kept in that same unit; `practical` is what arrives.
 * Every figure has 4 decimals, rounded in the house's favour: the fee up, what arrives down.
 */
export const TransferType = { in: 0, out: 1 } as const;
export type TransferType = (typeof TransferType)[keyof typeof TransferType];

/** The trading cash's unit: what leaves on the way out. */
export const tradingCashUnit = 'USD';

/** The unit a transfer's `num` (and its fee) is in: the wallet's currency on the way in, USD on the way out (the draft's `unit`). */
export function transferAmountUnit(type: TransferType, currency: string): string {
  return type === TransferType.in ? currency : tradingCashUnit;
}

/** Decimals of a transfer's amount, fee and practical amount (the spec's precision 4, step 0.0001). */
export const transferDecimals = 4;
const step = 10n ** BigInt(moneyScale - transferDecimals);
const unit = 10n ** BigInt(moneyScale);

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

/** An amount as the customer types it: positive, at most 4 decimals; null otherwise (zero included: it does nothing). */
export function parseTransferAmount(text: string): Units | null {
  if (!/^\d{1,16}(\.\d{1,4})?$/.test(text.trim())) return null;
  const units = parseMoney(text);
  return units !== null && units > 0n ? units : null;
}

export interface TransferQuote {
  type: TransferType;
  /** What leaves, in its unit. */
  num: Units;
  /** Kept by the house, in the unit that leaves. */
  fee: Units;
  /** What arrives, in its unit (0 when the amount is too small to carry anything). */
  practical: Units;
  /** The currency side of the transfer (what leaves the wallet, or arrives in it). */
  currencyAmount: Units;
  /** The USD side (what arrives in the trading cash, or leaves it). */
  usdAmount: Units;
}

/**
 * Quotes a transfer of `num` at `price` (USD per unit of the currency: the bid on the way
 * in, the ask on the way out) with the currency's `feeRate` (0.001 = 0.1 %). All amounts
 * are ledger units (10^-8); non-negative inputs, price above zero.
 */
export function quoteTransfer(input: { type: TransferType; num: Units; feeRate: Units; price: Units }): TransferQuote {
  const { type, num, feeRate, price } = input;
  if (num <= 0n || feeRate < 0n || price <= 0n) throw new RangeError('a transfer quote needs a positive amount and price and a fee rate of at least 0');
  // num × rate is in 10^-16; to 10^-4, rounded up.
  const fee = ceilDiv(num * feeRate, unit * step) * step;
  const net = num > fee ? num - fee : 0n;
  const practical =
    type === TransferType.in
      ? ((net * price) / (unit * step)) * step // currency × USD/unit, down to 10^-4
      : ((net * unit) / (price * step)) * step; // USD ÷ USD/unit, down to 10^-4
  return type === TransferType.in
    ? { type, num, fee, practical, currencyAmount: num, usdAmount: practical }
    : { type, num, fee, practical, currencyAmount: practical, usdAmount: num };
}

/** Whether the quote the customer saw (fee and practical, as shown) still holds now. */
export function quoteStillHolds(seen: { fee: Units; practical: Units }, now: Pick<TransferQuote, 'fee' | 'practical'>): boolean {
  return seen.fee === now.fee && seen.practical === now.practical;
}
