import { parseMoney, type Units } from './money';

/** A currency's terms as the back office sets them (amounts as exact decimal strings). */
export interface CurrencyTerms {
  code: string;
  name: string;
  decimals: number;
  icon: string;
  /** The market product whose live price values it in USD; null when pegged to the USD. */
  valuedByProduct: string | null;
  transferFeeRate: string;
  enabled: boolean;
  sort: number;
}

/** As the fee quote names them (withdrawal-quote.ts): a percentage, a fixed amount, or empty: no fee. */
export const withdrawFeeTypes = ['PERCENTAGE', 'FIX_AMOUNT', ''] as const;
export type WithdrawFeeTypeName = (typeof withdrawFeeTypes)[number];

/** A network's terms as the back office sets them. */
export interface CoinNetworkTerms {
  network: string;
  depositAddress: string;
  minWithdraw: string;
  maxWithdraw: string;
  withdrawFeeType: WithdrawFeeTypeName;
  withdrawFee: string;
  enabled: boolean;
}

/** Which field is wrong and why, for the error's detail. */
export interface ConfigViolation<T> {
  field: keyof T;
  problem: string;
}

const one: Units = parseMoney('1') ?? 0n;
const hundred: Units = parseMoney('100') ?? 0n;
/** The currency table's own rule (a CHECK in 0015): 2–12 capitals or digits. */
export const currencyCodePattern = /^[A-Z0-9]{2,12}$/;
/** Addresses of every chain we know use letters, digits and a few separators (bech32, base58, hex, memo tags). */
export const depositAddressPattern = /^[A-Za-z0-9:_.-]{10,128}$/;
const networkNamePattern = /^[A-Za-z0-9 ._\-()]{2,32}$/;

/**
 * Whether a currency's terms are acceptable: a code of 2–12 capitals/digits, a name of 1–60
 * characters, 0–8 decimals, 0 ≤ transfer fee rate < 1 (exact, at most 8 decimals), a whole
 * sort from 0 to 9999. Whether the price product exists is the caller's (the market's) to say.
 */
export function currencyTermsViolation(terms: CurrencyTerms): ConfigViolation<CurrencyTerms> | null {
  if (!currencyCodePattern.test(terms.code)) return { field: 'code', problem: 'must be 2 to 12 capital letters or digits' };
  const name = terms.name.trim();
  if (name.length === 0 || name.length > 60 || name !== terms.name) return { field: 'name', problem: 'must be 1 to 60 characters without outer spaces' };
  if (!Number.isInteger(terms.decimals) || terms.decimals < 0 || terms.decimals > 8) return { field: 'decimals', problem: 'must be a whole number from 0 to 8' };
  if (terms.icon.length > 300) return { field: 'icon', problem: 'must be at most 300 characters' };
  if (terms.valuedByProduct !== null && !/^[A-Z0-9._]{2,32}$/.test(terms.valuedByProduct)) return { field: 'valuedByProduct', problem: 'must be a product code or null (USD-pegged)' };
  const feeRate = parseMoney(terms.transferFeeRate);
  if (feeRate === null || feeRate < 0n || feeRate >= one) return { field: 'transferFeeRate', problem: 'must be at least 0 and below 1' };
  if (!Number.isInteger(terms.sort) || terms.sort < 0 || terms.sort > 9999) return { field: 'sort', problem: 'must be a whole number from 0 to 9999' };
  return null;
}

/** The quotes a valuation product may have: the currency priced in dollars (or in a dollar stablecoin). */
const usdQuotes = ['USD', 'USDT', 'USDC'] as const;

/**
 * Whether a product can value a currency: only a price of that currency in dollars (BTC by
 * BTCUSDT, EUR by EURUSD). USDT re-pointed to BTCUSDT would price a dollar at a bitcoin's
 * worth, and a transfer would then create money; null (pegged at 1 USD) is always allowed.
 */
export function isValuationSourceOf(code: string, productCode: string | null): boolean {
  return productCode === null || usdQuotes.some((quote) => productCode === `${code}${quote}`);
}

/**
 * Whether a network's terms are acceptable: a network name of 2–32 plain characters, a
 * platform deposit address (trimmed, 10–128 of letters, digits and `: _ . -`), 0 ≤ minimum ≤
 * maximum withdrawal, a fee type and a fee ≥ 0 (a percentage below 100; 0 with the empty type, which charges none).
 */
export function coinNetworkTermsViolation(terms: CoinNetworkTerms): ConfigViolation<CoinNetworkTerms> | null {
  if (!networkNamePattern.test(terms.network) || terms.network.trim() !== terms.network) return { field: 'network', problem: 'must be 2 to 32 letters, digits, spaces or . _ - ( )' };
  if (!depositAddressPattern.test(terms.depositAddress)) return { field: 'depositAddress', problem: 'must be 10 to 128 letters, digits or : _ . - without spaces' };
  const min = parseMoney(terms.minWithdraw);
  if (min === null || min < 0n) return { field: 'minWithdraw', problem: 'must be a decimal of at least 0' };
  const max = parseMoney(terms.maxWithdraw);
  if (max === null || max < min) return { field: 'maxWithdraw', problem: 'must be at least the minimum withdrawal' };
  if (!withdrawFeeTypes.includes(terms.withdrawFeeType)) return { field: 'withdrawFeeType', problem: 'must be PERCENTAGE, FIX_AMOUNT or empty' };
  const fee = parseMoney(terms.withdrawFee);
  if (fee === null || fee < 0n) return { field: 'withdrawFee', problem: 'must be a decimal of at least 0' };
  if (terms.withdrawFeeType === 'PERCENTAGE' && fee >= hundred) return { field: 'withdrawFee', problem: 'a percentage must be below 100' };
  // A fee beside the empty type would read as charged while none is.
  if (terms.withdrawFeeType === '' && fee !== 0n) return { field: 'withdrawFee', problem: 'must be 0 when the fee type is empty (no fee)' };
  return null;
}
