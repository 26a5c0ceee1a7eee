import { describe, expect, it } from 'vitest';
import { optionAmountBounds, optionPlacementViolation, parseTimeRateEntry } from '../../../../src/shared/options/option-rules';

describe('option amount bounds', () => {
  it('keeps the minimum at 1 or more and reads a maximum of 0 as none', () => {
    expect(optionAmountBounds({ min: 10, max: 10_000 })).toEqual({ min: 10, max: 10_000 });
    expect(optionAmountBounds({ min: 0, max: 500 })).toEqual({ min: 1, max: 500 });
    expect(optionAmountBounds({ min: 5, max: 0 })).toEqual({ min: 5, max: null });
  });

  it('are the bounds the placement rule checks', () => {
    const place = (text: string, amount: string) => {
      const entry = parseTimeRateEntry('1', text);
      if (!entry) throw new Error('entry expected');
      return (
      optionPlacementViolation({
        anyConfiguration: true,
        pairExists: true,
        product: { tradeStatus: 1, feeRate: '0', entries: [entry] },
        marketOpen: true,
        timeLong: 30,
        rate: null,
        amount,
        balance: null,
      })?.rule ?? null
      );
    };
    // min 0 and max 0: from 1, no ceiling.
    expect(place('30;80;;0;0', '1')).toBeNull();
    expect(place('30;80;;0;0', '123456789')).toBeNull();
    expect(place('30;80;;0;0', '0')).toBe('amount_positive_int_rule');
    // min 10, max 100.
    expect(place('30;80;;100;10', '9')).toBe('amount_range_rule');
    expect(place('30;80;;100;10', '10')).toBeNull();
    expect(place('30;80;;100;10', '100')).toBeNull();
    expect(place('30;80;;100;10', '101')).toBe('amount_range_rule');
  });
});
