import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Database, ReviewItemTable } from '../../db/schema';
import { openReviewFilter, openReviewStatuses, type ReviewDecision, type ReviewKind, type ReviewStatus } from '../../../src/shared/staff/roles';

type Executor = Kysely<Database> | Transaction<Database>;
export type ReviewItemRow = Selectable<ReviewItemTable>;


/** Every statement on the review tables (review_item, review_decision, review_file). */
export function createReviewsRepository(db: Kysely<Database>) {
  return {
    /**
     * A new item, or the id of the one already submitted for the same subject (a module's
     * retried submission). Answers whether this call created it.
     */
    async insertItem(
      executor: Executor,
      item: { kind: ReviewKind; uid: number; subjectRef: string; facts: Record<string, string>; amountUsd: string | null; needsTwoApprovals: boolean },
    ): Promise<{ id: number; created: boolean }> {
      const inserted = await executor
        .insertInto('review_item')
        .values({
          kind: item.kind,
          uid: item.uid,
          subject_ref: item.subjectRef,
          facts: JSON.stringify(item.facts),
          amount_usd: item.amountUsd,
          needs_two_approvals: item.needsTwoApprovals,
        })
        .onConflict((conflict) => conflict.columns(['kind', 'subject_ref']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (inserted) return { id: inserted.id, created: true };
      const existing = await executor
        .selectFrom('review_item')
        .select('id')
        .where('kind', '=', item.kind)
        .where('subject_ref', '=', item.subjectRef)
        .executeTakeFirstOrThrow();
      return { id: existing.id, created: false };
    },

    async insertFiles(executor: Executor, reviewId: number, files: readonly { fileId: string; name: string }[]) {
      if (files.length === 0) return;
      await executor
        .insertInto('review_file')
        .values(files.map((file) => ({ review_id: reviewId, file_id: file.fileId, name: file.name })))
        .onConflict((conflict) => conflict.columns(['review_id', 'file_id']).doNothing())
        .execute();
    },

    /** The item of a kind, locked for the caller's transaction: parallel decisions on it take turns. */
    lockItem(trx: Transaction<Database>, kind: ReviewKind, id: number): Promise<ReviewItemRow | undefined> {
      return trx.selectFrom('review_item').selectAll().where('id', '=', id).where('kind', '=', kind).forUpdate().executeTakeFirst();
    },

    /** The item a module submitted for one of its rows, locked for the caller's transaction. */
    lockItemBySubject(trx: Transaction<Database>, kind: ReviewKind, subjectRef: string): Promise<ReviewItemRow | undefined> {
      return trx.selectFrom('review_item').selectAll().where('kind', '=', kind).where('subject_ref', '=', subjectRef).forUpdate().executeTakeFirst();
    },

    /** Ends an item its owner withdrew: rejected, with the note among the facts staff see. */
    async closeAsCanceled(trx: Transaction<Database>, id: number, note: string) {
      await trx
        .updateTable('review_item')
        .set({ status: 'rejected', decided_at: sql<Date>`now()`, facts: sql<string>`facts || ${JSON.stringify({ canceled: note })}::jsonb` })
        .where('id', '=', id)
        .execute();
    },

    findItem(kind: ReviewKind, id: number): Promise<ReviewItemRow | undefined> {
      return db.selectFrom('review_item').selectAll().where('id', '=', id).where('kind', '=', kind).executeTakeFirst();
    },

    async setStatus(trx: Transaction<Database>, id: number, status: ReviewStatus, decided: boolean) {
      await trx
        .updateTable('review_item')
        .set({ status, decided_at: decided ? sql<Date>`now()` : null })
        .where('id', '=', id)
        .execute();
    },

    /**
     * What a member approved alone (items that needed one approval, decided by theirs) of the
     * summed kinds in the last `windowMs`, in USD, by the database's clock (the decisions' own).
     */
    async soloApprovedUsd(trx: Transaction<Database>, staffId: number, kinds: readonly ReviewKind[], windowMs: number): Promise<string> {
      const row = await trx
        .selectFrom('review_decision as d')
        .innerJoin('review_item as i', 'i.id', 'd.review_id')
        .select(sql<string | null>`sum(i.amount_usd)::text`.as('total'))
        .where('d.staff_id', '=', staffId)
        .where('d.decision', '=', 'approve')
        .where('d.resulting_status', '=', 'approved')
        .where('i.needs_two_approvals', '=', false)
        .where('i.kind', 'in', [...kinds])
        .where('d.created_at', '>=', sql<Date>`now() - ${`${Math.round(windowMs / 1000)} seconds`}::interval`)
        .executeTakeFirst();
      return row?.total ?? '0';
    },

    /** The item needs a second approver after all (the approving member's solo limit). */
    async requireTwoApprovals(trx: Transaction<Database>, id: number) {
      await trx.updateTable('review_item').set({ needs_two_approvals: true }).where('id', '=', id).execute();
    },

    /** The decision a console request id recorded, if any. */
    decisionByRequestId(executor: Executor, requestId: string) {
      return executor.selectFrom('review_decision').select(['review_id', 'staff_id', 'decision', 'resulting_status']).where('request_id', '=', requestId).executeTakeFirst();
    },

    /** The approval that left the item awaiting a second one (a voided one no longer counts). */
    async firstApproval(executor: Executor, reviewId: number): Promise<{ decisionId: number; staffId: number } | null> {
      const row = await executor
        .selectFrom('review_decision')
        .select(['id', 'staff_id'])
        .where('review_id', '=', reviewId)
        .where('decision', '=', 'approve')
        .where('resulting_status', '=', 'awaiting_second')
        .where('voided_at', 'is', null)
        .orderBy('id', 'desc')
        .executeTakeFirst();
      return row ? { decisionId: row.id, staffId: row.staff_id } : null;
    },

    /** Items awaiting a second approval whose first (standing) approval is a member's: what disabling them voids. */
    async awaitingSecondAfter(executor: Executor, staffId: number): Promise<{ reviewId: number; kind: ReviewKind }[]> {
      const rows = await executor
        .selectFrom('review_decision as d')
        .innerJoin('review_item as i', 'i.id', 'd.review_id')
        .select(['i.id', 'i.kind'])
        .distinct()
        .where('d.staff_id', '=', staffId)
        .where('d.resulting_status', '=', 'awaiting_second')
        .where('d.voided_at', 'is', null)
        .where('i.status', '=', 'awaiting_second')
        .orderBy('i.id')
        .execute();
      return rows.map((row) => ({ reviewId: row.id, kind: row.kind }));
    },

    /** A first approval no longer counts: the item is pending again, the decision row stays, marked. */
    async voidApproval(trx: Transaction<Database>, reviewId: number, decisionId: number) {
      await trx.updateTable('review_decision').set({ voided_at: sql<Date>`now()` }).where('id', '=', decisionId).execute();
      await trx.updateTable('review_item').set({ status: 'pending', decided_at: null }).where('id', '=', reviewId).execute();
    },

    async insertDecision(
      trx: Transaction<Database>,
      decision: { reviewId: number; staffId: number; decision: ReviewDecision; reason: string | null; requestId: string; resultingStatus: ReviewStatus },
    ) {
      await trx
        .insertInto('review_decision')
        .values({
          review_id: decision.reviewId,
          staff_id: decision.staffId,
          decision: decision.decision,
          reason: decision.reason,
          request_id: decision.requestId,
          resulting_status: decision.resultingStatus,
        })
        .execute();
    },

    /** A page of a kind's items, newest first, and how many match. */
    async listItems(query: { kind: ReviewKind; status: ReviewStatus | typeof openReviewFilter | undefined; offset: number; limit: number }) {
      let filtered = db.selectFrom('review_item').where('kind', '=', query.kind);
      if (query.status === openReviewFilter) filtered = filtered.where('status', 'in', [...openReviewStatuses]);
      else if (query.status) filtered = filtered.where('status', '=', query.status);
      const [rows, total] = await Promise.all([
        filtered.selectAll().orderBy('id', 'desc').offset(query.offset).limit(query.limit).execute(),
        filtered.select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(total.count) };
    },

    /** Open items (pending or awaiting a second approval) per kind, for the given kinds. */
    async openCounts(kinds: readonly ReviewKind[]): Promise<Map<ReviewKind, number>> {
      if (kinds.length === 0) return new Map();
      const rows = await db
        .selectFrom('review_item')
        .select(['kind', (eb) => eb.fn.countAll<string>().as('count')])
        .where('kind', 'in', [...kinds])
        .where('status', 'in', [...openReviewStatuses])
        .groupBy('kind')
        .execute();
      return new Map(rows.map((row) => [row.kind, Number(row.count)]));
    },

    files(reviewId: number) {
      return db.selectFrom('review_file').select(['file_id', 'name']).where('review_id', '=', reviewId).orderBy('name').orderBy('file_id').execute();
    },

    /** The kinds of the items a file is attached to. */
    async kindsOfFile(fileId: string): Promise<ReviewKind[]> {
      const rows = await db
        .selectFrom('review_file')
        .innerJoin('review_item', 'review_item.id', 'review_file.review_id')
        .select('review_item.kind')
        .distinct()
        .where('review_file.file_id', '=', fileId)
        .execute();
      return rows.map((row) => row.kind);
    },

    /**
     * An item's decisions, oldest first, with the deciding member's e-mail. The staff module
     * offers no lookup by id; as its own audit list does, this reads the e-mail only.
     */
    decisions(reviewId: number) {
      return db
        .selectFrom('review_decision as d')
        .innerJoin('staff_member as m', 'm.id', 'd.staff_id')
        .select(['m.email', 'd.decision', 'd.reason', 'd.created_at', 'd.voided_at'])
        .where('d.review_id', '=', reviewId)
        .orderBy('d.id')
        .execute();
    },
  };
}

export type ReviewsRepository = ReturnType<typeof createReviewsRepository>;
