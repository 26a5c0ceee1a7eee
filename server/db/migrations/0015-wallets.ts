import { sql, type Kysely } from 'kysely';

/**
 * Wallets (issue 16): the ledger learns currencies, the currencies and their networks
 * become tables, and customer money calls get their idempotency keys.
 * - `ledger_account.currency`: every account holds one currency (the existing ones USD);
 *   a user has one account per (book, kind, currency), the house one per (book, kind,
 *   currency). Journals balance per currency.
 * - `currency`: what a wallet can hold, valued in USD by a market product's live price
 *   (null: pegged to the USD), with the fee rate of a transfer to or from the trading cash.
 * - `coin_network`: the networks a currency moves on, the platform's deposit address and
 *   the withdrawal bounds and fee of each.
 * - `idempotency_key`: one row per (user, key) of a customer money call, with the first
 *   answer; the primary key is what makes parallel replays answer once.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema.alterTable('ledger_account').addColumn('currency', 'text', (column) => column.notNull().defaultTo('USD')).execute();
  await db.schema.dropIndex('ledger_account_owner').execute();
  await db.schema.dropIndex('ledger_account_house').execute();
  await db.schema.createIndex('ledger_account_owner').on('ledger_account').columns(['owner_uid', 'book', 'kind', 'currency']).unique().where(sql.ref('owner_uid'), 'is not', null).execute();
  await db.schema.createIndex('ledger_account_house').on('ledger_account').columns(['book', 'kind', 'currency']).unique().where(sql.ref('owner_uid'), 'is', null).execute();

  await db.schema
    .createTable('currency')
    .addColumn('id', 'serial', (column) => column.primaryKey())
    .addColumn('code', 'text', (column) => column.notNull().unique().check(sql`code ~ '^[A-Z0-9]{2,12}$'`))
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('decimals', 'integer', (column) => column.notNull().check(sql`decimals between 0 and 8`))
    .addColumn('icon', 'text', (column) => column.notNull())
    /** The market product whose live price values one unit in USD; null for a USD-pegged coin. */
    .addColumn('price_product', 'text')
    /** Fraction of a transfer's amount kept as its fee (0.001 = 0.1 %). */
    .addColumn('transfer_fee_rate', 'numeric(38, 8)', (column) => column.notNull().defaultTo(0).check(sql`transfer_fee_rate >= 0 and transfer_fee_rate < 1`))
    .addColumn('enabled', 'boolean', (column) => column.notNull().defaultTo(true))
    .addColumn('sort', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('coin_network')
    .addColumn('id', 'serial', (column) => column.primaryKey())
    .addColumn('currency_id', 'integer', (column) => column.notNull().references('currency.id'))
    .addColumn('network', 'text', (column) => column.notNull())
    .addColumn('deposit_address', 'text', (column) => column.notNull())
    .addColumn('min_withdraw', 'numeric(38, 8)', (column) => column.notNull().check(sql`min_withdraw >= 0`))
    .addColumn('max_withdraw', 'numeric(38, 8)', (column) => column.notNull())
    .addColumn('withdraw_fee_type', 'text', (column) => column.notNull().check(sql`withdraw_fee_type in ('PERCENTAGE', 'FIX_AMOUNT')`))
    /** A percentage (1.5 = 1.5 %) or a fixed amount in the currency, by the fee type. */
    .addColumn('withdraw_fee', 'numeric(38, 8)', (column) => column.notNull().check(sql`withdraw_fee >= 0`))
    .addColumn('enabled', 'boolean', (column) => column.notNull().defaultTo(true))
    .addCheckConstraint('coin_network_bounds', sql`max_withdraw >= min_withdraw`)
    .execute();
  await db.schema.createIndex('coin_network_unique').on('coin_network').columns(['currency_id', 'network']).unique().execute();

  const usdt = await sql<{ id: number }>`
    insert into currency (code, name, decimals, icon, price_product, transfer_fee_rate, sort)
    values ('USDT', 'Tether', 4, '/icons/coins/usdt.svg', null, 0, 1) returning id`.execute(db);
  const btc = await sql<{ id: number }>`
    insert into currency (code, name, decimals, icon, price_product, transfer_fee_rate, sort)
    values ('BTC', 'Bitcoin', 8, '/icons/coins/btc.svg', 'BTCUSDT', 0.001, 2) returning id`.execute(db);
  const eth = await sql<{ id: number }>`
    insert into currency (code, name, decimals, icon, price_product, transfer_fee_rate, sort)
    values ('ETH', 'Ethereum', 8, '/icons/coins/eth.svg', 'ETHUSDT', 0.001, 3) returning id`.execute(db);
  const [usdtId, btcId, ethId] = [usdt.rows[0]?.id, btc.rows[0]?.id, eth.rows[0]?.id];
  await sql`
    insert into coin_network (currency_id, network, deposit_address, min_withdraw, max_withdraw, withdraw_fee_type, withdraw_fee) values
      (${usdtId}, 'TRC20', 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE', 50, 10000000, 'FIX_AMOUNT', 1),
      (${usdtId}, 'ERC20', '0x8f3Cf7ad23Cd3CaDbD9735AFf958023239c6A063', 50, 10000000, 'FIX_AMOUNT', 5),
      (${btcId}, 'Bitcoin', 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh', 0.001, 200, 'PERCENTAGE', 0.5),
      (${ethId}, 'ERC20', '0x71C7656EC7ab88b098defB751B7401B5f6d8976F', 0.02, 3000, 'PERCENTAGE', 0.5)`.execute(db);

  await db.schema
    .createTable('idempotency_key')
    .addColumn('uid', 'integer', (column) => column.notNull().references('app_user.uid'))
    .addColumn('key', 'text', (column) => column.notNull())
    /** The call the key was first used on: the same key on another call is refused, not answered. */
    .addColumn('path', 'text', (column) => column.notNull())
    /** The first call's `data`, as JSON text; written in the same transaction as its effect. */
    .addColumn('answer', 'text')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull())
    .addPrimaryKeyConstraint('idempotency_key_pk', ['uid', 'key'])
    .execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.dropTable('idempotency_key').execute();
  await db.schema.dropTable('coin_network').execute();
  await db.schema.dropTable('currency').execute();
  await db.schema.dropIndex('ledger_account_owner').execute();
  await db.schema.dropIndex('ledger_account_house').execute();
  await db.schema.alterTable('ledger_account').dropColumn('currency').execute();
  await db.schema.createIndex('ledger_account_owner').on('ledger_account').columns(['owner_uid', 'book', 'kind']).unique().where(sql.ref('owner_uid'), 'is not', null).execute();
  await db.schema.createIndex('ledger_account_house').on('ledger_account').columns(['book', 'kind']).unique().where(sql.ref('owner_uid'), 'is', null).execute();
}
