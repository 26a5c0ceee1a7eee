import { describe, expect, it } from 'vitest';
import { decimalToUnits } from '../../../../../../server/modules/market/sources/market-data-source';

describe('decimal prices to units', () => {
  it('is exact and rounds extra digits half up', () => {
    expect(decimalToUnits('1.08512', 5)).toBe(108512);
    expect(decimalToUnits('67000', 2)).toBe(6700000);
    expect(decimalToUnits('0.123456', 5)).toBe(12346);
    expect(decimalToUnits('-1.5', 2)).toBe(-150);
    expect(decimalToUnits('1e5', 2)).toBeNull();
    expect(decimalToUnits('abc', 2)).toBeNull();
  });
});
