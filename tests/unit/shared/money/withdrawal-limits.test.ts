import { describe, expect, it } from 'vitest';
import { money } from '../../../../src/shared/money/money';
import { defaultLevelLimits, holdUntilMs, limitsProblem, meetsLevel, withdrawalAllowance } from '../../../../src/shared/money/withdrawal-limits';

describe('withdrawal limits by verification level', () => {
  it('orders the levels none < junior < full', () => {
    expect(meetsLevel('junior', 'junior')).toBe(true);
    expect(meetsLevel('full', 'junior')).toBe(true);
    expect(meetsLevel('none', 'junior')).toBe(false);
    expect(meetsLevel('none', 'none')).toBe(true);
  });

  it('answers what is left of the day and the month, never below zero, the lower of the two binding', () => {
    const junior = defaultLevelLimits.junior;
    expect(withdrawalAllowance(junior, { dayUsd: money('900'), monthUsd: money('49500') })).toEqual({ dailyLeftUsd: money('9100'), monthlyLeftUsd: money('500'), leftUsd: money('500') });
    expect(withdrawalAllowance(junior, { dayUsd: money('12000'), monthUsd: money('12000') }).dailyLeftUsd).toBe(0n);
  });

  it('refuses a month below a day and a higher level below a lower one; the defaults hold', () => {
    expect(limitsProblem(defaultLevelLimits)).toBeNull();
    expect(limitsProblem({ ...defaultLevelLimits, none: { ...defaultLevelLimits.none, monthlyWithdrawUsd: '999.99' } })).toBe('month_below_day');
    expect(limitsProblem({ ...defaultLevelLimits, full: { ...defaultLevelLimits.full, depositMaxUsd: '99999' } })).toBe('higher_level_lower');
  });

  it('ends the hold a period after the latest change, and none once it passed', () => {
    const dayMs = 86_400_000;
    expect(holdUntilMs([null, null], dayMs, 10)).toBeNull();
    expect(holdUntilMs([1_000, 5_000, null], dayMs, 6_000)).toBe(5_000 + dayMs);
    expect(holdUntilMs([1_000], dayMs, 1_000 + dayMs)).toBeNull();
  });
});
