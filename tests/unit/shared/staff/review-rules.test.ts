import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../../src/shared/errors/catalogue';
import { compareDecimals, needsTwoApprovals, nextReviewStatus, soloApprovalNeedsSecond, type ReviewState } from '../../../../src/shared/staff/review-rules';

const pendingOne: ReviewState = { status: 'pending', needsTwoApprovals: false, firstApproverId: null };
const pendingTwo: ReviewState = { status: 'pending', needsTwoApprovals: true, firstApproverId: null };
const awaitingSecond: ReviewState = { status: 'awaiting_second', needsTwoApprovals: true, firstApproverId: 7 };

describe('four-eyes', () => {
  it('asks two approvals of a withdrawal worth the threshold or more, compared exactly', () => {
    expect(needsTwoApprovals('withdrawal', '1000', '1000')).toBe(true);
    expect(needsTwoApprovals('withdrawal', '1000.00000000', '1000')).toBe(true);
    expect(needsTwoApprovals('withdrawal', '999.99999999', '1000')).toBe(false);
    // A float would call these equal; the exact comparison does not.
    expect(needsTwoApprovals('withdrawal', '999.9999999999999999', '1000')).toBe(false);
    expect(needsTwoApprovals('withdrawal', '1000.0000000000000001', '1000.00')).toBe(true);
    expect(needsTwoApprovals('withdrawal', '50', '1000')).toBe(false);
  });

  it('treats a withdrawal of unknown worth as a large one', () => {
    expect(needsTwoApprovals('withdrawal', null, '1000')).toBe(true);
  });

  it('asks two approvals of every loan, whatever its amount, and one of the other kinds', () => {
    expect(needsTwoApprovals('loan', '1', '1000')).toBe(true);
    expect(needsTwoApprovals('loan', null, '1000')).toBe(true);
    for (const kind of ['repayment', 'identity', 'juniorIdentity'] as const) {
      expect(needsTwoApprovals(kind, '5000000', '1000')).toBe(false);
    }
  });

  it('asks two approvals of a deposit worth the threshold or more, as of a withdrawal', () => {
    expect(needsTwoApprovals('deposit', '1000000000000', '1000')).toBe(true);
    expect(needsTwoApprovals('deposit', '1000', '1000')).toBe(true);
    expect(needsTwoApprovals('deposit', '999.99', '1000')).toBe(false);
  });

  it('judges a withdrawal or a deposit by the customer’s total over the last 24 hours, not by the item alone', () => {
    // The third of three 999 withdrawals: 2,997 over the window.
    expect(needsTwoApprovals('withdrawal', '999', '1000', '2997')).toBe(true);
    expect(needsTwoApprovals('deposit', '999', '1000', '1998')).toBe(true);
    expect(needsTwoApprovals('withdrawal', '400', '1000', '999')).toBe(false);
    // A window total below the item itself (a caller's slip) never lowers the bar.
    expect(needsTwoApprovals('withdrawal', '1500', '1000', '0')).toBe(true);
    expect(needsTwoApprovals('withdrawal', '999', '1000', null)).toBe(true);
  });

  it('compares decimals of different scales and signs', () => {
    expect(compareDecimals('1.5', '1.50')).toBe(0);
    expect(compareDecimals('-1', '0')).toBe(-1);
    expect(compareDecimals('10', '9.999')).toBe(1);
    expect(() => compareDecimals('1e3', '1000')).toThrow(RangeError);
  });
});

describe('the next status of a decision', () => {
  it('approves a one-approval item at once and tells the effect to run', () => {
    expect(nextReviewStatus(pendingOne, { decision: 'approve', staffId: 1 })).toEqual({ ok: true, status: 'approved', outcome: 'approved' });
  });

  it('moves a two-approval item to awaiting_second first, without running the effect', () => {
    expect(nextReviewStatus(pendingTwo, { decision: 'approve', staffId: 7 })).toEqual({ ok: true, status: 'awaiting_second', outcome: null });
  });

  it('refuses the first approver as the second (2004) and accepts a different member', () => {
    expect(nextReviewStatus(awaitingSecond, { decision: 'approve', staffId: 7 })).toEqual({ ok: false, code: ErrorCode.REVIEW_SAME_APPROVER });
    expect(nextReviewStatus(awaitingSecond, { decision: 'approve', staffId: 8 })).toEqual({ ok: true, status: 'approved', outcome: 'approved' });
  });

  it('rejects from either open status only with a reason (2005)', () => {
    for (const state of [pendingOne, pendingTwo, awaitingSecond]) {
      expect(nextReviewStatus(state, { decision: 'reject', staffId: 7 })).toEqual({ ok: false, code: ErrorCode.REVIEW_REASON_REQUIRED });
      expect(nextReviewStatus(state, { decision: 'reject', staffId: 7, reason: '   ' })).toEqual({ ok: false, code: ErrorCode.REVIEW_REASON_REQUIRED });
      // The first approver may still reject: stopping money needs no second pair of eyes.
      expect(nextReviewStatus(state, { decision: 'reject', staffId: 7, reason: 'proof unreadable' })).toEqual({ ok: true, status: 'rejected', outcome: 'rejected' });
    }
  });

  it('never decides a decided item again (2003)', () => {
    for (const status of ['approved', 'rejected'] as const) {
      for (const decision of ['approve', 'reject'] as const) {
        expect(nextReviewStatus({ status, needsTwoApprovals: true, firstApproverId: 7 }, { decision, staffId: 9, reason: 'again' })).toEqual({
          ok: false,
          code: ErrorCode.REVIEW_ALREADY_DECIDED,
        });
      }
    }
  });
});

describe("one member's solo approvals", () => {
  it('sends a withdrawal or deposit to a second approver once the member’s solo approvals over 24 hours, this one included, reach the cap, exactly', () => {
    expect(soloApprovalNeedsSecond('withdrawal', '900', '1099.99999999', '2000')).toBe(false);
    expect(soloApprovalNeedsSecond('withdrawal', '900', '1100', '2000')).toBe(true);
    expect(soloApprovalNeedsSecond('deposit', '0.00000001', '1999.99999999', '2000')).toBe(true);
    expect(soloApprovalNeedsSecond('deposit', '10', '0', '2000')).toBe(false);
  });

  it('treats an item of unknown worth as over the cap, and leaves other kinds to their own rules', () => {
    expect(soloApprovalNeedsSecond('withdrawal', null, '0', '2000')).toBe(true);
    expect(soloApprovalNeedsSecond('identity', null, '999999', '2000')).toBe(false);
    expect(soloApprovalNeedsSecond('juniorIdentity', '5000', '5000', '2000')).toBe(false);
  });
});
