import type { Kysely, Transaction } from 'kysely';
import type * as z from 'zod/mini';
import type { ConfigProposal, ProposalStatus } from '../../../src/shared/api/staff';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import type { ReviewDecision } from '../../../src/shared/staff/roles';
import { inTransaction } from '../../db/after-commit';
import type { Database } from '../../db/schema';
import { isUniqueViolation } from '../../db/database-errors';
import { AppError } from '../../http/app-error';
import type { StaffActor, StaffAudit, StaffDuties } from '../staff';
import type { ProposalRow, ProposalsRepository } from './proposals-repository';

/**
 * One kind of dual-controlled change: the owning module's set-call as it was, now applied
 * only on a second admin's approval. `apply` is the owner's own validating write (it refuses
 * what breaks a rule and answers the setting before and after); the proposal's validation is
 * the same `apply` run in a transaction that is rolled back, so the rule is written once.
 */
export interface ProposalKind<B> {
  /** The set-call's body: what is stored, and parsed again from storage at approval. */
  body: z.ZodMiniType<B>;
  /** The audit action of the applied change, e.g. 'config.setCurrency'. */
  action: string;
  /** The audit target type, e.g. 'currency'. */
  targetType: string;
  /** The setting the change names (an id, a code); null for a new one. */
  target(payload: B): string | null;
  /** Makes the change in the caller's transaction (opened with inTransaction), validating it; answers before and after (and the id a new setting got). */
  apply(trx: Transaction<Database>, payload: B): Promise<{ before: unknown; after: unknown; targetId?: string }>;
}

/** Thrown to roll a dry run back once it has answered. */
class DryRunDone extends Error {
  constructor(readonly result: { before: unknown; after: unknown }) {
    super('dry run');
  }
}

/** JSON with keys sorted at every level: what the setting was, compared whatever order storage gave its keys. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

const toMs = (value: Date | string) => new Date(value).getTime();

/**
 * Dual control of the settings that move money: one admin proposes (the change is checked
 * and previewed, nothing changes), a second admin approves — never the proposer, never one
 * of whom the proposer created or re-roled within the duties period (segregation.ts) — and
 * the change is applied in the decision's transaction, re-validated against the setting as
 * it is then: a proposal whose "before" no longer matches is refused as stale. Proposal,
 * decision and change are each audited with before and after.
 */
export function createProposalsService(deps: {
  db: Kysely<Database>;
  repository: ProposalsRepository;
  audit: StaffAudit;
  duties: Pick<StaffDuties, 'requireIndependent' | 'isDisabled' | 'onMemberDisabled'>;
  nowMs?: (() => number) | undefined;
}) {
  const { db, repository, audit, duties } = deps;
  const now = () => new Date((deps.nowMs ?? Date.now)());
  const kinds = new Map<string, ProposalKind<unknown>>();

  function kindOf(name: string): ProposalKind<unknown> {
    const kind = kinds.get(name);
    if (!kind) throw new Error(`proposal kind '${name}' is not registered`);
    return kind;
  }

  async function dryRun(kind: ProposalKind<unknown>, payload: unknown) {
    try {
      await inTransaction(db, async (trx) => {
        throw new DryRunDone(await kind.apply(trx, payload));
      });
    } catch (error) {
      if (error instanceof DryRunDone) return error.result;
      throw error;
    }
    throw new Error('a dry run ended without an answer');
  }

  async function voidProposal(trx: Transaction<Database>, by: StaffActor, proposal: ProposalRow) {
    await repository.decide(trx, proposal.id, { status: 'voided', by: null, reason: 'proposer disabled', requestId: null, at: now() });
    await audit.record(trx, by, {
      action: 'config.voidProposal',
      targetType: 'proposal',
      targetId: String(proposal.id),
      before: { kind: proposal.kind, target: proposal.target, status: 'proposed', proposedBy: proposal.proposed_by },
      after: { kind: proposal.kind, target: proposal.target, status: 'voided', reason: 'proposer disabled' },
    });
  }

  // A disabled admin's open proposals are voided in the disabling transaction.
  duties.onMemberDisabled(async (trx, staffId, by) => {
    for (const proposal of await repository.openOf(trx, staffId)) await voidProposal(trx, by, proposal);
  });

  async function replayed(executor: Kysely<Database> | Transaction<Database>, actor: StaffActor, request: { proposalId: number; requestId: string }): Promise<ProposalStatus | null> {
    const earlier = await repository.byRequestId(executor, request.requestId);
    if (!earlier) return null;
    if (earlier.id !== request.proposalId || earlier.decided_by !== actor.staffId) throw new AppError(ErrorCode.INCORRECT_PARAMETER_VALUE, 'requestId already used for another decision');
    return earlier.status;
  }

  async function decideOnce(actor: StaffActor, request: { proposalId: number; decision: ReviewDecision; reason: string | null; requestId: string }): Promise<ProposalStatus> {
    return inTransaction(db, async (trx) => {
      const proposal = await repository.lock(trx, request.proposalId);
      if (!proposal) throw new AppError(ErrorCode.DATA_NOT_FOUND, 'no such proposal');
      const replay = await replayed(trx, actor, request);
      if (replay) return replay;
      if (proposal.status !== 'proposed') throw new AppError(ErrorCode.PROPOSAL_ALREADY_DECIDED);
      const kind = kindOf(proposal.kind);
      const summary = { kind: proposal.kind, target: proposal.target, proposedBy: proposal.proposed_by };
      if (request.decision === 'reject') {
        // Rejecting changes nothing: any admin may, the proposer too (withdrawing it).
        await repository.decide(trx, proposal.id, { status: 'rejected', by: actor.staffId, reason: request.reason, requestId: request.requestId, at: now() });
        await audit.record(trx, actor, {
          action: 'config.rejectProposal',
          targetType: 'proposal',
          targetId: String(proposal.id),
          before: { ...summary, status: 'proposed', setting: proposal.before },
          after: { ...summary, status: 'rejected', reason: request.reason, proposed: proposal.after },
        });
        return 'rejected';
      }
      // A proposer disabled while their disabling's listener could not see this proposal yet: void it now.
      if (await duties.isDisabled(trx, proposal.proposed_by)) {
        await voidProposal(trx, actor, proposal);
        return 'voided';
      }
      await duties.requireIndependent(trx, proposal.proposed_by, actor.staffId, ErrorCode.PROPOSAL_OWN);
      const applied = await kind.apply(trx, kind.body.parse(proposal.payload));
      // The owner read the setting under its lock: a change since the proposal makes it stale (and this rolls back).
      if (canonicalJson(applied.before) !== canonicalJson(proposal.before)) throw new AppError(ErrorCode.PROPOSAL_STALE);
      await repository.decide(trx, proposal.id, { status: 'approved', by: actor.staffId, reason: request.reason, requestId: request.requestId, at: now() });
      await audit.record(trx, actor, {
        action: kind.action,
        targetType: kind.targetType,
        targetId: applied.targetId ?? proposal.target,
        before: applied.before,
        after: applied.after,
      });
      await audit.record(trx, actor, {
        action: 'config.approveProposal',
        targetType: 'proposal',
        targetId: String(proposal.id),
        before: { ...summary, status: 'proposed', setting: proposal.before },
        after: { ...summary, status: 'approved', setting: applied.after },
      });
      return 'approved';
    });
  }

  return {
    /** Declares a kind of dual-controlled change; once per kind, at start. */
    registerKind<B>(name: string, kind: ProposalKind<B>) {
      if (kinds.has(name)) throw new Error(`proposal kind '${name}' already registered`);
      kinds.set(name, kind as ProposalKind<unknown>);
    },

    /** Checks a change as its owner would apply it (nothing changes) and stores it for a second admin. */
    async propose<B>(actor: StaffActor, name: string, payload: B): Promise<{ proposalId: number; status: 'proposed' }> {
      const kind = kindOf(name);
      const preview = await dryRun(kind, payload);
      const target = kind.target(payload);
      const proposalId = await db.transaction().execute(async (trx) => {
        const id = await repository.insert(trx, { kind: name, target, payload, before: preview.before, after: preview.after, proposedBy: actor.staffId, at: now() });
        await audit.record(trx, actor, {
          action: 'config.propose',
          targetType: kind.targetType,
          targetId: target,
          before: preview.before,
          after: { proposalId: id, kind: name, proposed: preview.after },
        });
        return id;
      });
      return { proposalId, status: 'proposed' };
    },

    /** Approves (applying the change) or rejects a proposal; a replayed request id answers the first decision. */
    async decide(actor: StaffActor, request: { proposalId: number; decision: ReviewDecision; reason?: string | undefined; requestId: string }): Promise<ProposalStatus> {
      const normalised = { ...request, reason: request.reason?.trim() || null };
      try {
        return await decideOnce(actor, normalised);
      } catch (error) {
        // Two replays in parallel: the unique request id let one decision in; the other answers it.
        if (!isUniqueViolation(error)) throw error;
        const replay = await replayed(db, actor, normalised);
        if (replay) return replay;
        throw error;
      }
    },

    async list(query: { status?: ProposalStatus | undefined; page: number; limit: number }): Promise<{ list: ConfigProposal[]; pages: number }> {
      const { rows, total } = await repository.page({ status: query.status, offset: (query.page - 1) * query.limit, limit: query.limit });
      return {
        list: rows.map((row) => ({
          id: row.id,
          kind: row.kind,
          target: row.target,
          status: row.status,
          proposedBy: { staffId: row.proposed_by, email: row.proposer_email },
          proposedTime: toMs(row.proposed_at),
          before: row.before,
          after: row.after,
          decidedBy: row.decided_by === null ? null : { staffId: row.decided_by, email: row.decider_email ?? '' },
          decidedTime: row.decided_at === null ? null : toMs(row.decided_at),
          reason: row.reason,
        })),
        pages: Math.ceil(total / query.limit),
      };
    },
  };
}

export type ProposalsService = ReturnType<typeof createProposalsService>;
