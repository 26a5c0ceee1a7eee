import { sql, type Kysely } from 'kysely';

/** The product catalogue and the stored candlesticks of every period. */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable('product')
    .addColumn('code', 'text', (column) => column.primaryKey())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('product_type', 'integer', (column) => column.notNull())
    .addColumn('trade_status', 'integer', (column) => column.notNull().defaultTo(1))
    .addColumn('price_precision', 'integer', (column) => column.notNull())
    .addColumn('volume_step', 'numeric', (column) => column.notNull())
    .addColumn('leverage', 'integer', (column) => column.notNull())
    .addColumn('min_lots', 'numeric', (column) => column.notNull())
    .addColumn('max_lots', 'numeric', (column) => column.notNull())
    .addColumn('volume_decimals', 'integer', (column) => column.notNull())
    .addColumn('logo_url', 'text', (column) => column.notNull())
    .addColumn('sort', 'integer')
    .addColumn('market_start_time', sql`integer[]`, (column) => column.notNull())
    .addColumn('market_close_time', sql`integer[]`, (column) => column.notNull())
    .addColumn('contract_size', 'numeric', (column) => column.notNull())
    .addColumn('spread', 'numeric', (column) => column.notNull())
    .addColumn('fee_rate', 'numeric', (column) => column.notNull())
    .addColumn('overnight_rate', 'numeric', (column) => column.notNull())
    .execute();

  await db.schema
    .createTable('kline')
    .addColumn('symbol', 'text', (column) => column.notNull())
    .addColumn('period', 'text', (column) => column.notNull())
    .addColumn('open_time', 'bigint', (column) => column.notNull())
    .addColumn('open_price', 'numeric', (column) => column.notNull())
    .addColumn('high_price', 'numeric', (column) => column.notNull())
    .addColumn('low_price', 'numeric', (column) => column.notNull())
    .addColumn('close_price', 'numeric', (column) => column.notNull())
    .addColumn('volume', 'numeric', (column) => column.notNull())
    .addColumn('turnover', 'numeric', (column) => column.notNull())
    .addPrimaryKeyConstraint('kline_pkey', ['symbol', 'period', 'open_time'])
    .execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.dropTable('kline').execute();
  await db.schema.dropTable('product').execute();
}
