/**
 * The one number formatter: every price, amount and percentage the app shows. Display
 * rounding only: the exact value stays in the data, and no float is used on the way (server
 * values may carry any number of decimals). The digits are rounded here, exactly; the
 * language only says which marks group the thousands and separate the decimals (from Intl,
 * read once per language), so "1234.5" reads "1,234.50" in English and "1.234,50" in German.
 */

/** The account currency's decimals: every money amount (margin, fee, profit, balance) is shown with 2. */
export const moneyDecimals = 2;

/** Percentages (change, rate, margin level) are shown with 2 decimals. */
export const percentDecimals = 2;

/** How a language writes a number: its thousands mark, its decimal mark, and whether four digits are grouped. */
export interface NumberMarks {
  group: string;
  decimal: string;
  /** 1: "1,234"; 2: "1234" but "12.345" (Spanish, Italian). */
  minimumGroupingDigits: 1 | 2;
}

const englishMarks: NumberMarks = { group: ',', decimal: '.', minimumGroupingDigits: 1 };
const marksByLanguage = new Map<string, NumberMarks>();

/** The marks of a language ("de", "zh-cn"); English's for a language Intl does not know. */
export function numberMarksOf(language: string | undefined): NumberMarks {
  const key = (language ?? 'en').toLowerCase();
  const known = marksByLanguage.get(key);
  if (known) return known;
  let marks = englishMarks;
  try {
    const format = new Intl.NumberFormat(key, { numberingSystem: 'latn' });
    const partOf = (parts: Intl.NumberFormatPart[], type: string) => parts.find((part) => part.type === type)?.value;
    const five = format.formatToParts(12345.5);
    const four = format.formatToParts(1234.5);
    marks = {
      group: partOf(five, 'group') ?? ',',
      decimal: partOf(five, 'decimal') ?? '.',
      minimumGroupingDigits: partOf(four, 'group') === undefined ? 2 : 1,
    };
  } catch {
    // An unknown language tag reads as English.
  }
  marksByLanguage.set(key, marks);
  return marks;
}

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

/** A rounded decimal ("-1234.50") in a language's marks, grouped when asked. */
function localized(rounded: string, grouping: boolean, language: string | undefined): string {
  const marks = numberMarksOf(language);
  const negative = rounded.startsWith('-');
  const [whole = '0', fraction] = (negative ? rounded.slice(1) : rounded).split('.');
  const groups = grouping && whole.length >= 3 + marks.minimumGroupingDigits;
  const shownWhole = groups ? whole.replace(/\B(?=(\d{3})+(?!\d))/g, marks.group) : whole;
  return `${negative ? '-' : ''}${shownWhole}${fraction === undefined ? '' : `${marks.decimal}${fraction}`}`;
}

/** What every number takes: whether the brand groups thousands, and the reader's language. */
export interface NumberOptions {
  grouping: boolean;
  /** The reader's language; English marks when left out. */
  language?: string;
}

/**
 * A decimal at exactly `decimals` places in the reader's marks; a value that is not a decimal
 * is shown as it came.
 */
export function formatDecimal(value: string, decimals: number, options: NumberOptions): string {
  const rounded = roundDecimal(value, decimals);
  return rounded === null ? value : localized(rounded, options.grouping, options.language);
}

/**
 * A money amount at the account currency's precision ("12,345.60"), or at `decimals`, with a
 * unit after it when given ("1,500.0000 USDT"). A value that is not a decimal is shown as it came.
 */
export function formatAmount(value: string, options: NumberOptions & { decimals?: number; unit?: string }): string {
  const shown = formatDecimal(value, options.decimals ?? moneyDecimals, options);
  return options.unit ? `${shown} ${options.unit}` : shown;
}

/**
 * A price at its product's precision (BTCUSDT 2, EURUSD 5): "1.0840" keeps its zero whatever
 * the wire sent. Grouped as the amounts are when options are given (the chart's axis groups
 * too); without them, plain digits (an input's value, which must read back as typed).
 */
export function formatPrice(value: string, precision: number, options?: NumberOptions): string {
  return formatDecimal(value, precision, options ?? { grouping: false });
}

/** A percentage at 2 decimals with its sign when `signed` ("+1.25%", "-0.40%", "0.00%"). */
export function formatPercent(value: string, options: NumberOptions & { signed?: boolean; decimals?: number }): string {
  const rounded = roundDecimal(value, options.decimals ?? percentDecimals);
  if (rounded === null) return `${value}%`;
  const plus = options.signed === true && !rounded.startsWith('-') && /[1-9]/.test(rounded) ? '+' : '';
  return `${plus}${localized(rounded, options.grouping, options.language)}%`;
}

/** A coin amount's most decimals: the ledger's 8. */
export const quantityMaxDecimals = 8;

/**
 * A coin amount at its own digits: at least the money's 2, as many as it carries up to the
 * ledger's 8, trailing zeros beyond 2 dropped ("0.0005 BTC", "1,500.00 USDT"), with its unit.
 */
export function formatQuantity(value: string, options: NumberOptions & { unit?: string }): string {
  const rounded = roundDecimal(value, quantityMaxDecimals);
  if (rounded === null) return options.unit ? `${value} ${options.unit}` : value;
  const [, fraction = ''] = rounded.split('.');
  const kept = Math.max(moneyDecimals, fraction.replace(/0+$/, '').length);
  return formatAmount(rounded, { ...options, decimals: kept });
}
