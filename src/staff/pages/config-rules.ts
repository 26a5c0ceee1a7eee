import type { Product } from '../../shared/api/market';
import type { ProductFields } from '../../shared/api/staff';
import { productTermsViolation, type ProductTermsViolation } from '../../shared/market/product-fields';
import { parseMoney } from '../../shared/money/money';

/** A product's editable fields as typed in the form. */
export interface ProductDraft {
  tradeStatus: string;
  spread: string;
  feeRate: string;
  overnightRate: string;
  multiple: string;
  minCount: string;
  maxCount: string;
}

export function productDraftOf(product: Product): ProductDraft {
  return {
    tradeStatus: String(product.tradeStatus),
    spread: product.spread,
    feeRate: product.feeRate,
    overnightRate: product.overnightRate,
    multiple: String(product.multiple),
    minCount: product.minCount,
    maxCount: product.maxCount,
  };
}

/**
 * What is wrong with the terms as typed, by the shared rule the server applies
 * (`productTermsViolation`): the field and why, or null when they can be sent.
 */
export function productDraftProblem(product: Product, draft: ProductDraft): ProductTermsViolation | null {
  const multiple = draft.multiple.trim();
  return productTermsViolation({
    tradeStatus: draft.tradeStatus === '1' ? 1 : 0,
    spread: draft.spread.trim(),
    feeRate: draft.feeRate.trim(),
    overnightRate: draft.overnightRate.trim(),
    multiple: /^\d{1,4}$/.test(multiple) ? Number(multiple) : Number.NaN,
    minCount: draft.minCount.trim(),
    maxCount: draft.maxCount.trim(),
    pip: product.pip,
  });
}

/** Only what changed is sent (each change is one audited field set). Decimals compare by value, not text. */
export function changedProductFields(product: Product, draft: ProductDraft): ProductFields {
  const fields: ProductFields = {};
  const tradeStatus = draft.tradeStatus === '1' ? 1 : 0;
  if (tradeStatus !== product.tradeStatus) fields.tradeStatus = tradeStatus;
  if (compareDecimals(draft.spread.trim(), product.spread) !== 0) fields.spread = draft.spread.trim();
  if (compareDecimals(draft.feeRate.trim(), product.feeRate) !== 0) fields.feeRate = draft.feeRate.trim();
  if (compareDecimals(draft.overnightRate.trim(), product.overnightRate) !== 0) fields.overnightRate = draft.overnightRate.trim();
  if (Number(draft.multiple.trim()) !== product.multiple) fields.multiple = Number(draft.multiple.trim());
  if (compareDecimals(draft.minCount.trim(), product.minCount) !== 0) fields.minCount = draft.minCount.trim();
  if (compareDecimals(draft.maxCount.trim(), product.maxCount) !== 0) fields.maxCount = draft.maxCount.trim();
  return fields;
}

/** Compares two exact decimals as money units (the shared BigInt rule, never floats); unparsable text sorts as different. */
export function compareDecimals(a: string, b: string): number {
  const left = parseMoney(a);
  const right = parseMoney(b);
  if (left === null || right === null) return a === b ? 0 : 1;
  return left === right ? 0 : left < right ? -1 : 1;
}

/**
 * The cooling-off as the limits tab says it: whole hours in hours, anything shorter or between
 * in minutes (rounded up), so a half-hour hold never reads as "0 h".
 */
export function holdDuration(seconds: number): { unit: 'hours' | 'minutes'; count: number } {
  return seconds % 3600 === 0 ? { unit: 'hours', count: seconds / 3600 } : { unit: 'minutes', count: Math.ceil(seconds / 60) };
}
