import { z } from 'zod';
import { contract, noBody } from './contract';
import { loanRemarkMax } from '../money/loan-rules';

/**
 * Loans and repayments (../shared/API.md `loan/*`; real account only, while the `user/loan`
 * switch is on). `loan/insert` and `loan/repayment/insert` need the `Idempotency-Key` header.
 * Amounts are USD, whole numbers as the sliders give them; answers carry exact decimal strings.
 */
export const loanDto = z.object({
  id: z.number().int(),
  uid: z.number().int(),
  amount: z.string(),
  /** What is still to repay (the amount until a repayment is approved). */
  amountOwed: z.string(),
  days: z.number().int(),
  /** The guarantor's UID. */
  guarantor: z.number().int(),
  remark: z.string(),
  /** When it is due (approval + days); null until approved. */
  repaymentDate: z.number().int().nullable(),
  /** 0 waiting, 1 active, 2 rejected, 4 active and overdue, 100 repaid (loan-rules.ts). */
  status: z.number().int(),
  /** Why staff rejected it (status 2). */
  rejectReason: z.string().nullable(),
  createTime: z.number().int(),
});
export type LoanDto = z.infer<typeof loanDto>;

/** The customer's latest loan, or null when there is none. */
export const loanCheck = contract('/v1/waa/loan/check', noBody, z.object({ dto: loanDto.nullable() }));

export const loanInsert = contract(
  '/v1/waa/loan/insert',
  z.strictObject({
    amount: z.number().int(),
    days: z.number().int(),
    /** The guarantor's UID (another customer); empty when not filled in (refused: p_loan_guarantor). */
    guarantor: z.union([z.number().int(), z.string().trim().max(20)]),
    remark: z.string().trim().max(loanRemarkMax).default(''),
  }),
  z.null(),
);

export const repaymentDto = z.object({
  id: z.number().int(),
  loanId: z.number().int(),
  amount: z.string(),
  /** What the loan still owes once this repayment is approved. */
  amountOwed: z.string(),
  /** 0 waiting, 1 approved, 2 rejected. */
  status: z.number().int(),
  rejectReason: z.string().nullable(),
  createTime: z.number().int(),
});
export type RepaymentDto = z.infer<typeof repaymentDto>;

const loanRef = { loanId: z.number().int().positive(), loanUid: z.number().int().positive() };

/** A loan's repayments, newest first. */
export const loanRepaymentGet = contract('/v1/waa/loan/repayment/get', z.strictObject(loanRef), z.object({ dtoList: z.array(repaymentDto) }));

export const loanRepaymentInsert = contract('/v1/waa/loan/repayment/insert', z.strictObject({ ...loanRef, amount: z.number().int().nonnegative() }), z.null());
