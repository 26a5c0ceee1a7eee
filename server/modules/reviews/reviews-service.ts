import type { Kysely, Transaction } from 'kysely';
import type { ReviewItem } from '../../../src/shared/api/staff';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { formatMoney, money, parseMoney } from '../../../src/shared/money/money';
import { staffAccessAllows } from '../../../src/shared/staff/access';
import { fourEyesWindowMs, needsTwoApprovals, nextReviewStatus, soloApprovalNeedsSecond } from '../../../src/shared/staff/review-rules';
import { isOpenReviewStatus, type openReviewFilter, reviewKindRole, reviewKinds, type ReviewDecision, type ReviewKind, type ReviewStatus } from '../../../src/shared/staff/roles';
import type { Database } from '../../db/schema';
import { inTransaction } from '../../db/after-commit';
import { isUniqueViolation } from '../../db/database-errors';
import { AppError } from '../../http/app-error';
import type { CustomerSide } from '../../../src/shared/staff/conflict-of-interest';
import type { StaffActor, StaffAudit, StaffConflicts, StaffDuties } from '../staff';
import type { ReviewItemRow, ReviewsRepository } from './reviews-repository';

/** An item as a kind's effect receives it: what the owning module submitted. */
export interface SubmittedReview {
  id: number;
  kind: ReviewKind;
  uid: number;
  /** The owning module's row id, as it submitted it. */
  subjectRef: string;
  facts: Record<string, string>;
  amountUsd: string | null;
}

/** Who decided, and why (a rejection's reason, for the customer's notice). */
export interface ReviewEffectContext {
  actor: StaffActor;
  reason: string | null;
}

/**
 * What a module does when one of its items is decided for good (credit, payout, release,
 * status change, notice). It runs in the decision's transaction, beside the decision row
 * and its audit row: if it throws, nothing of the decision is kept.
 */
export interface ReviewKindHandler {
  effect(trx: Transaction<Database>, item: SubmittedReview, outcome: 'approved' | 'rejected', context: ReviewEffectContext): Promise<void>;
}

export interface ReviewSubmission {
  kind: ReviewKind;
  uid: number;
  subjectRef: string;
  /** What staff are shown, as label → display string. */
  facts: Record<string, string>;
  /** The item's worth in USD as an exact decimal string, where it has one (four-eyes compares it). */
  amountUsd?: string | null;
  /**
   * The customer's worth of this kind placed over the four-eyes window (the last 24 hours),
   * this item included: withdrawals and deposits pass it, and four-eyes judges it rather than
   * the item alone (review-rules' needsTwoApprovals).
   */
  windowUsd?: string | null;
  /** Uploads staff look at (deposit proofs, identity documents). */
  files?: readonly { fileId: string; name: string }[];
}

/** A programming fault, not a user's: a kind was used before a module registered its effect. */
export class UnregisteredReviewKindError extends Error {
  constructor(kind: ReviewKind) {
    super(`review kind '${kind}' has no registered effect: no module decides it, so nothing was submitted or decided`);
    this.name = 'UnregisteredReviewKindError';
  }
}

/** The stored numeric as the app writes amounts ("20.00000000" → "20.00"). */
const usd = (value: string | null) => (value === null ? null : formatMoney(money(String(value))));
const toMs = (value: Date | string) => (value instanceof Date ? value : new Date(value)).getTime();

function submitted(row: ReviewItemRow): SubmittedReview {
  return {
    id: row.id,
    kind: row.kind,
    uid: row.uid,
    subjectRef: row.subject_ref,
    facts: row.facts,
    amountUsd: usd(row.amount_usd),
  };
}

function itemView(row: ReviewItemRow): ReviewItem {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    uid: row.uid,
    facts: row.facts,
    amountUsd: usd(row.amount_usd),
    needsTwoApprovals: row.needs_two_approvals,
    createdTime: toMs(row.created_at),
    decidedTime: row.decided_at === null ? null : toMs(row.decided_at),
  };
}

/** The kinds a staff member may review (admin: all of them). */
export function reviewableKinds(actor: Pick<StaffActor, 'roles'>): ReviewKind[] {
  return reviewKinds.filter((kind) => staffAccessAllows(actor.roles, 'byReviewKind', reviewKindRole[kind]));
}

/**
 * The generic review queues: modules register what deciding one of their kinds does and
 * submit items in their own transactions; staff list, read and decide them. A decision
 * locks its item, so parallel decisions take turns; a replayed request id (the same member's
 * same decision on the same item) answers the first decision's status and changes nothing,
 * any other use of it is refused (1016); the decision row, its audit row and the kind's
 * effect commit together or not at all.
 */
/** What the conflict-of-interest test reads of an item's customer (their e-mail, their documents), in the decision's transaction. */
export type CustomerOfReview = (trx: Transaction<Database>, uid: number) => Promise<CustomerSide>;

/** The kinds whose solo approvals count against a member's SOLO_APPROVALS_USD: what moves customers' money in or out. */
const soloLimitedKinds: readonly ReviewKind[] = ['withdrawal', 'deposit'];

export function createReviewsService(deps: {
  db: Kysely<Database>;
  repository: ReviewsRepository;
  audit: StaffAudit;
  /** Segregation of duties: whether two members may be an item's two approvers, and who is disabled. */
  duties: Pick<StaffDuties, 'requireIndependent' | 'isDisabled' | 'onMemberDisabled' | 'lockMember'>;
  /** Conflict of interest: no member decides an item of a customer account that is theirs. */
  conflicts: Pick<StaffConflicts, 'requireUnconflicted'>;
  customerOf: CustomerOfReview;
  /** FOUR_EYES_USD: withdrawals (or deposits) worth this much or more over 24 hours need two approvers. */
  fourEyesUsd: string;
  /** SOLO_APPROVALS_USD: what one member may approve alone over 24 hours, across customers. */
  soloApprovalsUsd: string;
}) {
  const { db, repository, audit, duties } = deps;
  const handlers = new Map<ReviewKind, ReviewKindHandler>();

  function handlerOf(kind: ReviewKind): ReviewKindHandler {
    const handler = handlers.get(kind);
    if (!handler) throw new UnregisteredReviewKindError(kind);
    return handler;
  }

  async function replayedStatus(
    executor: Kysely<Database> | Transaction<Database>,
    request: { requestId: string; decision: ReviewDecision },
    reviewId: number,
    staffId: number,
  ): Promise<ReviewStatus | null> {
    const earlier = await repository.decisionByRequestId(executor, request.requestId);
    if (!earlier) return null;
    // One request id is one click on one item: reusing it for another item is a client's bug, not a replay.
    if (earlier.review_id !== reviewId) throw new AppError(ErrorCode.INCORRECT_PARAMETER_VALUE, 'requestId already used for another review item');
    // Nor is another member's id a replay of one's own: answering their status would report a decision this caller never made (a second approver's click swallowed).
    if (earlier.staff_id !== staffId) throw new AppError(ErrorCode.INCORRECT_PARAMETER_VALUE, 'requestId already used by another staff member');
    // Nor is the other decision (a reject sent with an approval's id): answering 'approved' as success would tell the caller their reject was taken.
    // A reason edited between a lost answer and its retry is the same click: the first reason stands.
    if (earlier.decision !== request.decision) throw new AppError(ErrorCode.INCORRECT_PARAMETER_VALUE, 'requestId already used for the other decision');
    return earlier.resulting_status;
  }

  /**
   * A first approval that no longer counts (its approver was disabled before the second):
   * the item is pending again and needs two fresh approvals; audited as `by`'s act.
   */
  async function voidFirstApproval(trx: Transaction<Database>, by: StaffActor, item: ReviewItemRow, first: { decisionId: number; staffId: number }) {
    await repository.voidApproval(trx, item.id, first.decisionId);
    await audit.record(trx, by, {
      action: 'reviews.voidApproval',
      targetType: 'review',
      targetId: String(item.id),
      uid: item.uid,
      before: { kind: item.kind, status: 'awaiting_second', firstApproverId: first.staffId },
      after: { kind: item.kind, status: 'pending', reason: 'first approver disabled' },
    });
  }

  // Disabling a member voids their standing first approvals, in the disabling transaction (items locked first, as a decision does).
  duties.onMemberDisabled(async (trx, staffId, by) => {
    for (const candidate of await repository.awaitingSecondAfter(trx, staffId)) {
      const item = await repository.lockItem(trx, candidate.kind, candidate.reviewId);
      if (item?.status !== 'awaiting_second') continue;
      const first = await repository.firstApproval(trx, item.id);
      if (first?.staffId === staffId) await voidFirstApproval(trx, by, item, first);
    }
  });

  async function decideOnce(actor: StaffActor, request: { kind: ReviewKind; id: number; decision: ReviewDecision; reason: string | null; requestId: string }) {
    // inTransaction: an effect's notice tells the customer's open tabs only once the decision has committed.
    return inTransaction(db, async (trx) => {
      const item = await repository.lockItem(trx, request.kind, request.id);
      if (!item) throw new AppError(ErrorCode.DATA_NOT_FOUND, 'no such review item of this kind');
      // Read under the item's lock: a parallel replay that got here first has committed its decision.
      const replayed = await replayedStatus(trx, request, item.id, actor.staffId);
      if (replayed) return replayed;
      // Before anything else of the decision: a member decides nothing of an account that is theirs, approve or reject.
      await deps.conflicts.requireUnconflicted(trx, actor.staffId, await deps.customerOf(trx, item.uid));
      const handler = handlerOf(item.kind);
      let status = item.status;
      let first = status === 'awaiting_second' ? await repository.firstApproval(trx, item.id) : null;
      // A first approver disabled while their disabling's listener could not see this approval yet: void it now.
      if (first && (await duties.isDisabled(trx, first.staffId))) {
        await voidFirstApproval(trx, actor, item, first);
        status = 'pending';
        first = null;
      }
      let needsTwoApprovals = item.needs_two_approvals;
      if (!needsTwoApprovals && status === 'pending' && request.decision === 'approve' && soloLimitedKinds.includes(item.kind)) {
        // The member's row locked first: their parallel approvals of other items take turns over the sum.
        await duties.lockMember(trx, actor.staffId);
        const soFar = await repository.soloApprovedUsd(trx, actor.staffId, soloLimitedKinds, fourEyesWindowMs);
        if (soloApprovalNeedsSecond(item.kind, item.amount_usd, soFar, deps.soloApprovalsUsd)) {
          needsTwoApprovals = true;
          await repository.requireTwoApprovals(trx, item.id);
        }
      }
      const transition = nextReviewStatus(
        { status, needsTwoApprovals, firstApproverId: first?.staffId ?? null },
        { decision: request.decision, staffId: actor.staffId, reason: request.reason },
      );
      if (!transition.ok) throw new AppError(transition.code);
      // Segregation of duties: the second approver and the first must be independent of each other.
      if (first && request.decision === 'approve') await duties.requireIndependent(trx, first.staffId, actor.staffId, ErrorCode.REVIEW_SAME_APPROVER);
      await repository.setStatus(trx, item.id, transition.status, transition.outcome !== null);
      await repository.insertDecision(trx, {
        reviewId: item.id,
        staffId: actor.staffId,
        decision: request.decision,
        reason: request.reason,
        requestId: request.requestId,
        resultingStatus: transition.status,
      });
      await audit.record(trx, actor, {
        action: 'reviews.decide',
        targetType: 'review',
        targetId: String(item.id),
        uid: item.uid,
        before: { kind: item.kind, status },
        after: { kind: item.kind, status: transition.status, decision: request.decision, reason: request.reason },
      });
      if (transition.outcome) await handler.effect(trx, submitted(item), transition.outcome, { actor, reason: request.reason });
      return transition.status;
    });
  }

  return {
    /** Declares what deciding an item of `kind` does; once per kind, before any item of it is submitted. */
    registerKind(kind: ReviewKind, handler: ReviewKindHandler) {
      if (handlers.has(kind)) throw new Error(`review kind '${kind}' already has an effect`);
      handlers.set(kind, handler);
    },

    /**
     * Puts another effect in place of a kind's: the review queues' own tests stand in for the
     * owning module (a withdrawal's effect needs a real withdrawal behind the item). Nothing
     * in the server calls it.
     */
    replaceKindEffect(kind: ReviewKind, handler: ReviewKindHandler) {
      handlers.set(kind, handler);
    },

    /**
     * Takes a kind's effect away, as if no module owned it: the review queues' own tests see
     * an orphaned item refused (every kind has an owning module in the server). Nothing in the
     * server calls it.
     */
    forgetKindEffect(kind: ReviewKind) {
      handlers.delete(kind);
    },

    /**
     * Queues an item for staff, inside the owning module's transaction (so the item exists
     * exactly when the module's row does). One item per kind and subject: a retried
     * submission answers the same id. Whether two approvals are needed is settled now.
     */
    async submit(trx: Transaction<Database>, submission: ReviewSubmission): Promise<number> {
      handlerOf(submission.kind);
      const amountUsd = submission.amountUsd ?? null;
      // Stored exactly as four-eyes judged it: a worth the ledger's scale cannot hold is the submitting module's bug.
      if (amountUsd !== null && (parseMoney(amountUsd) ?? -1n) < 0n) throw new RangeError(`review amountUsd must be a non-negative amount with at most 8 decimals: ${amountUsd}`);
      const { id, created } = await repository.insertItem(trx, {
        kind: submission.kind,
        uid: submission.uid,
        subjectRef: submission.subjectRef,
        facts: submission.facts,
        amountUsd,
        needsTwoApprovals: needsTwoApprovals(submission.kind, amountUsd, deps.fourEyesUsd, submission.windowUsd ?? amountUsd),
      });
      if (created) await repository.insertFiles(trx, id, submission.files ?? []);
      return id;
    },

    /**
     * Takes an item out of the queue because its owner withdrew it (a customer cancels a
     * withdrawal still under review), in the owning module's transaction, before it locks
     * its own rows (a decision locks the item first too, so the two take turns). The item
     * ends rejected with `canceled: note` among its facts, no staff decision and no effect:
     * the module undoes its own side (releases the hold). Answers false when staff decided
     * first; the module must then keep to that decision.
     */
    async cancel(trx: Transaction<Database>, request: { kind: ReviewKind; subjectRef: string; note: string }): Promise<boolean> {
      const item = await repository.lockItemBySubject(trx, request.kind, request.subjectRef);
      if (!item) throw new Error(`no ${request.kind} review item for subject ${request.subjectRef}`);
      if (!isOpenReviewStatus(item.status)) return false;
      await repository.closeAsCanceled(trx, item.id, request.note);
      return true;
    },

    /** Approves or rejects an item; answers the status it reached (or, for a replayed request id, the first decision's). */
    async decide(
      actor: StaffActor,
      request: { kind: ReviewKind; id: number; decision: ReviewDecision; reason?: string | undefined; requestId: string },
    ): Promise<ReviewStatus> {
      const normalised = { ...request, reason: request.reason?.trim() || null };
      try {
        return await decideOnce(actor, normalised);
      } catch (error) {
        // Two replays in parallel: the unique request id let one decision in; the other answers it.
        if (!isUniqueViolation(error)) throw error;
        const replayed = await replayedStatus(db, normalised, request.id, actor.staffId);
        if (replayed) return replayed;
        throw error;
      }
    },

    /** A page of a kind's queue, newest first, with the open items of every kind the caller may review. */
    async list(actor: StaffActor, query: { kind: ReviewKind; status?: ReviewStatus | typeof openReviewFilter | undefined; page: number; limit: number }) {
      const [{ rows, total }, counts] = await Promise.all([
        repository.listItems({ kind: query.kind, status: query.status, offset: (query.page - 1) * query.limit, limit: query.limit }),
        repository.openCounts(reviewableKinds(actor)),
      ]);
      return {
        list: rows.map(itemView),
        pages: Math.ceil(total / query.limit),
        counts: Object.fromEntries(reviewableKinds(actor).map((kind) => [kind, counts.get(kind) ?? 0])) as Partial<Record<ReviewKind, number>>,
      };
    },

    /** Whether a staff member's roles review an item this file is attached to (the staff file route asks). */
    async mayViewFile(actor: Pick<StaffActor, 'roles'>, fileId: string): Promise<boolean> {
      const reviewable = new Set(reviewableKinds(actor));
      return (await repository.kindsOfFile(fileId)).some((kind) => reviewable.has(kind));
    },

    /** One item with its files (through the staff file route) and its decisions, oldest first. */
    async get(kind: ReviewKind, id: number) {
      const item = await repository.findItem(kind, id);
      if (!item) throw new AppError(ErrorCode.DATA_NOT_FOUND, 'no such review item of this kind');
      const [files, decisions] = await Promise.all([repository.files(id), repository.decisions(id)]);
      return {
        item: itemView(item),
        files: files.map((file) => ({ name: file.name, url: `/v1/staff/file/${encodeURIComponent(file.file_id)}` })),
        decisions: decisions.map((decision) => ({
          staff: decision.email,
          decision: decision.decision,
          reason: decision.reason,
          time: toMs(decision.created_at),
          voidedTime: decision.voided_at === null ? null : toMs(decision.voided_at),
        })),
      };
    },
  };
}

export type ReviewsService = ReturnType<typeof createReviewsService>;
