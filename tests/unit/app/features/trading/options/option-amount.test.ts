import { describe, expect, it } from 'vitest';
import { stepOptionAmount } from '../../../../../../src/app/features/trading/options/option-amount';

describe('option amount stepper', () => {
  const bounds = { min: 10, max: 10_000 };

  it('starts an empty or unreadable field at the minimum', () => {
    expect(stepOptionAmount('', 1, bounds)).toBe('10');
    expect(stepOptionAmount('', -1, bounds)).toBe('10');
    expect(stepOptionAmount('.', 1, bounds)).toBe('10');
  });

  it('rounds to a whole amount before stepping by one', () => {
    expect(stepOptionAmount('50', 1, bounds)).toBe('51');
    expect(stepOptionAmount('50', -1, bounds)).toBe('49');
    expect(stepOptionAmount('12.5', 1, bounds)).toBe('14');
    expect(stepOptionAmount('12.49', -1, bounds)).toBe('11');
  });

  it('clamps to the minimum and the maximum', () => {
    expect(stepOptionAmount('10', -1, bounds)).toBe('10');
    expect(stepOptionAmount('3', 1, bounds)).toBe('10');
    expect(stepOptionAmount('10000', 1, bounds)).toBe('10000');
    expect(stepOptionAmount('99999', -1, bounds)).toBe('10000');
  });

  it('has no ceiling when the maximum is 0, and never goes below 1', () => {
    expect(stepOptionAmount('250000', 1, { min: 0, max: 0 })).toBe('250001');
    expect(stepOptionAmount('1', -1, { min: 0, max: 0 })).toBe('1');
  });
});
