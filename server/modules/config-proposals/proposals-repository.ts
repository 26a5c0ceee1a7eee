import type { Kysely, Selectable, Transaction } from 'kysely';
import type { ProposalStatus } from '../../../src/shared/api/staff';
import type { ConfigProposalTable, Database } from '../../db/schema';

type Executor = Kysely<Database> | Transaction<Database>;
export type ProposalRow = Selectable<ConfigProposalTable>;

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

/** Every statement on config_proposal (this module's table). */
export function createProposalsRepository(db: Kysely<Database>) {
  return {
    async insert(executor: Executor, proposal: { kind: string; target: string | null; payload: unknown; before: unknown; after: unknown; proposedBy: number; at: Date }): Promise<number> {
      const row = await executor
        .insertInto('config_proposal')
        .values({
          kind: proposal.kind,
          target: proposal.target,
          payload: JSON.stringify(proposal.payload),
          before: json(proposal.before),
          after: json(proposal.after),
          proposed_by: proposal.proposedBy,
          proposed_at: proposal.at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    /** A proposal locked for its decision: two decisions on it take turns. */
    lock(trx: Transaction<Database>, id: number): Promise<ProposalRow | undefined> {
      return trx.selectFrom('config_proposal').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    },

    /** The proposal a console request id decided, if any. */
    byRequestId(executor: Executor, requestId: string) {
      return executor.selectFrom('config_proposal').select(['id', 'status', 'decided_by']).where('request_id', '=', requestId).executeTakeFirst();
    },

    async decide(trx: Transaction<Database>, id: number, decision: { status: Exclude<ProposalStatus, 'proposed'>; by: number | null; reason: string | null; requestId: string | null; at: Date }) {
      await trx
        .updateTable('config_proposal')
        .set({ status: decision.status, decided_by: decision.by, reason: decision.reason, request_id: decision.requestId, decided_at: decision.at })
        .where('id', '=', id)
        .execute();
    },

    /** Open proposals of one admin, locked in id order (their disabling voids them). */
    openOf(trx: Transaction<Database>, staffId: number): Promise<ProposalRow[]> {
      return trx.selectFrom('config_proposal').selectAll().where('proposed_by', '=', staffId).where('status', '=', 'proposed').orderBy('id').forUpdate().execute();
    },

    /** A page, newest first, with the proposer's and decider's e-mails. */
    async page(query: { status?: ProposalStatus | undefined; offset: number; limit: number }) {
      let filtered = db.selectFrom('config_proposal as p');
      if (query.status) filtered = filtered.where('p.status', '=', query.status);
      const [rows, total] = await Promise.all([
        filtered
          .innerJoin('staff_member as proposer', 'proposer.id', 'p.proposed_by')
          .leftJoin('staff_member as decider', 'decider.id', 'p.decided_by')
          .selectAll('p')
          .select(['proposer.email as proposer_email', 'decider.email as decider_email'])
          .orderBy('p.id', 'desc')
          .offset(query.offset)
          .limit(query.limit)
          .execute(),
        filtered.select((eb) => eb.fn.countAll<string | number>().as('count')).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(total.count) };
    },
  };
}

export type ProposalsRepository = ReturnType<typeof createProposalsRepository>;
