import { sql, type Kysely } from 'kysely';

/** Market-contract orders: pending (1), position (2), deal (3), canceled (4). */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable('trade_order')
    .addColumn('id', 'serial', (column) => column.primaryKey())
    .addColumn('order_no', 'text', (column) => column.notNull().unique())
    .addColumn('uid', 'integer', (column) => column.notNull().references('app_user.uid'))
    .addColumn('book', 'text', (column) => column.notNull())
    .addColumn('client_order_id', 'text', (column) => column.notNull())
    .addColumn('symbol', 'text', (column) => column.notNull())
    .addColumn('direction', 'integer', (column) => column.notNull())
    .addColumn('price_type', 'integer', (column) => column.notNull())
    .addColumn('status', 'integer', (column) => column.notNull())
    .addColumn('volume', 'numeric(38, 8)', (column) => column.notNull())
    .addColumn('leverage', 'integer', (column) => column.notNull())
    .addColumn('contract_size', 'numeric(38, 8)', (column) => column.notNull())
    .addColumn('limit_price', 'numeric(38, 8)')
    .addColumn('open_price', 'numeric(38, 8)')
    .addColumn('close_price', 'numeric(38, 8)')
    .addColumn('stop_loss', 'numeric(38, 8)')
    .addColumn('take_profit', 'numeric(38, 8)')
    .addColumn('margin', 'numeric(38, 8)', (column) => column.notNull())
    .addColumn('fee', 'numeric(38, 8)', (column) => column.notNull().defaultTo(0))
    .addColumn('profit_loss', 'numeric(38, 8)')
    .addColumn('close_reason', 'text')
    /** The server's own tick that filled or closed the order (its time). */
    .addColumn('open_tick_ms', 'bigint')
    .addColumn('close_tick_ms', 'bigint')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull())
    .addColumn('opened_at', 'timestamptz')
    .addColumn('closed_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('trade_order_client').on('trade_order').columns(['uid', 'book', 'client_order_id']).unique().execute();
  await db.schema.createIndex('trade_order_user_status').on('trade_order').columns(['uid', 'book', 'status']).execute();
  await db.schema.createIndex('trade_order_open').on('trade_order').column('status').where(sql.ref('status'), 'in', sql`(1, 2)`).execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.dropTable('trade_order').execute();
}
