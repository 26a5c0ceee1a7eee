import { sql, type Kysely } from 'kysely';

/**
 * The double-entry ledger. Accounts belong to a book (real or demo money, never mixed)
 * and to a user, or to the house when owner_uid is null. Journals group entries that
 * sum to zero; neither is ever updated or deleted. A user's account can never go below
 * zero (checked by the database too).
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable('ledger_account')
    .addColumn('id', 'serial', (column) => column.primaryKey())
    .addColumn('owner_uid', 'integer', (column) => column.references('app_user.uid'))
    .addColumn('book', 'text', (column) => column.notNull().check(sql`book in ('real', 'demo')`))
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('balance', 'numeric(38, 8)', (column) => column.notNull().defaultTo(0))
    .addCheckConstraint('ledger_account_user_not_negative', sql`owner_uid is null or balance >= 0`)
    .execute();
  await db.schema.createIndex('ledger_account_owner').on('ledger_account').columns(['owner_uid', 'book', 'kind']).unique().where(sql.ref('owner_uid'), 'is not', null).execute();
  await db.schema.createIndex('ledger_account_house').on('ledger_account').columns(['book', 'kind']).unique().where(sql.ref('owner_uid'), 'is', null).execute();

  await db.schema
    .createTable('ledger_journal')
    .addColumn('id', 'serial', (column) => column.primaryKey())
    .addColumn('idempotency_key', 'text', (column) => column.notNull().unique())
    .addColumn('book', 'text', (column) => column.notNull())
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('uid', 'integer')
    .addColumn('reference', 'text')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull())
    .execute();

  await db.schema
    .createTable('ledger_entry')
    .addColumn('id', 'serial', (column) => column.primaryKey())
    .addColumn('journal_id', 'integer', (column) => column.notNull().references('ledger_journal.id'))
    .addColumn('account_id', 'integer', (column) => column.notNull().references('ledger_account.id'))
    .addColumn('amount', 'numeric(38, 8)', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('ledger_entry_journal').on('ledger_entry').column('journal_id').execute();
  await db.schema.createIndex('ledger_entry_account').on('ledger_entry').column('account_id').execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.dropTable('ledger_entry').execute();
  await db.schema.dropTable('ledger_journal').execute();
  await db.schema.dropTable('ledger_account').execute();
}
