/**
 * Exact conversions between decimal strings and fixed-point integers of a given
 * precision, used wherever prices are compared or aggregated.
 */
/** Parses an exact decimal string into units of `precision` decimals; null if it is not one. */
export function decimalToUnits(value: string, precision: number): number | null {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (!match) return null;
  const [, sign = '', whole = '0', fraction = ''] = match;
  const padded = (fraction + '0'.repeat(precision)).slice(0, precision);
  const units = Number(`${whole}${padded}`);
  // Digits beyond the precision are rounded half up, as an exchange quote would be.
  const roundUp = fraction.length > precision && Number(fraction[precision]) >= 5 ? 1 : 0;
  return (sign === '-' ? -1 : 1) * (units + roundUp);
}
