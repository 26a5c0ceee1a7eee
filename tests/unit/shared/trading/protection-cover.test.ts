import { describe, expect, it } from 'vitest';
import { money } from '../../../../src/shared/money/money';
import { coverFromHeldMargin } from '../../../../src/shared/trading/protection-cover';

describe('coverFromHeldMargin', () => {
  it('takes the shortfall from the held margins in order, the house absorbing nothing while they suffice', () => {
    expect(coverFromHeldMargin(money('62.080024'), [money('108.512')])).toEqual({ taken: [money('62.080024')], absorbed: 0n });
    expect(coverFromHeldMargin(money('150'), [money('100'), money('80'), money('10')])).toEqual({ taken: [money('100'), money('50'), 0n], absorbed: 0n });
  });

  it('leaves the house only what every held margin cannot cover', () => {
    expect(coverFromHeldMargin(money('312.080024'), [money('108.512')])).toEqual({ taken: [money('108.512')], absorbed: money('203.568024') });
    expect(coverFromHeldMargin(money('5'), [])).toEqual({ taken: [], absorbed: money('5') });
  });

  it('takes nothing when nothing is missing', () => {
    expect(coverFromHeldMargin(0n, [money('10')])).toEqual({ taken: [0n], absorbed: 0n });
    expect(coverFromHeldMargin(-money('3'), [money('10')])).toEqual({ taken: [0n], absorbed: 0n });
  });
});
