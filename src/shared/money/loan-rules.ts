/**
 * The loan form's and the repayments' rules (../shared/spec/account-and-money.md, loan and
 * repayment), defined once for the app and the server. Amounts are whole USD.
 */

/** The amount slider: 50,000 – 1,000,000 in steps of 10,000, 50,000 at first, marks at 50,000, 500,000 and 1,000,000. */
export const loanAmount = { min: 50_000, max: 1_000_000, step: 10_000, initial: 50_000, marks: [50_000, 500_000, 1_000_000] } as const;
/** The term slider: 7 – 30 days in steps of 1, 7 at first, marks at 7, 15 and 30. */
export const loanDays = { min: 7, max: 30, step: 1, initial: 7, marks: [7, 15, 30] } as const;
/** The repayment slider's step (it goes from 0 to what is owed). */
export const repaymentStep = 100;
/** The longest remark kept with a request. */
export const loanRemarkMax = 500;

/**
 * A loan's status: 0 waiting for review, 1 active, 2 rejected, 4 active and overdue (past
 * its repayment date), 100 repaid (ended). 3 is the specification's too ("a new request can
 * be made"); this server never sets it.
 */
export const LoanStatus = { waiting: 0, active: 1, rejected: 2, overdue: 4, repaid: 100 } as const;

/** A repayment's status: 0 waiting for review, 1 approved, 2 rejected (the spec's label `loan_repayment_status.{status}`, here `loan.repayment_status_{status}`). */
export const RepaymentStatus = { waiting: 0, approved: 1, rejected: 2 } as const;

/** What the loan screen shows for a loan's status (-1 while loading; null: no loan). */
export type LoanView = 'loading' | 'request' | 'repayment' | 'waiting';

export function loanViewOf(status: number | null): LoanView {
  if (status === -1) return 'loading';
  if (status === null || status === 2 || status === 3 || status === 100) return 'request';
  if (status === 1 || status === 4) return 'repayment';
  return 'waiting';
}

/** Why a requested amount or term breaks the sliders' rules (the server refuses it with 1001); null when it is fine. */
export function loanRequestProblem(request: { amount: number; days: number }): 'amount' | 'days' | null {
  const { amount, days } = request;
  if (!Number.isSafeInteger(amount) || amount < loanAmount.min || amount > loanAmount.max || (amount - loanAmount.min) % loanAmount.step !== 0) return 'amount';
  if (!Number.isSafeInteger(days) || days < loanDays.min || days > loanDays.max) return 'days';
  return null;
}

/** Why a repayment amount is refused against what is owed; null when it is fine. */
export function repaymentProblem(amount: number, owed: number): 'zero' | 'step' | 'above' | null {
  if (!Number.isSafeInteger(amount) || amount <= 0) return 'zero';
  if (amount % repaymentStep !== 0) return 'step';
  if (amount > owed) return 'above';
  return null;
}

/**
 * What the repayment view shows as owed: the latest repayment's amountOwed while it waits
 * for review (what will be left), else what the loan owes now. `records` newest first.
 */
export function owedAmountOf(loan: { amountOwed: string }, records: readonly { status: number; amountOwed: string }[]): string {
  const latest = records[0];
  return latest && latest.status === RepaymentStatus.waiting ? latest.amountOwed : loan.amountOwed;
}

/**
 * Why a new repayment cannot be made now, by the latest record (`records` newest first); null
 * when it can. The specification: only after an approved one or none; one waiting is decided
 * first, and after a rejected one the customer is told p_loan_repayment_reject. A brand may
 * let a rejected repayment be tried again (the server's LOAN_REPAY_AFTER_REJECTION).
 */
export function repaymentBlock(records: readonly { status: number }[], options: { repayAfterRejection: boolean }): 'waiting' | 'rejected' | null {
  const latest = records[0];
  if (!latest || latest.status === RepaymentStatus.approved) return null;
  if (latest.status === RepaymentStatus.waiting) return 'waiting';
  return options.repayAfterRejection ? null : 'rejected';
}
