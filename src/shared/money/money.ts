/**
 * Exact money arithmetic: amounts are BigInt counts of 10^-8 (the ledger's scale), read
 * from and written to decimal strings. No float ever touches a balance.
 */
export const moneyScale = 8;
const factor = 10n ** BigInt(moneyScale);

export type Units = bigint;

/**
 * The one decimal rule: an amount has at most 22 integer digits and 8 decimals. Columns are
 * numeric(38, 8), so a product of an amount and a rate still fits; whatever a route computes
 * from an amount (a USD worth) is held to the same bound before it is stored ({@link fitsMoney}).
 */
export const moneyIntegerDigits = 22;
const signedMoneyPattern = new RegExp(`^(-?)(\\d{1,${moneyIntegerDigits}})(?:\\.(\\d{1,${moneyScale}}))?$`);
/** A non-negative amount as a client types it, under the one rule. */
export const unsignedMoneyPattern = new RegExp(`^\\d{1,${moneyIntegerDigits}}(\\.\\d{1,${moneyScale}})?$`);
const maxMoneyUnits = 10n ** BigInt(moneyIntegerDigits + moneyScale) - 1n;

/** Whether computed units still keep the rule (at most 22 integer digits): a worth beyond it is refused, never stored. */
export function fitsMoney(units: Units): boolean {
  return units <= maxMoneyUnits && units >= -maxMoneyUnits;
}

/** Parses a decimal string ("-12.5", "0.00000001"); null when it is not one or has more than 8 decimals. */
export function parseMoney(value: string): Units | null {
  const match = signedMoneyPattern.exec(value.trim());
  if (!match) return null;
  const [, sign = '', whole = '0', fraction = ''] = match;
  const units = BigInt(whole) * factor + BigInt((fraction + '00000000').slice(0, moneyScale));
  return sign === '-' ? -units : units;
}

/**
 * A decimal string with any number of decimals (a database sum of products) as a count of
 * 10^-scale, exactly; null when it is not a decimal or has more than `scale` decimals.
 */
export function parseScaled(value: string, scale: number): bigint | null {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (!match) return null;
  const [, sign = '', whole = '0', fraction = ''] = match;
  const kept = fraction.replace(/0+$/, '');
  if (kept.length > scale) return null;
  const units = BigInt(whole) * 10n ** BigInt(scale) + BigInt(kept.padEnd(scale, '0') || '0');
  return sign === '-' ? -units : units;
}

/** Like parseMoney, but a programming error when the value is not money (trusted values). */
export function money(value: string): Units {
  const units = parseMoney(value);
  if (units === null) throw new RangeError(`not a money amount: ${value}`);
  return units;
}

/** A decimal string with at least `minDecimals` and at most 8 decimals, trailing zeros dropped. */
export function formatMoney(units: Units, minDecimals = 2): string {
  const negative = units < 0n;
  const absolute = negative ? -units : units;
  const whole = absolute / factor;
  let fraction = (absolute % factor).toString().padStart(moneyScale, '0').replace(/0+$/, '');
  if (fraction.length < minDecimals) fraction = fraction.padEnd(minDecimals, '0');
  return `${negative && absolute !== 0n ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** Rounds a/b to the nearest unit, halves away from zero. */
export function divideRounded(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new RangeError('division by zero');
  const negative = numerator < 0n !== denominator < 0n;
  const a = numerator < 0n ? -numerator : numerator;
  const b = denominator < 0n ? -denominator : denominator;
  const quotient = (a * 2n + b) / (2n * b);
  return negative ? -quotient : quotient;
}

/** a × b for two money amounts, rounded to the ledger's scale. */
export function multiplyMoney(a: Units, b: Units): Units {
  return divideRounded(a * b, factor);
}

/** a ÷ b for two money amounts, rounded to the ledger's scale. */
export function divideMoney(a: Units, b: Units): Units {
  return divideRounded(a * factor, b);
}

export function minMoney(a: Units, b: Units): Units {
  return a < b ? a : b;
}
