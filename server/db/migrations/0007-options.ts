import { sql, type Kysely } from 'kysely';

/** The seeded delivery times: 30 s, 60 s, 120 s and 300 s (format in src/shared/options/option-rules.ts). */
const seededTimeRates = {
  '1': '30;80;10|50|100|500;10000;10;30s',
  '2': '60;85;10|50|100|500;10000;10;60s',
  '3': '120;88;10|50|100|500;10000;10;120s',
  '4': '300;90;10|50|100|500;10000;10;300s',
};
const seededSymbols = ['BTCUSDT', 'ETHUSDT', 'EURUSD', 'GBPUSD', 'XAUUSD', 'US500'];
const seededFeeRate = '0.01';

/**
 * Timed options: the option products (one per pair), the orders, and the ticks recorded
 * for settlement (the price at an option's end time must survive a restart).
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable('option_product')
    .addColumn('id', 'serial', (column) => column.primaryKey())
    .addColumn('product_code', 'text', (column) => column.notNull().unique())
    .addColumn('trade_status', 'integer', (column) => column.notNull().defaultTo(1))
    /** A fraction of the amount, charged at placement. */
    .addColumn('fee_rate', 'numeric(38, 8)', (column) => column.notNull())
    /** Key → 'timeLong;profitRate;chips;max;min[;name]'. */
    .addColumn('time_rate_payload', 'jsonb', (column) => column.notNull())
    .addColumn('sort', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('option_order')
    .addColumn('id', 'serial', (column) => column.primaryKey())
    .addColumn('order_no', 'text', (column) => column.notNull().unique())
    .addColumn('uid', 'integer', (column) => column.notNull().references('app_user.uid'))
    .addColumn('book', 'text', (column) => column.notNull().check(sql`book in ('real', 'demo')`))
    .addColumn('client_order_id', 'text', (column) => column.notNull())
    .addColumn('option_product_id', 'integer', (column) => column.notNull().references('option_product.id'))
    .addColumn('symbol', 'text', (column) => column.notNull())
    /** 0 up, 1 down. */
    .addColumn('direction', 'integer', (column) => column.notNull())
    .addColumn('time_long', 'integer', (column) => column.notNull())
    /** Profit rate in percent, as placed. */
    .addColumn('profit_rate', 'numeric(38, 8)', (column) => column.notNull())
    .addColumn('amount', 'numeric(38, 8)', (column) => column.notNull())
    .addColumn('fee', 'numeric(38, 8)', (column) => column.notNull())
    /** The server's tick the option started on, and its time. */
    .addColumn('start_price', 'numeric(38, 8)', (column) => column.notNull())
    .addColumn('start_tick_ms', 'bigint', (column) => column.notNull())
    .addColumn('begin_ms', 'bigint', (column) => column.notNull())
    .addColumn('end_ms', 'bigint', (column) => column.notNull())
    /** 0 running, 1 settled. */
    .addColumn('status', 'integer', (column) => column.notNull().defaultTo(0))
    /** The recorded tick at end_ms it settled on (null when void). */
    .addColumn('end_price', 'numeric(38, 8)')
    .addColumn('end_tick_ms', 'bigint')
    /** win, loss, equal or void; void_reason says why. */
    .addColumn('outcome', 'text')
    .addColumn('void_reason', 'text')
    .addColumn('win_lost', 'numeric(38, 8)')
    .addColumn('settled_ms', 'bigint')
    .addCheckConstraint('option_order_settled_has_outcome', sql`status = 0 or outcome is not null`)
    .execute();
  await db.schema.createIndex('option_order_client').on('option_order').columns(['uid', 'book', 'client_order_id']).unique().execute();
  await db.schema.createIndex('option_order_user_status').on('option_order').columns(['uid', 'book', 'status', 'id']).execute();
  // The settlement scan: running options by end time.
  await db.schema.createIndex('option_order_due').on('option_order').columns(['end_ms', 'id']).where(sql.ref('status'), '=', 0).execute();

  await db.schema
    .createTable('option_tick')
    .addColumn('id', 'bigserial', (column) => column.primaryKey())
    .addColumn('symbol', 'text', (column) => column.notNull())
    .addColumn('time_ms', 'bigint', (column) => column.notNull())
    /** The bid, the price the quotes and charts show. */
    .addColumn('price', 'numeric(38, 8)', (column) => column.notNull())
    .execute();
  // The settlement price: the latest tick at or before an end time (ticks of one millisecond in arrival order).
  await db.schema.createIndex('option_tick_symbol_time').on('option_tick').columns(['symbol', 'time_ms', 'id']).execute();

  await db
    .withTables<{ option_product: { product_code: string; trade_status: number; fee_rate: string; time_rate_payload: string; sort: number } }>()
    .insertInto('option_product')
    .values(
      seededSymbols.map((code, index) => ({
        product_code: code,
        trade_status: 1,
        fee_rate: seededFeeRate,
        time_rate_payload: JSON.stringify(seededTimeRates),
        sort: index + 1,
      })),
    )
    .execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.dropTable('option_tick').execute();
  await db.schema.dropTable('option_order').execute();
  await db.schema.dropTable('option_product').execute();
}
