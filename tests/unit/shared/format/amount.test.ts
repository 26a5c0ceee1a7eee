import { describe, expect, it } from 'vitest';
import { formatAmount, formatPercent, formatPrice, formatQuantity, numberMarksOf, roundDecimal } from '../../../../src/shared/format/amount';

describe('amount format', () => {
  it('rounds half away from zero to 2 decimals and groups thousands when the brand wants it', () => {
    expect(formatAmount('100000', { grouping: true })).toBe('100,000.00');
    expect(formatAmount('1234567.895', { grouping: true })).toBe('1,234,567.90');
    expect(formatAmount('1234567.894', { grouping: false })).toBe('1234567.89');
    expect(formatAmount('-1234.005', { grouping: true })).toBe('-1,234.01');
    expect(formatAmount('0.004', { grouping: true })).toBe('0.00');
    expect(formatAmount('891.270976', { grouping: true, decimals: 4 })).toBe('891.2710');
  });

  it('shows the server’s long money values at the currency’s 2 decimals (the drawer’s margin, fee and profit)', () => {
    expect(formatAmount('33.32913', { grouping: true })).toBe('33.33');
    expect(formatAmount('0.3332913', { grouping: true })).toBe('0.33');
    // A row and the summary agree: 0.0924 is 0.09 in both.
    expect(formatAmount('0.0924', { grouping: true })).toBe('0.09');
    // More decimals than the ledger's 8 still round exactly.
    expect(formatAmount('12.3456789012345', { grouping: false })).toBe('12.35');
    expect(formatAmount('-0.004', { grouping: false })).toBe('0.00');
    expect(formatAmount('-0.005', { grouping: false })).toBe('-0.01');
    expect(formatAmount('999.995', { grouping: true })).toBe('1,000.00');
  });

  it('keeps a value that is not a decimal as it came', () => {
    expect(formatAmount('n/a', { grouping: true })).toBe('n/a');
    expect(formatPrice('', 2)).toBe('');
  });
});

describe('price format', () => {
  it('shows a price at its product’s precision, padded or rounded, as plain digits without options (an input’s value)', () => {
    expect(formatPrice('66886.0', 2)).toBe('66886.00');
    expect(formatPrice('66886.045', 2)).toBe('66886.05');
    expect(formatPrice('1.085', 5)).toBe('1.08500');
    expect(formatPrice('1.0849949', 5)).toBe('1.08499');
    expect(formatPrice('2345.6', 0)).toBe('2346');
  });
});

describe('roundDecimal', () => {
  it('is exact for values beyond a float’s digits', () => {
    expect(roundDecimal('123456789012345678.125', 2)).toBe('123456789012345678.13');
    expect(roundDecimal('+5', 1)).toBe('5.0');
    expect(roundDecimal('5e3', 1)).toBeNull();
  });
});

describe('the one number formatter in each language', () => {
  it('groups and marks decimals as the reader’s language does, exactly', () => {
    expect(formatAmount('1234567.895', { grouping: true, language: 'en' })).toBe('1,234,567.90');
    expect(formatAmount('1234567.895', { grouping: true, language: 'de' })).toBe('1.234.567,90');
    expect(formatAmount('1234567.895', { grouping: true, language: 'ja' })).toBe('1,234,567.90');
    expect(formatAmount('1234567.895', { grouping: true, language: 'th' })).toBe('1,234,567.90');
    expect(formatAmount('-1234.5', { grouping: true, language: 'vi' })).toBe('-1.234,50');
    // French groups with a narrow no-break space.
    expect(formatAmount('1234.5', { grouping: true, language: 'fr' })).toBe('1\u202f234,50');
    // Spanish and Italian leave four digits ungrouped, group five.
    expect(formatAmount('1234.5', { grouping: true, language: 'es' })).toBe('1234,50');
    expect(formatAmount('12345.5', { grouping: true, language: 'it' })).toBe('12.345,50');
    expect(formatAmount('1234567.89', { grouping: false, language: 'de' })).toBe('1234567,89');
    // Beyond a float's digits, still exact.
    expect(formatAmount('123456789012345678.125', { grouping: true, language: 'zh-cn' })).toBe('123,456,789,012,345,678.13');
  });

  it('always shows the unit it is given, after the amount', () => {
    expect(formatAmount('1500', { grouping: true, language: 'en', unit: 'USDT' })).toBe('1,500.00 USDT');
    expect(formatAmount('0.5', { grouping: true, language: 'de', unit: 'BTC', decimals: 8 })).toBe('0,50000000 BTC');
  });

  it('keeps a price’s trailing zeros to its product’s digits, whatever the wire sent, and groups it as the amounts', () => {
    expect(formatPrice('1.084', 4, { grouping: true, language: 'en' })).toBe('1.0840');
    expect(formatPrice('66886.04', 2, { grouping: true, language: 'en' })).toBe('66,886.04');
    expect(formatPrice('66886.04', 2, { grouping: true, language: 'de' })).toBe('66.886,04');
    expect(formatPrice('66886.04', 2, { grouping: false, language: 'en' })).toBe('66886.04');
  });

  it('shows a percentage at 2 decimals, signed when asked, in the reader’s marks', () => {
    expect(formatPercent('1.2', { grouping: true, language: 'en', signed: true })).toBe('+1.20%');
    expect(formatPercent('-0.4', { grouping: true, language: 'de', signed: true })).toBe('-0,40%');
    expect(formatPercent('0', { grouping: true, language: 'en', signed: true })).toBe('0.00%');
    expect(formatPercent('-0.001', { grouping: true, language: 'en', signed: true })).toBe('0.00%');
    expect(formatPercent('80', { grouping: true, language: 'ja' })).toBe('80.00%');
  });

  it('reads an unknown language with English marks', () => {
    expect(numberMarksOf('not a language tag!')).toEqual({ group: ',', decimal: '.', minimumGroupingDigits: 1 });
  });
});

describe('coin amounts', () => {
  it('show their own digits (2 to 8) with their unit', () => {
    expect(formatQuantity('0.0005', { grouping: true, language: 'en', unit: 'BTC' })).toBe('0.0005 BTC');
    expect(formatQuantity('1500', { grouping: true, language: 'en', unit: 'USDT' })).toBe('1,500.00 USDT');
    expect(formatQuantity('1000.10000000', { grouping: true, language: 'de', unit: 'USDT' })).toBe('1.000,10 USDT');
    expect(formatQuantity('0.123456789', { grouping: true, language: 'en', unit: 'ETH' })).toBe('0.12345679 ETH');
  });
});
