/**
 * Amounts and prices as the brand shows them. Display rounding only: the exact value stays
 * in the data, and no float is used on the way (server values may carry any number of decimals).
 */

/** The account currency's decimals: every money amount (margin, fee, profit, balance) is shown with 2. */
export const moneyDecimals = 2;

/**
 * An exact decimal string rounded half away from zero to `decimals` places, padded to
 * exactly that many; null when the value is not a decimal.
 */
export function roundDecimal(value: string, decimals: number): string | null {
  const match = /^([-+]?)(\d+)(?:\.(\d*))?$/.exec(value.trim());
  if (!match) return null;
  const [, sign = '', whole = '0', fraction = ''] = match;
  const kept = BigInt(whole + fraction.padEnd(decimals, '0').slice(0, decimals));
  const roundsUp = fraction.length > decimals && Number(fraction[decimals]) >= 5;
  const units = kept + (roundsUp ? 1n : 0n);
  const digits = units.toString().padStart(decimals + 1, '0');
  const integer = digits.slice(0, digits.length - decimals);
  const decimalPart = digits.slice(digits.length - decimals);
  const negative = sign === '-' && units !== 0n;
  return `${negative ? '-' : ''}${integer}${decimals > 0 ? `.${decimalPart}` : ''}`;
}

function group(rounded: string, grouping: boolean): string {
  if (!grouping) return rounded;
  const [whole = '0', fraction] = rounded.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}

/**
 * A money amount at the account currency's precision ("12,345.60"), with comma grouping
 * when the brand wants it. A value that is not a decimal is shown as it came.
 */
export function formatAmount(value: string, options: { grouping: boolean; decimals?: number }): string {
  const rounded = roundDecimal(value, options.decimals ?? moneyDecimals);
  return rounded === null ? value : group(rounded, options.grouping);
}

/**
 * A price at its product's precision (BTCUSDT 2, EURUSD 5). Never grouped: quotes read as
 * terminals show them, digit for digit, and the chart's axis agrees.
 */
export function formatPrice(value: string, precision: number): string {
  return roundDecimal(value, precision) ?? value;
}
