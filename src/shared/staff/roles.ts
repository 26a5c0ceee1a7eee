/**
 * The staff back office's vocabulary, defined once for the server and the console
 * (../shared/API.md "Staff back office"): roles, review kinds and statuses, and which
 * role decides which kind.
 */

export const staffRoles = ['support', 'finance', 'compliance', 'admin'] as const;
export type StaffRole = (typeof staffRoles)[number];

export const reviewKinds = ['deposit', 'withdrawal', 'loan', 'repayment', 'identity', 'juniorIdentity'] as const;
export type ReviewKind = (typeof reviewKinds)[number];

export const reviewStatuses = ['pending', 'awaiting_second', 'approved', 'rejected'] as const;
export type ReviewStatus = (typeof reviewStatuses)[number];

export const reviewDecisions = ['approve', 'reject'] as const;
export type ReviewDecision = (typeof reviewDecisions)[number];

/** Money kinds are finance's; identity kinds compliance's. Admin may do everything. */
export const reviewKindRole: Record<ReviewKind, StaffRole> = {
  deposit: 'finance',
  withdrawal: 'finance',
  loan: 'finance',
  repayment: 'finance',
  identity: 'compliance',
  juniorIdentity: 'compliance',
};

/** The list filter of items that still await someone: pending or awaiting a second approval. */
export const openReviewFilter = 'open';
export const openReviewStatuses: readonly ReviewStatus[] = ['pending', 'awaiting_second'];

/** Whether a decision still awaits someone: only these statuses can be decided. */
export function isOpenReviewStatus(status: ReviewStatus): boolean {
  return status === 'pending' || status === 'awaiting_second';
}
