import { sql, type Insertable, type Kysely, type Selectable, type Transaction } from 'kysely';
import { OptionStatus } from '../../../src/shared/api/options';
import { money, type Units } from '../../../src/shared/money/money';
import type { Book, Database, OptionOrderTable, OptionProductTable } from '../../db/schema';

export type OptionProductRow = Selectable<OptionProductTable>;
export type OptionOrderRow = Selectable<OptionOrderTable>;
type Executor = Kysely<Database> | Transaction<Database>;

/** The latest recorded tick at or before an instant (null when none was recorded). */
export interface SettlementTick {
  ms: number;
  price: string;
}

/** What one settled option records. */
export interface SettledValues {
  id: number;
  endPrice: string | null;
  endTickMs: number | null;
  outcome: 'win' | 'loss' | 'equal' | 'void';
  voidReason: string | null;
  winLost: string;
}

export interface RecordedTick {
  symbol: string;
  timeMs: number;
  price: string;
}

/** Rows per multi-row insert of recorded ticks. */
const tickInsertChunk = 1_000;

export function createOptionsRepository(db: Kysely<Database>) {
  return {
    async listProducts(executor: Executor = db): Promise<OptionProductRow[]> {
      return executor.selectFrom('option_product').selectAll().orderBy('sort').orderBy('id').execute();
    },

    /**
     * The first start's option products: one per symbol named (those of the migration's seed
     * kept in their order, others added after them in the order named, any other removed; no
     * option exists yet).
     */
    async setProductSymbols(executor: Executor, symbols: readonly string[], seed: { feeRate: string; timeRatePayload: Record<string, string> }) {
      if (symbols.length === 0) await executor.deleteFrom('option_product').execute();
      else await executor.deleteFrom('option_product').where('product_code', 'not in', [...symbols]).execute();
      const present = await executor.selectFrom('option_product').select(['product_code', 'sort']).execute();
      const kept = new Set(present.map((row) => row.product_code));
      const lastSort = Math.max(0, ...present.map((row) => row.sort));
      const missing = symbols.filter((symbol) => !kept.has(symbol));
      if (missing.length === 0) return;
      await executor
        .insertInto('option_product')
        .values(missing.map((symbol, index) => ({ product_code: symbol, trade_status: 1, fee_rate: seed.feeRate, time_rate_payload: JSON.stringify(seed.timeRatePayload), sort: lastSort + index + 1 })))
        .execute();
    },

    /** One option product, its row locked in the caller's transaction (a change of its terms). */
    lockProduct(executor: Executor, id: number): Promise<OptionProductRow | undefined> {
      return executor.selectFrom('option_product').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    },

    async updateProduct(executor: Executor, id: number, terms: { tradeStatus: number; feeRate: string; timeRatePayload: Record<string, string> }): Promise<OptionProductRow> {
      return executor
        .updateTable('option_product')
        .set({ trade_status: terms.tradeStatus, fee_rate: terms.feeRate, time_rate_payload: JSON.stringify(terms.timeRatePayload) })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /** The account's running options, newest first. */
    runningOf(uid: number, book: Book): Promise<OptionOrderRow[]> {
      return db.selectFrom('option_order').selectAll().where('uid', '=', uid).where('book', '=', book).where('status', '=', OptionStatus.running).orderBy('id', 'desc').execute();
    },

    async productPage(query: { limit: number; page: number; productCode?: string | undefined }): Promise<OptionProductRow[]> {
      let select = db.selectFrom('option_product').selectAll();
      if (query.productCode !== undefined) select = select.where('product_code', '=', query.productCode);
      return select.orderBy('sort').orderBy('id').limit(query.limit).offset((query.page - 1) * query.limit).execute();
    },

    async findByClientOrderId(uid: number, book: Book, clientOrderId: string): Promise<OptionOrderRow | undefined> {
      return db.selectFrom('option_order').selectAll().where('uid', '=', uid).where('book', '=', book).where('client_order_id', '=', clientOrderId).executeTakeFirst();
    },

    async findByOrderNo(orderNo: string): Promise<OptionOrderRow | undefined> {
      return db.selectFrom('option_order').selectAll().where('order_no', '=', orderNo).executeTakeFirst();
    },

    async insertOrder(trx: Transaction<Database>, values: Insertable<OptionOrderTable>): Promise<OptionOrderRow> {
      return trx.insertInto('option_order').values(values).returningAll().executeTakeFirstOrThrow();
    },

    async insertTicks(ticks: readonly RecordedTick[], executor: Executor = db) {
      for (let start = 0; start < ticks.length; start += tickInsertChunk) {
        const chunk = ticks.slice(start, start + tickInsertChunk);
        await executor
          .insertInto('option_tick')
          .values(chunk.map((tick) => ({ symbol: tick.symbol, time_ms: tick.timeMs, price: tick.price })))
          .execute();
      }
    },

    /**
     * Running options whose end time is at or before `cutoffMs`, by end time then id,
     * after `after` (keyset paging, so that a run never sees one option twice).
     */
    async dueOptions(cutoffMs: number, limit: number, after: { endMs: number; id: number } | null): Promise<OptionOrderRow[]> {
      let query = db.selectFrom('option_order').selectAll().where('status', '=', OptionStatus.running).where('end_ms', '<=', cutoffMs);
      if (after) query = query.where((eb) => eb(eb.refTuple('end_ms', 'id'), '>', eb.tuple(after.endMs, after.id)));
      return query.orderBy('end_ms').orderBy('id').limit(limit).execute();
    },

    /**
     * The settlement tick of each (symbol, instant): the latest recorded tick at or before
     * it, ticks of one millisecond in the order they were recorded. Keyed `symbol|ms`.
     */
    async settlementTicks(instants: readonly { symbol: string; ms: number }[]): Promise<Map<string, SettlementTick | null>> {
      const ticks = new Map<string, SettlementTick | null>();
      if (instants.length === 0) return ticks;
      const result = await sql<{ symbol: string; end_ms: string | number; time_ms: string | number | null; price: string | null }>`
        select p.symbol, p.end_ms, t.time_ms, t.price
        from unnest(${instants.map((each) => each.symbol)}::text[], ${instants.map((each) => each.ms)}::bigint[]) as p(symbol, end_ms)
        left join lateral (
          select time_ms, price from option_tick
          where symbol = p.symbol and time_ms <= p.end_ms
          order by time_ms desc, id desc
          limit 1
        ) t on true`.execute(db);
      for (const row of result.rows) {
        ticks.set(`${row.symbol}|${Number(row.end_ms)}`, row.time_ms === null || row.price === null ? null : { ms: Number(row.time_ms), price: String(row.price) });
      }
      return ticks;
    },

    /**
     * Locks the options of `ids` that are still running and not locked by another
     * transaction, in id order, and answers their ids.
     */
    async lockRunning(trx: Transaction<Database>, ids: readonly number[]): Promise<Set<number>> {
      if (ids.length === 0) return new Set();
      // SKIP LOCKED: options another settling process holds are its to settle (and the
      // running condition of markSettled would refuse them here anyway), so nobody waits.
      const rows = await trx.selectFrom('option_order').select('id').where('id', 'in', ids).where('status', '=', OptionStatus.running).orderBy('id').forUpdate().skipLocked().execute();
      return new Set(rows.map((row) => row.id));
    },

    /**
     * Running → settled for each option that is still running, in one statement; answers
     * the ids it changed. The running condition is what makes settlement happen once.
     */
    async markSettled(trx: Transaction<Database>, settled: readonly SettledValues[], settledMs: number): Promise<Set<number>> {
      if (settled.length === 0) return new Set();
      const result = await sql<{ id: number }>`
        update option_order as o set
          status = ${OptionStatus.settled},
          end_price = v.end_price::numeric,
          end_tick_ms = v.end_tick_ms,
          outcome = v.outcome,
          void_reason = v.void_reason,
          win_lost = v.win_lost::numeric,
          settled_ms = ${settledMs}
        from unnest(
          ${settled.map((each) => each.id)}::integer[],
          ${settled.map((each) => each.endPrice)}::text[],
          ${settled.map((each) => each.endTickMs)}::bigint[],
          ${settled.map((each) => each.outcome)}::text[],
          ${settled.map((each) => each.voidReason)}::text[],
          ${settled.map((each) => each.winLost)}::text[]
        ) as v(id, end_price, end_tick_ms, outcome, void_reason, win_lost)
        where o.id = v.id and o.status = ${OptionStatus.running}
        returning o.id`.execute(trx);
      return new Set(result.rows.map((row) => Number(row.id)));
    },

    /** A user's running options in a book, locked in id order for the caller's transaction. */
    async lockRunningOf(trx: Transaction<Database>, uid: number, book: Book): Promise<OptionOrderRow[]> {
      return trx.selectFrom('option_order').selectAll().where('uid', '=', uid).where('book', '=', book).where('status', '=', OptionStatus.running).orderBy('id').forUpdate().execute();
    },

    /** The amounts of a user's running options in a book, summed (read under the account's lock). */
    async runningAmountIn(trx: Transaction<Database>, uid: number, book: Book): Promise<Units> {
      const rows = await trx.selectFrom('option_order').select('amount').where('uid', '=', uid).where('book', '=', book).where('status', '=', OptionStatus.running).execute();
      return rows.reduce((sum, row) => sum + money(String(row.amount)), 0n);
    },

    /** Every running option's symbol and end time (at start: what to record and when to settle). */
    async runningSchedule(): Promise<{ symbol: string; end_ms: string | number }[]> {
      return db.selectFrom('option_order').select(['symbol', 'end_ms']).where('status', '=', OptionStatus.running).execute();
    },

    async page(uid: number, book: Book, status: number, limit: number, offset: number): Promise<{ rows: OptionOrderRow[]; count: number }> {
      const base = db.selectFrom('option_order').where('uid', '=', uid).where('book', '=', book).where('status', '=', status);
      // Newest first: running by placement, settled by settlement.
      const ordered = status === OptionStatus.settled ? base.selectAll().orderBy('settled_ms', 'desc').orderBy('id', 'desc') : base.selectAll().orderBy('id', 'desc');
      const [rows, count] = await Promise.all([
        ordered.limit(limit).offset(offset).execute(),
        base.select(({ fn }) => fn.countAll<string | number>().as('count')).executeTakeFirstOrThrow(),
      ]);
      return { rows, count: Number(count.count) };
    },

    /** The sum of win_lost over the book's settled options: all of them, and those settled since `sinceMs`. */
    async winLossSums(uid: number, book: Book, sinceMs: number): Promise<{ total: string; today: string }> {
      const result = await sql<{ total: string | null; today: string | null }>`
        select sum(win_lost)::text as total, sum(win_lost) filter (where settled_ms >= ${sinceMs})::text as today
        from option_order where uid = ${uid} and book = ${book} and status = ${OptionStatus.settled}`.execute(db);
      const row = result.rows[0];
      return { total: row?.total ?? '0', today: row?.today ?? '0' };
    },

    /** The earliest end time of a running option (recorded ticks before it are no longer needed). */
    async earliestRunningEnd(): Promise<number | null> {
      const row = await db.selectFrom('option_order').select(({ fn }) => fn.min('end_ms').as('end')).where('status', '=', OptionStatus.running).executeTakeFirst();
      return row?.end === null || row?.end === undefined ? null : Number(row.end);
    },

    async pruneTicks(beforeMs: number): Promise<number> {
      const result = await db.deleteFrom('option_tick').where('time_ms', '<', beforeMs).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type OptionsRepository = ReturnType<typeof createOptionsRepository>;
