import { sql, type Insertable, type Kysely, type Selectable, type SelectQueryBuilder, type Transaction } from 'kysely';
import type { OrderTimeColumn } from '../../../src/shared/api/trading';
import { OrderStatus } from '../../../src/shared/trading/order-rules';
import type { HistorySelection } from '../../../src/shared/trading/history-filters';
import type { Book, Database, TradeOrderTable } from '../../db/schema';
import { orderNumberOf } from './order-number';

export type OrderRow = Selectable<TradeOrderTable>;
type Executor = Kysely<Database> | Transaction<Database>;

/** An order as placed, with its number (drawn before: nextNumberAndEarlier). */
export type NewOrder = Insertable<TradeOrderTable>;

/** The open orders of one account grouped by status, symbol and direction, summed in the database (free margin). */
export interface OpenOrderGroup {
  status: number;
  symbol: string;
  direction: number;
  margin: string;
  /** Σ volume × contract size. */
  quantity: string;
  /** Σ open price × volume × contract size. */
  cost: string;
}

/** What a position records when it closes. */
export interface CloseValues {
  closePrice: string;
  closeTickMs: string;
  profitLoss: string;
  reason: string;
  closedAt: Date;
}

const openStatuses = [OrderStatus.pending, OrderStatus.position];

/** Every statement on `trade_order`: the trading service holds the rules, this the SQL. */
export function createTradingRepository(db: Kysely<Database>) {
  const ofAccount = (executor: Executor, uid: number, book: Book) => executor.selectFrom('trade_order').where('uid', '=', uid).where('book', '=', book);

  return {
    findById: (id: number) => db.selectFrom('trade_order').selectAll().where('id', '=', id).executeTakeFirst(),
    findByOrderNo: (orderNo: string) => db.selectFrom('trade_order').selectAll().where('order_no', '=', orderNo).executeTakeFirst(),
    findByClientOrderId: (uid: number, book: Book, clientOrderId: string) => ofAccount(db, uid, book).selectAll().where('client_order_id', '=', clientOrderId).executeTakeFirst(),
    /**
     * A placement's first read, in one statement: a new number from the order sequence and the
     * order the account placed before under the same client order id, if any (then the number
     * goes unused: numbers are unique and rising, not gapless).
     */
    async nextNumberAndEarlier(uid: number, book: Book, clientOrderId: string): Promise<{ orderNo: string; placedBefore: OrderRow | undefined }> {
      const row = await db
        .selectFrom(sql<{ next_value: string }>`(select nextval('order_number')::text as next_value)`.as('sequence'))
        .leftJoin('trade_order', (join) => join.on('trade_order.uid', '=', uid).on('trade_order.book', '=', book).on('trade_order.client_order_id', '=', clientOrderId))
        .select('sequence.next_value')
        .selectAll('trade_order')
        .executeTakeFirstOrThrow();
      const { next_value: nextValue, ...earlier } = row;
      return { orderNo: orderNumberOf(nextValue), placedBefore: earlier.id === null ? undefined : (earlier as OrderRow) };
    },

    /** Pending orders of an account (counted under its lock by the caller). */
    async countPendingIn(trx: Transaction<Database>, uid: number, book: Book): Promise<number> {
      const row = await ofAccount(trx, uid, book).select(({ fn }) => fn.countAll<string>().as('count')).where('status', '=', OrderStatus.pending).executeTakeFirstOrThrow();
      return Number(row.count);
    },

    /** An order's insert, built for the caller to run inside the statement that locks its margin (ledger.lockMarginPlacing). */
    insertStatement: (trx: Transaction<Database>, order: NewOrder) => trx.insertInto('trade_order').values(order).returningAll(),

    /** The open orders (pending and positions) of an account, locked, inside a transaction that holds its accounts. */
    lockOpenIn: (trx: Transaction<Database>, uid: number, book: Book) => ofAccount(trx, uid, book).selectAll().where('status', 'in', openStatuses).orderBy('id').forUpdate().execute(),
    /** The open orders of an account. */
    openOf: (uid: number, book: Book) => ofAccount(db, uid, book).selectAll().where('status', 'in', openStatuses).execute(),
    /** The open orders of an account, newest first (the live feed's lists). */
    openNewestFirst: (uid: number, book: Book) => ofAccount(db, uid, book).selectAll().where('status', 'in', openStatuses).orderBy('id', 'desc').execute(),
    /** Every open order (triggers at start, the stop-out check). */
    allOpen: () => db.selectFrom('trade_order').selectAll().where('status', 'in', openStatuses).execute(),
    /** Every open position (the overnight fee). */
    allPositions: () => db.selectFrom('trade_order').selectAll().where('status', '=', OrderStatus.position).execute(),

    /** One account's open orders in a few grouped rows (an account with hundreds of orders costs one short read). */
    async openGroupsIn(trx: Transaction<Database>, uid: number, book: Book): Promise<OpenOrderGroup[]> {
      const result = await sql<OpenOrderGroup>`
        select status, symbol, direction, sum(margin)::text as margin, sum(volume * contract_size)::text as quantity,
          sum(coalesce(open_price, 0) * volume * contract_size)::text as cost
        from trade_order where uid = ${uid} and book = ${book} and status in (${OrderStatus.pending}, ${OrderStatus.position})
        group by status, symbol, direction`.execute(trx);
      return result.rows;
    },

    /** One order, locked for the rest of the transaction (an edit; a close takes the same lock). */
    lockByIdIn: (trx: Transaction<Database>, id: number) => trx.selectFrom('trade_order').selectAll().where('id', '=', id).forUpdate().executeTakeFirst(),

    /** New stop loss, take profit and limit price of an order, only while it is in `status`; answers the row, or undefined when it was not. */
    updateLevelsIn: (trx: Transaction<Database>, id: number, status: number, levels: { stop_loss: string | null; take_profit: string | null; limit_price: string | null; margin: string }) =>
      trx.updateTable('trade_order').set(levels).where('id', '=', id).where('status', '=', status).returningAll().executeTakeFirst(),

    /** Position → deal, only while it is a position: built for the caller to run (alone, or inside the statement that settles it: ledger.settlePositionClosing). */
    closeStatement: (trx: Transaction<Database>, id: number, values: CloseValues) =>
      trx
        .updateTable('trade_order')
        .set({ status: OrderStatus.deal, close_price: values.closePrice, close_tick_ms: values.closeTickMs, profit_loss: values.profitLoss, close_reason: values.reason, closed_at: values.closedAt })
        .where('id', '=', id)
        .where('status', '=', OrderStatus.position)
        .returning('id'),

    /** A held position's margin taken down by negative-balance protection (protection-cover.ts), only while it is a position; answers whether it was. */
    async setPositionMarginIn(trx: Transaction<Database>, id: number, margin: string): Promise<boolean> {
      const updated = await trx.updateTable('trade_order').set({ margin }).where('id', '=', id).where('status', '=', OrderStatus.position).executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1;
    },

    /** Pending → canceled, only while it is pending; answers the margin it held then (a moved price changes it), or null. */
    async cancelIn(trx: Transaction<Database>, id: number, reason: string, closedAt: Date): Promise<string | null> {
      const updated = await trx
        .updateTable('trade_order')
        .set({ status: OrderStatus.canceled, close_reason: reason, closed_at: closedAt })
        .where('id', '=', id)
        .where('status', '=', OrderStatus.pending)
        .returning('margin')
        .executeTakeFirst();
      return updated ? String(updated.margin) : null;
    },

    /** Pending → position at its fill, only while it is pending; answers whether it was. */
    async fillIn(trx: Transaction<Database>, id: number, fill: { openPrice: string; openTickMs: string; fee: string; openedAt: Date; limitPrice: string }): Promise<boolean> {
      const updated = await trx
        .updateTable('trade_order')
        .set({ status: OrderStatus.position, open_price: fill.openPrice, open_tick_ms: fill.openTickMs, fee: fill.fee, opened_at: fill.openedAt })
        .where('id', '=', id)
        .where('status', '=', OrderStatus.pending)
        // Only at the limit its trigger was armed at: a price moved meanwhile waits for its own trigger.
        .where('limit_price', '=', fill.limitPrice)
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1;
    },

    /** Adds an overnight charge to a position's fee and its overnight fee, only while it is open; answers whether it was. */
    async addOvernightFeeIn(trx: Transaction<Database>, id: number, fee: string): Promise<boolean> {
      const updated = await trx
        .updateTable('trade_order')
        .set({ fee: sql<string>`fee + ${fee}::numeric`, overnight_fee: sql<string>`overnight_fee + ${fee}::numeric` })
        .where('id', '=', id)
        .where('status', '=', OrderStatus.position)
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1;
    },

    /** Ends an order of the demo reset without a result: pending ones canceled, positions closed at 0. */
    async endForDemoResetIn(trx: Transaction<Database>, row: OrderRow, closedAt: Date) {
      await trx
        .updateTable('trade_order')
        .set({ status: row.status === OrderStatus.pending ? OrderStatus.canceled : OrderStatus.deal, profit_loss: '0', close_reason: 'demo-reset', closed_at: closedAt })
        .where('id', '=', row.id)
        .execute();
    },

    /** A page of an account's orders of the selected statuses (and close reasons), by the asked time columns, newest first (the history). */
    async historyPage(uid: number, book: Book, selection: HistorySelection, sortBy: readonly OrderTimeColumn[], limit: number, offset: number): Promise<{ rows: OrderRow[]; count: number }> {
      const ofStatus = ofAccount(db, uid, book).where('status', 'in', [...selection.statuses]);
      const base = selection.closeReasons ? ofStatus.where('close_reason', 'in', [...selection.closeReasons]) : ofStatus;
      const [rows, count] = await Promise.all([
        newestFirst(base.selectAll(), sortBy).limit(limit).offset(offset).execute(),
        base.select(({ fn }) => fn.countAll<string>().as('count')).executeTakeFirstOrThrow(),
      ]);
      return { rows, count: Number(count.count) };
    },

    /** The result of an account's closed orders, summed in the database: all of them, and those closed since `since`. */
    async closedResults(uid: number, book: Book, since: Date): Promise<{ total: string; today: string }> {
      const result = await sql<{ total: string | null; today: string | null }>`
        select sum(profit_loss)::text as total, sum(profit_loss) filter (where closed_at >= ${since})::text as today
        from trade_order where uid = ${uid} and book = ${book} and status = ${OrderStatus.deal}`.execute(db);
      const row = result.rows[0];
      return { total: row?.total ?? '0', today: row?.today ?? '0' };
    },

    /** A page of an account's orders by the asked time columns, newest first, any status unless one is asked for. */
    async listPage(
      uid: number,
      book: Book,
      filter: { status?: number | undefined; orderNo?: string | undefined },
      sortBy: readonly OrderTimeColumn[],
      limit: number,
      offset: number,
    ): Promise<{ rows: OrderRow[]; count: number }> {
      let base = ofAccount(db, uid, book);
      if (filter.status !== undefined) base = base.where('status', '=', filter.status);
      if (filter.orderNo !== undefined) base = base.where('order_no', '=', filter.orderNo);
      const [rows, count] = await Promise.all([
        newestFirst(base.selectAll(), sortBy).limit(limit).offset(offset).execute(),
        base.select(({ fn }) => fn.countAll<string>().as('count')).executeTakeFirstOrThrow(),
      ]);
      return { rows, count: Number(count.count) };
    },
  };
}

export type TradingRepository = ReturnType<typeof createTradingRepository>;

/** The table's column behind each time column of the API. */
const timeColumnOf = { orderTime: 'created_at', transactionTime: 'opened_at', closingTime: 'closed_at' } as const satisfies Record<OrderTimeColumn, keyof TradeOrderTable>;

/**
 * Sorts by the asked columns newest first (a time not yet reached, e.g. a pending order's
 * close, counts as newest), then by id so that rows of one millisecond keep their order across pages.
 */
function newestFirst<Query extends SelectQueryBuilder<Database, 'trade_order', OrderRow>>(query: Query, sortBy: readonly OrderTimeColumn[]): Query {
  let sorted = query;
  for (const column of new Set(sortBy)) sorted = sorted.orderBy(sql.ref(timeColumnOf[column]), sql`desc nulls first`) as Query;
  return sorted.orderBy('id', 'desc') as Query;
}
