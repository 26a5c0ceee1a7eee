import type { Executor } from '../../db/after-commit';
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Database, DepositTable } from '../../db/schema';
import type { FundRecordSourceRow } from '../fund-records/record-source';
import { PayState } from '../../../src/shared/money/deposit-rules';
import { money, type Units } from '../../../src/shared/money/money';

export type DepositRow = Selectable<DepositTable>;

export interface NewDeposit {
  uid: number;
  coinId: number;
  currency: string;
  network: string;
  amount: string;
  amountUsd: string;
  proofFileId: string;
  locale: string;
}

/** The advisory lock class of a customer's deposit claims ("depo"). */
const depositLockClass = 0x6465706f;

/** Every `deposit`, `deposit_block` and `own_deposit_address` statement. */
export function createDepositsRepository(db: Kysely<Database>) {
  return {
    /** The customer's own deposit addresses (walletType 1 when there is any), by coin network. */
    async ownAddresses(uid: number): Promise<Map<number, string>> {
      const rows = await db.selectFrom('own_deposit_address').select(['coin_network_id', 'address']).where('uid', '=', uid).execute();
      return new Map(rows.map((row) => [row.coin_network_id, row.address]));
    },

    /** Sets (or with null removes) the customer's own address on a network; answers the one it replaced. */
    async setOwnAddress(trx: Executor, input: { uid: number; coinNetworkId: number; address: string | null }): Promise<string | null> {
      const before = await trx
        .selectFrom('own_deposit_address')
        .select('address')
        .where('uid', '=', input.uid)
        .where('coin_network_id', '=', input.coinNetworkId)
        .forUpdate()
        .executeTakeFirst();
      if (input.address === null) {
        await trx.deleteFrom('own_deposit_address').where('uid', '=', input.uid).where('coin_network_id', '=', input.coinNetworkId).execute();
      } else {
        await trx
          .insertInto('own_deposit_address')
          .values({ uid: input.uid, coin_network_id: input.coinNetworkId, address: input.address })
          .onConflict((conflict) => conflict.columns(['uid', 'coin_network_id']).doUpdateSet({ address: input.address!, updated_at: new Date() }))
          .execute();
      }
      return before?.address ?? null;
    },

    /**
     * What a customer has deposited, in USD: the approved deposits' USD value as recorded
     * with each deposit (the forex minimum-deposit rule, 320, reads it; withdrawals do not
     * lower it, as the rule counts deposits).
     */
    async approvedUsdTotal(uid: number): Promise<Units> {
      const row = await db
        .selectFrom('deposit')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<string>('amount_usd'), sql<string>`0`).as('total'))
        .where('uid', '=', uid)
        .where('pay_state', '=', PayState.success)
        .executeTakeFirstOrThrow();
      return money(String(row.total));
    },
    /**
     * Takes the customer's deposit lock for the rest of the transaction: parallel claims of
     * one customer take turns, so each one's 24-hour total (four-eyes) counts the others.
     */
    async lockCustomer(trx: Transaction<Database>, uid: number): Promise<void> {
      await sql`select pg_advisory_xact_lock(${depositLockClass}::int, ${uid}::int)`.execute(trx);
    },

    /** The USD worth of the customer's deposits waiting or credited since a moment (refused claims count for nothing). */
    async claimedUsdSince(trx: Transaction<Database>, uid: number, since: Date): Promise<Units> {
      const row = await trx
        .selectFrom('deposit')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<string>('amount_usd'), sql<string>`0`).as('total'))
        .where('uid', '=', uid)
        .where('pay_state', 'in', [PayState.waiting, PayState.success])
        .where('created_at', '>=', since)
        .executeTakeFirstOrThrow();
      return money(String(row.total));
    },

    async insert(trx: Transaction<Database>, deposit: NewDeposit): Promise<number> {
      const row = await trx
        .insertInto('deposit')
        .values({
          uid: deposit.uid,
          coin_id: deposit.coinId,
          currency: deposit.currency,
          network: deposit.network,
          amount: deposit.amount,
          amount_usd: deposit.amountUsd,
          proof_file_id: deposit.proofFileId,
          locale: deposit.locale,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    /** Locks a waiting deposit for its decision; null when it is not waiting any more. */
    lockWaiting(trx: Transaction<Database>, id: number) {
      return trx.selectFrom('deposit').selectAll().where('id', '=', id).where('pay_state', '=', 0).forUpdate().executeTakeFirst();
    },

    async decide(trx: Transaction<Database>, id: number, payState: 1 | 2, failureReason: string | null) {
      await trx.updateTable('deposit').set({ pay_state: payState, failure_reason: failureReason, decided_at: new Date() }).where('id', '=', id).where('pay_state', '=', 0).execute();
    },

    async isBlocked(uid: number): Promise<boolean> {
      return (await db.selectFrom('deposit_block').select('uid').where('uid', '=', uid).executeTakeFirst()) !== undefined;
    },

    /** The customer's deposits as `fund/records` rows (it unions them with the withdrawals' rows). */
    recordSource(uid: number) {
      return db
        .selectFrom('deposit')
        .where('deposit.uid', '=', uid)
        .select([
          sql<number>`0`.as('action_type'),
          'deposit.id',
          'deposit.currency',
          'deposit.network',
          'deposit.amount',
          'deposit.amount_usd',
          sql<null>`cast(null as numeric)`.as('fee'),
          sql<null>`cast(null as numeric)`.as('practical'),
          'deposit.pay_state',
          sql<boolean>`false`.as('canceled'),
          'deposit.failure_reason',
          sql<null>`cast(null as text)`.as('channel'),
          sql<null>`cast(null as text)`.as('destination_sealed'),
          sql<null>`cast(null as text)`.as('key_id'),
          'deposit.created_at',
          'deposit.decided_at',
        ])
        .$castTo<FundRecordSourceRow>();
    },

    /** The reason a customer's deposits are blocked; null when they are not. `executor` a caller's transaction when it holds one. */
    async blockReason(uid: number, executor: Executor = db): Promise<string | null> {
      return (await executor.selectFrom('deposit_block').select('reason').where('uid', '=', uid).executeTakeFirst())?.reason ?? null;
    },

    /** Blocks (with a reason, replacing an earlier one) or unblocks a customer's deposits. */
    async setBlock(trx: Executor, uid: number, reason: string | null) {
      if (reason === null) await trx.deleteFrom('deposit_block').where('uid', '=', uid).execute();
      else await trx.insertInto('deposit_block').values({ uid, reason }).onConflict((conflict) => conflict.column('uid').doUpdateSet({ reason })).execute();
    },

    /** A page of a customer's deposits, newest first, with the total for the page count. */
    async page(uid: number, filter: { payState?: number | undefined }, offset: number, limit: number) {
      let query = db.selectFrom('deposit').where('uid', '=', uid);
      if (filter.payState !== undefined) query = query.where('pay_state', '=', filter.payState);
      const [rows, total] = await Promise.all([
        query.selectAll().orderBy('id', 'desc').offset(offset).limit(limit).execute(),
        query.select((eb) => eb.fn.countAll<string | number>().as('count')).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(total.count) };
    },
  };
}

export type DepositsRepository = ReturnType<typeof createDepositsRepository>;
