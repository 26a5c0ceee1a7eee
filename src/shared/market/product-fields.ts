import { parseMoney, type Units } from '../money/money';

/** The product terms the back office may change (never a price), as exact decimal strings. */
export interface ProductTerms {
  tradeStatus: 0 | 1;
  spread: string;
  feeRate: string;
  overnightRate: string;
  /** The highest leverage offered. */
  multiple: number;
  minCount: string;
  maxCount: string;
  /** The volume step the counts must fall on (not changeable here). */
  pip: string;
}

/** Which term is wrong and why, for the error's detail. */
export interface ProductTermsViolation {
  field: keyof ProductTerms;
  problem: string;
}

export const maxProductLeverage = 1000;
const one: Units = parseMoney('1') ?? 0n;

/**
 * Whether a product's terms (after a change) are acceptable: spread ≥ 0, 0 ≤ fee rate < 1,
 * overnight rate ≥ 0, 1 ≤ leverage ≤ 1000, 0 < minimum count ≤ maximum count, both counts on
 * the volume step. Amounts are exact (at most 8 decimals); null when every term is good.
 */
export function productTermsViolation(terms: ProductTerms): ProductTermsViolation | null {
  const spread = parseMoney(terms.spread);
  if (spread === null || spread < 0n) return { field: 'spread', problem: 'must be a decimal of at least 0' };
  const feeRate = parseMoney(terms.feeRate);
  if (feeRate === null || feeRate < 0n || feeRate >= one) return { field: 'feeRate', problem: 'must be at least 0 and below 1' };
  const overnightRate = parseMoney(terms.overnightRate);
  if (overnightRate === null || overnightRate < 0n) return { field: 'overnightRate', problem: 'must be a decimal of at least 0' };
  if (!Number.isInteger(terms.multiple) || terms.multiple < 1 || terms.multiple > maxProductLeverage) {
    return { field: 'multiple', problem: `must be a whole number from 1 to ${maxProductLeverage}` };
  }
  const minCount = parseMoney(terms.minCount);
  const maxCount = parseMoney(terms.maxCount);
  if (minCount === null || minCount <= 0n) return { field: 'minCount', problem: 'must be above 0' };
  if (maxCount === null || maxCount < minCount) return { field: 'maxCount', problem: 'must be at least the minimum count' };
  const step = parseMoney(terms.pip);
  if (step !== null && step > 0n) {
    if (minCount % step !== 0n) return { field: 'minCount', problem: `must be a multiple of the volume step ${terms.pip}` };
    if (maxCount % step !== 0n) return { field: 'maxCount', problem: `must be a multiple of the volume step ${terms.pip}` };
  }
  return null;
}
