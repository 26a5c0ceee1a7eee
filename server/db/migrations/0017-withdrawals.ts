import { sql, type Kysely } from 'kysely';

/**
 * Withdrawals (issue 16): a customer's saved crypto addresses and bank cards, the bank card
 * channel's terms, and the withdrawals themselves. Personal fields (a card's payee name,
 * account, address, id number and phone; an address) are stored sealed with the server's
 * data key (AES-256-GCM, server/auth/data-key.ts), never in clear; `key_id` names the key
 * that sealed a row so the key can be rotated row by row.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable('saved_crypto_address')
    .addColumn('id', 'serial', (column) => column.primaryKey())
    .addColumn('uid', 'integer', (column) => column.notNull().references('app_user.uid'))
    /** The coin on one network the address was saved for. */
    .addColumn('coin_network_id', 'integer', (column) => column.notNull().references('coin_network.id'))
    .addColumn('address_sealed', 'text', (column) => column.notNull())
    .addColumn('key_id', 'text', (column) => column.notNull())
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('saved_crypto_address_owner').on('saved_crypto_address').columns(['uid', 'id']).execute();

  await db.schema
    .createTable('bank_card')
    .addColumn('id', 'serial', (column) => column.primaryKey())
    .addColumn('uid', 'integer', (column) => column.notNull().references('app_user.uid'))
    .addColumn('bank_name', 'text', (column) => column.notNull())
    .addColumn('bank_code', 'text', (column) => column.notNull())
    .addColumn('bank_address', 'text', (column) => column.notNull())
    .addColumn('swift_code', 'text', (column) => column.notNull())
    .addColumn('branch_code', 'text', (column) => column.notNull())
    .addColumn('bank_country', 'text', (column) => column.notNull())
    .addColumn('post_code', 'text', (column) => column.notNull())
    .addColumn('account_type', 'text', (column) => column.notNull())
    .addColumn('ins_num', 'text', (column) => column.notNull())
    .addColumn('tra_num', 'text', (column) => column.notNull())
    /** The personal fields, sealed (an empty field is stored empty, as it was typed). */
    .addColumn('name_sealed', 'text', (column) => column.notNull())
    .addColumn('account_sealed', 'text', (column) => column.notNull())
    .addColumn('address_sealed', 'text', (column) => column.notNull())
    .addColumn('id_number_sealed', 'text', (column) => column.notNull())
    .addColumn('phone_sealed', 'text', (column) => column.notNull())
    .addColumn('key_id', 'text', (column) => column.notNull())
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('bank_card_owner').on('bank_card').columns(['uid', 'id']).execute();

  /** The bank card channel (`withdraw/bankMeta`): one row; bounds null where it names none (0). */
  await db.schema
    .createTable('bank_withdraw_channel')
    .addColumn('id', 'integer', (column) => column.primaryKey().check(sql`id = 1`))
    .addColumn('currency_id', 'integer', (column) => column.notNull().references('currency.id'))
    .addColumn('min_amount', 'numeric(38, 8)')
    .addColumn('max_amount', 'numeric(38, 8)')
    .addColumn('fee_type', 'text', (column) => column.notNull().check(sql`fee_type in ('PERCENTAGE', 'FIX_AMOUNT')`))
    .addColumn('fee_num', 'numeric(38, 8)', (column) => column.notNull().check(sql`fee_num >= 0`))
    .addColumn('enabled', 'boolean', (column) => column.notNull().defaultTo(true))
    .execute();
  // The bank channel pays out from the USD-pegged wallet (USDT), 50 – 10,000,000, 1 %.
  await sql`
    insert into bank_withdraw_channel (id, currency_id, min_amount, max_amount, fee_type, fee_num)
    select 1, id, 50, 10000000, 'PERCENTAGE', 1 from currency where code = 'USDT'
  `.execute(db);

  await db.schema
    .createTable('withdrawal')
    .addColumn('id', 'serial', (column) => column.primaryKey())
    .addColumn('uid', 'integer', (column) => column.notNull().references('app_user.uid'))
    .addColumn('channel', 'text', (column) => column.notNull().check(sql`channel in ('crypto', 'bank')`))
    .addColumn('currency_id', 'integer', (column) => column.notNull().references('currency.id'))
    .addColumn('coin_network_id', 'integer', (column) => column.references('coin_network.id'))
    .addColumn('bank_card_id', 'integer')
    /** Where the money goes (the address, or the card's details at submission), sealed. */
    .addColumn('destination_sealed', 'text', (column) => column.notNull())
    .addColumn('key_id', 'text', (column) => column.notNull())
    .addColumn('amount', 'numeric(38, 8)', (column) => column.notNull().check(sql`amount > 0`))
    .addColumn('fee', 'numeric(38, 8)', (column) => column.notNull().check(sql`fee >= 0`))
    .addColumn('practical', 'numeric(38, 8)', (column) => column.notNull().check(sql`practical > 0`))
    .addColumn('amount_usd', 'numeric(38, 8)', (column) => column.notNull())
    .addColumn('status', 'text', (column) => column.notNull().defaultTo('pending').check(sql`status in ('pending', 'paid', 'rejected', 'canceled')`))
    /** The ledger's hold journal key: the payout and the release name it. */
    .addColumn('hold_key', 'text', (column) => column.notNull().unique())
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('decided_at', 'timestamptz')
    .addCheckConstraint('withdrawal_destination', sql`(channel = 'crypto') = (coin_network_id is not null) and (channel = 'bank') = (bank_card_id is not null)`)
    .execute();
  await db.schema.createIndex('withdrawal_owner').on('withdrawal').columns(['uid', 'id']).execute();
  // Trading asks, at every placement, whether the customer has a withdrawal awaiting review.
  await sql`create index withdrawal_pending on withdrawal (uid) where status = 'pending'`.execute(db);
}

export async function down(db: Kysely<unknown>) {
  await db.schema.dropTable('withdrawal').execute();
  await db.schema.dropTable('bank_withdraw_channel').execute();
  await db.schema.dropTable('bank_card').execute();
  await db.schema.dropTable('saved_crypto_address').execute();
}
