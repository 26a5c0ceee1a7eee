import { describe, expect, it } from 'vitest';
import { totalBalance } from '../../../../src/shared/money/balance';

describe('the total balance', () => {
  it('adds the available balance and the locked margin exactly', () => {
    expect(totalBalance({ balanceAmount: '1000', lockMargin: '0' })).toBe('1000.00');
    expect(totalBalance({ balanceAmount: '0.1', lockMargin: '0.2' })).toBe('0.30');
    expect(totalBalance({ balanceAmount: '9999999999999.99999999', lockMargin: '0.00000001' })).toBe('10000000000000.00');
    expect(totalBalance({ balanceAmount: '12.345', lockMargin: '7.00000001' })).toBe('19.34500001');
  });

  it('shows a negative available balance as it is (protection may leave one briefly)', () => {
    expect(totalBalance({ balanceAmount: '-5', lockMargin: '2.5' })).toBe('-2.50');
  });
});
