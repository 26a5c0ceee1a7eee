import { divideRounded, formatMoney, parseMoney } from '../money/money';

/**
 * An exact decimal string as the brand shows amounts: rounded half away from zero to
 * `decimals`, with comma grouping when the brand wants it. No float on the way.
 */
export function formatAmount(value: string, options: { grouping: boolean; decimals?: number }): string {
  const decimals = options.decimals ?? 2;
  const units = parseMoney(value);
  if (units === null) return value;
  const step = 10n ** BigInt(8 - decimals);
  const rounded = divideRounded(units, step) * step;
  const text = formatMoney(rounded, decimals);
  const [whole = '0', fraction] = text.split('.');
  const sign = whole.startsWith('-') ? '-' : '';
  const digits = whole.replace('-', '');
  const grouped = options.grouping ? digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',') : digits;
  const trimmedFraction = (fraction ?? '').slice(0, decimals).padEnd(decimals, '0');
  return `${sign}${grouped}${decimals > 0 ? `.${trimmedFraction}` : ''}`;
}
