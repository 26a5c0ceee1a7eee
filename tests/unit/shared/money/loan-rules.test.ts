import { describe, expect, it } from 'vitest';
import { loanAmount, loanDays, loanRequestProblem, loanViewOf, owedAmountOf, repaymentBlock, repaymentProblem } from '../../../../src/shared/money/loan-rules';

describe('loan rules', () => {
  it('keeps the specification constants', () => {
    expect(loanAmount).toMatchObject({ min: 50000, max: 1000000, step: 10000, initial: 50000, marks: [50000, 500000, 1000000] });
    expect(loanDays).toMatchObject({ min: 7, max: 30, step: 1, initial: 7, marks: [7, 15, 30] });
  });

  it('shows the screen each status asks for', () => {
    expect(loanViewOf(-1)).toBe('loading');
    for (const status of [null, 2, 3, 100]) expect(loanViewOf(status)).toBe('request');
    for (const status of [1, 4]) expect(loanViewOf(status)).toBe('repayment');
    for (const status of [0, 5, 99]) expect(loanViewOf(status)).toBe('waiting');
  });

  it('checks a request against the sliders', () => {
    expect(loanRequestProblem({ amount: 50000, days: 7 })).toBeNull();
    expect(loanRequestProblem({ amount: 1000000, days: 30 })).toBeNull();
    expect(loanRequestProblem({ amount: 60000, days: 15 })).toBeNull();
    for (const amount of [40000, 55000, 1010000, 50000.5, Number.NaN]) expect(loanRequestProblem({ amount, days: 7 })).toBe('amount');
    for (const days of [6, 31, 7.5]) expect(loanRequestProblem({ amount: 50000, days })).toBe('days');
  });

  it('checks a repayment: not zero, whole hundreds, at most what is owed', () => {
    expect(repaymentProblem(0, 1000)).toBe('zero');
    expect(repaymentProblem(-100, 1000)).toBe('zero');
    expect(repaymentProblem(150, 1000)).toBe('step');
    expect(repaymentProblem(1100, 1000)).toBe('above');
    expect(repaymentProblem(1000, 1000)).toBeNull();
    expect(repaymentProblem(100, 1000)).toBeNull();
  });

  it('shows as owed the latest waiting repayment’s amountOwed, else what the loan owes', () => {
    const loan = { amountOwed: '70000.00' };
    const record = (status: number, amountOwed: string) => ({ status, amountOwed });
    expect(owedAmountOf(loan, [])).toBe('70000.00');
    expect(owedAmountOf(loan, [record(0, '50000.00'), record(1, '70000.00')])).toBe('50000.00');
    expect(owedAmountOf(loan, [record(2, '40000.00'), record(1, '70000.00')])).toBe('70000.00');
  });

  it('allows a repayment only after an approved one or none; after a rejected one only where the brand allows it', () => {
    const strict = { repayAfterRejection: false };
    expect(repaymentBlock([], strict)).toBeNull();
    expect(repaymentBlock([{ status: 1 }, { status: 2 }], strict)).toBeNull();
    expect(repaymentBlock([{ status: 0 }], strict)).toBe('waiting');
    expect(repaymentBlock([{ status: 2 }, { status: 1 }], strict)).toBe('rejected');
    expect(repaymentBlock([{ status: 2 }], { repayAfterRejection: true })).toBeNull();
    expect(repaymentBlock([{ status: 0 }], { repayAfterRejection: true })).toBe('waiting');
  });
});
