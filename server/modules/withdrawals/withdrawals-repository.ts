import { sql, type Insertable, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Database, WithdrawalStatus, WithdrawalTable } from '../../db/schema';
import { isUniqueViolation } from '../../db/database-errors';
import type { FundRecordSourceRow } from '../fund-records/record-source';

/** The constraint a database error names (PostgreSQL and PGlite both carry it). */
const constraintOf = (error: unknown) => (typeof error === 'object' && error !== null && 'constraint' in error ? String(error.constraint) : null);

export type WithdrawalRow = Selectable<WithdrawalTable>;

/** Every `withdrawal` statement. Reads name the owner where a customer asks. */
export function createWithdrawalsRepository(db: Kysely<Database>) {
  return {
    /**
     * Places a withdrawal; null when the customer already has one awaiting review. The
     * unique index `withdrawal_one_pending` (0026) decides it in this statement: of parallel
     * placements, the second waits for the first and then fails, whatever either read before.
     */
    async insert(trx: Transaction<Database>, values: Insertable<WithdrawalTable>): Promise<number | null> {
      try {
        const row = await trx.insertInto('withdrawal').values(values).returning('id').executeTakeFirstOrThrow();
        return row.id;
      } catch (error) {
        // hold_key is the table's other unique column: a fresh UUID, never the one that refused.
        if (isUniqueViolation(error) && (constraintOf(error) ?? 'withdrawal_one_pending') === 'withdrawal_one_pending') return null;
        throw error;
      }
    },

    /**
     * What the customer withdrew (pending or paid, in USD at submission) since each moment:
     * the limits' rolling day and month, and four-eyes' 24 hours. Rejected and canceled
     * withdrawals moved nothing and count for nothing.
     */
    async usedUsdSince(executor: Kysely<Database> | Transaction<Database>, uid: number, since: { day: Date; month: Date }): Promise<{ dayUsd: string; monthUsd: string }> {
      const row = await executor
        .selectFrom('withdrawal')
        .select([
          sql<string>`coalesce(sum(amount_usd) filter (where created_at >= ${since.day}), 0)`.as('day_usd'),
          sql<string>`coalesce(sum(amount_usd), 0)`.as('month_usd'),
        ])
        .where('uid', '=', uid)
        .where('status', 'in', ['pending', 'paid'])
        .where('created_at', '>=', since.month)
        .executeTakeFirstOrThrow();
      return { dayUsd: String(row.day_usd), monthUsd: String(row.month_usd) };
    },

    /** Locks a withdrawal for its decision or its cancel (after the review item: the lock order). */
    async lock(trx: Transaction<Database>, id: number) {
      return trx
        .selectFrom('withdrawal')
        .innerJoin('currency', 'currency.id', 'withdrawal.currency_id')
        .selectAll('withdrawal')
        .select('currency.code as currency_code')
        .where('withdrawal.id', '=', id)
        .forUpdate('withdrawal')
        .executeTakeFirst();
    },

    async setStatus(trx: Transaction<Database>, id: number, status: WithdrawalStatus, decidedAt: Date, failureReason: string | null = null) {
      await trx.updateTable('withdrawal').set({ status, decided_at: decidedAt, failure_reason: failureReason }).where('id', '=', id).where('status', '=', 'pending').execute();
    },

    async ownedPending(uid: number, id: number) {
      return db.selectFrom('withdrawal').select(['id', 'status']).where('id', '=', id).where('uid', '=', uid).executeTakeFirst();
    },

    /** Whether the customer has a withdrawal awaiting review (the partial index answers it). */
    async hasPending(uid: number): Promise<boolean> {
      const row = await db.selectFrom('withdrawal').select('id').where('uid', '=', uid).where('status', '=', 'pending').limit(1).executeTakeFirst();
      return row !== undefined;
    },

    /**
     * The customer's withdrawals as `fund/records` rows (unioned with the deposits' rows):
     * pending is waiting (0), paid is success (1), rejected and canceled are fail (2), a
     * canceled one marked so. A bank withdrawal has no coin network: its network is 'bank'.
     */
    recordSource(uid: number) {
      return db
        .selectFrom('withdrawal')
        .innerJoin('currency', 'currency.id', 'withdrawal.currency_id')
        .leftJoin('coin_network', 'coin_network.id', 'withdrawal.coin_network_id')
        .where('withdrawal.uid', '=', uid)
        .select([
          sql<number>`1`.as('action_type'),
          'withdrawal.id',
          'currency.code as currency',
          sql<string>`coalesce(coin_network.network, withdrawal.channel)`.as('network'),
          'withdrawal.amount',
          'withdrawal.amount_usd',
          'withdrawal.fee',
          'withdrawal.practical',
          sql<number>`case withdrawal.status when 'pending' then 0 when 'paid' then 1 else 2 end`.as('pay_state'),
          sql<boolean>`withdrawal.status = 'canceled'`.as('canceled'),
          'withdrawal.failure_reason',
          'withdrawal.channel',
          'withdrawal.destination_sealed',
          'withdrawal.key_id',
          'withdrawal.created_at',
          'withdrawal.decided_at',
        ])
        .$castTo<FundRecordSourceRow>();
    },

    async page(uid: number, page: number, size: number) {
      const [rows, count] = await Promise.all([
        db
          .selectFrom('withdrawal')
          .select(['id', 'currency_id', 'amount', 'fee', 'practical', 'amount_usd', 'status', 'created_at'])
          .where('uid', '=', uid)
          .orderBy('id', 'desc')
          .limit(size)
          .offset((page - 1) * size)
          .execute(),
        db.selectFrom('withdrawal').select((eb) => eb.fn.countAll<string>().as('count')).where('uid', '=', uid).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.count) };
    },
  };
}
export type WithdrawalsRepository = ReturnType<typeof createWithdrawalsRepository>;
