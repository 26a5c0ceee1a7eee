import { describe, expect, it } from 'vitest';
import { money } from '../../../../src/shared/money/money';
import { accountFigures, belowMarginCall, marginCallCrossed } from '../../../../src/shared/trading/account-figures';
import { OrderStatus } from '../../../../src/shared/trading/order-rules';

const position = (margin: string, profitLoss: string) => ({ status: OrderStatus.position, securityDepositInitial: margin, profitLoss });
const pending = (margin: string, expected: string) => ({ status: OrderStatus.pending, securityDepositInitial: margin, profitLoss: expected });

describe('the account strip figures', () => {
  it('adds the orders\' margin to the cash for the balance, and only the positions\' profit for the equity', () => {
    const figures = accountFigures('2.70976', [position('1085.12', '-16287'), position('1085', '16263'), pending('110', '999')]);
    expect(figures.balance).toBe(money('2282.82976'));
    expect(figures.usedMargin).toBe(money('2280.12'));
    expect(figures.openProfitLoss).toBe(money('-24'));
    expect(figures.equity).toBe(money('2258.82976'));
    expect(figures.freeMargin).toBe(money('-21.29024'));
    expect(figures.marginLevelPercent).toBe(money('99.07'));
  });

  it('has no margin level without margin used, and the cash as balance, equity and free margin', () => {
    const figures = accountFigures('10000', []);
    expect(figures).toEqual({ balance: money('10000'), equity: money('10000'), usedMargin: 0n, freeMargin: money('10000'), marginLevelPercent: null, openProfitLoss: 0n });
  });

  it('calls a margin below the brand\'s level, not at it, never without margin', () => {
    // Equity 100, margin 100: exactly 100 %.
    const atLevel = accountFigures('0', [position('100', '0')]);
    expect(belowMarginCall(atLevel, 100)).toBe(false);
    const justBelow = accountFigures('0', [position('100', '-0.00000001')]);
    expect(belowMarginCall(justBelow, 100)).toBe(true);
    expect(belowMarginCall(justBelow, 99.99)).toBe(false);
    expect(belowMarginCall(accountFigures('-50', []), 100)).toBe(false);
  });

  it('marks a crossing once: into the call from outside or unknown, never while it stays called or on the way out', () => {
    expect(marginCallCrossed(null, true)).toBe(true);
    expect(marginCallCrossed(false, true)).toBe(true);
    expect(marginCallCrossed(true, true)).toBe(false);
    expect(marginCallCrossed(true, false)).toBe(false);
    expect(marginCallCrossed(false, false)).toBe(false);
  });
});
