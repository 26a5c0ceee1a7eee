import { describe, expect, it } from 'vitest';
import { formatAmount, formatPrice, roundDecimal } from '../../../../src/shared/format/amount';

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
  it('shows a price at its product’s precision, padded or rounded, never grouped', () => {
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
