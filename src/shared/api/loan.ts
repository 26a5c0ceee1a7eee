import * as z from 'zod/mini';
import { contract, noBody } from './contract';
import { loanRemarkMax } from '../money/loan-rules';

/**
 * Loans and repayments (../shared/API.md `loan/*`; real account only, while the `user/loan`
 * switch is on). `loan/insert` and `loan/repayment/insert` need the `Idempotency-Key` header.
 * Amounts are USD, whole numbers as the sliders give them; answers carry exact decimal strings.
 */
export const loanDto = z.object({
  id: z.int(),
  uid: z.int(),
  amount: z.string(),
  /** What is still to repay (the amount until a repayment is approved). */
  amountOwed: z.string(),
  days: z.int(),
  /** The guarantor's UID. */
  guarantor: z.int(),
  remark: z.string(),
  /** When it is due (approval + days); null until approved. */
  repaymentDate: z.nullable(z.int()),
  /** 0 waiting, 1 active, 2 rejected, 4 active and overdue, 100 repaid (loan-rules.ts). */
  status: z.int(),
  /** Why staff rejected it (status 2). */
  rejectReason: z.nullable(z.string()),
  createTime: z.int(),
});
export type LoanDto = z.infer<typeof loanDto>;

/** The customer's latest loan, or null when there is none. */
export const loanCheck = contract('/v1/waa/loan/check', noBody, z.object({ dto: z.nullable(loanDto) }));

export const loanInsert = contract(
  '/v1/waa/loan/insert',
  z.strictObject({
    amount: z.int(),
    days: z.int(),
    /** The guarantor's UID (another customer); empty when not filled in (refused: p_loan_guarantor). */
    guarantor: z.union([z.int(), z.string().check(z.trim(), z.maxLength(20))]),
    remark: z._default(z.string().check(z.trim(), z.maxLength(loanRemarkMax)), ''),
  }),
  z.null(),
);

export const repaymentDto = z.object({
  id: z.int(),
  loanId: z.int(),
  amount: z.string(),
  /** What the loan still owes once this repayment is approved. */
  amountOwed: z.string(),
  /** 0 waiting, 1 approved, 2 rejected. */
  status: z.int(),
  rejectReason: z.nullable(z.string()),
  createTime: z.int(),
});
export type RepaymentDto = z.infer<typeof repaymentDto>;

const loanRef = { loanId: z.int().check(z.positive()), loanUid: z.int().check(z.positive()) };

/** A loan's repayments, newest first. */
export const loanRepaymentGet = contract(
  '/v1/waa/loan/repayment/get',
  z.strictObject(loanRef),
  z.object({
    dtoList: z.array(repaymentDto),
    /** Whether a rejected latest repayment may be tried again (a brand's setting; absent: no, the specification's rule). */
    repayAfterRejection: z.optional(z.boolean()),
  }),
);

export const loanRepaymentInsert = contract('/v1/waa/loan/repayment/insert', z.strictObject({ ...loanRef, amount: z.int().check(z.nonnegative()) }), z.null());
