import { describe, expect, it } from 'vitest';
import { productTermsViolation, type ProductTerms } from '../../../../src/shared/market/product-fields';

const eurusd: ProductTerms = { tradeStatus: 1, spread: '0.00012', feeRate: '0.00002', overnightRate: '0.00008', multiple: 100, minCount: '0.01', maxCount: '50', pip: '0.01' };

describe('product terms staff may set', () => {
  it('accepts the seeded terms and the edges of each range', () => {
    expect(productTermsViolation(eurusd)).toBeNull();
    expect(productTermsViolation({ ...eurusd, spread: '0', feeRate: '0', overnightRate: '0', multiple: 1 })).toBeNull();
    expect(productTermsViolation({ ...eurusd, feeRate: '0.99999999', multiple: 1000, minCount: '50', maxCount: '50' })).toBeNull();
  });

  it('names the field that breaks its rule', () => {
    const field = (change: Partial<ProductTerms>) => productTermsViolation({ ...eurusd, ...change })?.field;
    expect(field({ spread: '-0.00001' })).toBe('spread');
    expect(field({ spread: 'wide' })).toBe('spread');
    expect(field({ feeRate: '1' })).toBe('feeRate');
    expect(field({ feeRate: '-0.1' })).toBe('feeRate');
    expect(field({ overnightRate: '-0.0001' })).toBe('overnightRate');
    expect(field({ multiple: 0 })).toBe('multiple');
    expect(field({ multiple: 1001 })).toBe('multiple');
    expect(field({ multiple: 2.5 })).toBe('multiple');
    expect(field({ minCount: '0' })).toBe('minCount');
    expect(field({ minCount: '60' })).toBe('maxCount');
    // Off the 0.01 volume step, exactly (no float rounding hides 0.015).
    expect(field({ minCount: '0.015' })).toBe('minCount');
    expect(field({ maxCount: '50.005' })).toBe('maxCount');
    expect(field({ spread: '0.000000001' })).toBe('spread');
  });
});
