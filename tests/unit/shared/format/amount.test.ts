import { describe, expect, it } from 'vitest';
import { formatAmount } from '../../../../src/shared/format/amount';

describe('amount format', () => {
  it('rounds half away from zero to 2 decimals and groups thousands when the brand wants it', () => {
    expect(formatAmount('100000', { grouping: true })).toBe('100,000.00');
    expect(formatAmount('1234567.895', { grouping: true })).toBe('1,234,567.90');
    expect(formatAmount('1234567.894', { grouping: false })).toBe('1234567.89');
    expect(formatAmount('-1234.005', { grouping: true })).toBe('-1,234.01');
    expect(formatAmount('0.004', { grouping: true })).toBe('0.00');
    expect(formatAmount('891.270976', { grouping: true, decimals: 4 })).toBe('891.2710');
  });
});
