import { ErrorCode } from '../errors/catalogue';
import type { ReviewDecision, ReviewKind, ReviewStatus } from './roles';

/**
 * The review queues' rules (../shared/API.md "Staff back office"), defined once for the
 * server and the console: which items need two approvals (four-eyes) and where a decision
 * takes an item. Amounts are exact decimal strings, compared without floats.
 */

const decimalPattern = /^(-?)(\d+)(?:\.(\d+))?$/;

/** An exact decimal string as digits and a scale (10^-scale units); a programming error when it is not one. */
function decimalUnits(value: string): { units: bigint; scale: number } {
  const match = decimalPattern.exec(value.trim());
  if (!match) throw new RangeError(`not a decimal amount: ${value}`);
  const [, sign = '', whole = '0', fraction = ''] = match;
  const units = BigInt(whole + fraction);
  return { units: sign === '-' ? -units : units, scale: fraction.length };
}

/** Compares two exact decimal strings of any scale: negative, zero or positive as a < b, a = b, a > b. */
export function compareDecimals(a: string, b: string): number {
  const left = decimalUnits(a);
  const right = decimalUnits(b);
  const scale = Math.max(left.scale, right.scale);
  const leftAligned = left.units * 10n ** BigInt(scale - left.scale);
  const rightAligned = right.units * 10n ** BigInt(scale - right.scale);
  return leftAligned === rightAligned ? 0 : leftAligned < rightAligned ? -1 : 1;
}

/** The rolling window over which four-eyes sums a customer's withdrawals, and their deposits. */
export const fourEyesWindowMs = 24 * 3600 * 1000;

/** The kinds whose four-eyes threshold applies to the customer's total over {@link fourEyesWindowMs}. */
const summedKinds: ReadonlySet<ReviewKind> = new Set(['withdrawal', 'deposit']);

/**
 * Whether an item needs a second, different approver: every loan; a withdrawal or a deposit
 * when the customer's items of its kind placed in the last 24 hours, this one included, are
 * worth at least `fourEyesUsd` together (`windowUsd`; splitting an amount does not avoid
 * it). A worth that is unknown is treated as large: the safe side.
 */
export function needsTwoApprovals(kind: ReviewKind, amountUsd: string | null, fourEyesUsd: string, windowUsd: string | null = amountUsd): boolean {
  if (kind === 'loan') return true;
  if (!summedKinds.has(kind)) return false;
  if (amountUsd === null || windowUsd === null) return true;
  const judged = compareDecimals(windowUsd, amountUsd) > 0 ? windowUsd : amountUsd;
  return compareDecimals(judged, fourEyesUsd) >= 0;
}

/**
 * Whether a member's approval that would decide a withdrawal or a deposit alone must wait
 * for a second approver instead: what that member approved alone over the last 24 hours,
 * across every customer, this item included, reaches `soloLimitUsd` (SOLO_APPROVALS_USD).
 * Four-eyes per customer cannot stop one member approving just under it for many accounts
 * (sock puppets funded by claims nobody else checks); this bounds what one person moves.
 */
export function soloApprovalNeedsSecond(kind: ReviewKind, amountUsd: string | null, soloSoFarUsd: string, soloLimitUsd: string): boolean {
  if (!summedKinds.has(kind)) return false;
  if (amountUsd === null) return true;
  const total = addDecimals(soloSoFarUsd, amountUsd);
  return compareDecimals(total, soloLimitUsd) >= 0;
}

/** The sum of two exact decimal strings, exactly. */
function addDecimals(a: string, b: string): string {
  const left = decimalUnits(a);
  const right = decimalUnits(b);
  const scale = Math.max(left.scale, right.scale);
  const units = left.units * 10n ** BigInt(scale - left.scale) + right.units * 10n ** BigInt(scale - right.scale);
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale);
  return `${negative ? '-' : ''}${whole}${scale > 0 ? `.${fraction}` : ''}`;
}

/** What the decision is taken on: the item as it stands (read under its lock). */
export interface ReviewState {
  status: ReviewStatus;
  needsTwoApprovals: boolean;
  /** Who gave the first approval, when the item awaits a second one. */
  firstApproverId: number | null;
}

export interface ReviewDecisionInput {
  decision: ReviewDecision;
  staffId: number;
  reason?: string | null | undefined;
}

export type ReviewTransition =
  | {
      ok: true;
      status: ReviewStatus;
      /** The item is decided for good: the kind's effect runs now, with this outcome. */
      outcome: 'approved' | 'rejected' | null;
    }
  | { ok: false; code: ErrorCode };

/**
 * The next status for a decision: pending + approve → approved, or awaiting_second when two
 * approvals are needed; awaiting_second + approve by a different member → approved (the
 * same member: 2004); reject (with a reason, else 2005) from either open status → rejected;
 * a decided item is never decided again (2003).
 */
export function nextReviewStatus(state: ReviewState, input: ReviewDecisionInput): ReviewTransition {
  if (state.status === 'approved' || state.status === 'rejected') return { ok: false, code: ErrorCode.REVIEW_ALREADY_DECIDED };
  if (input.decision === 'reject') {
    if (!input.reason || input.reason.trim() === '') return { ok: false, code: ErrorCode.REVIEW_REASON_REQUIRED };
    return { ok: true, status: 'rejected', outcome: 'rejected' };
  }
  if (state.status === 'pending') {
    return state.needsTwoApprovals ? { ok: true, status: 'awaiting_second', outcome: null } : { ok: true, status: 'approved', outcome: 'approved' };
  }
  if (state.firstApproverId === input.staffId) return { ok: false, code: ErrorCode.REVIEW_SAME_APPROVER };
  return { ok: true, status: 'approved', outcome: 'approved' };
}
