import { sql, type Kysely } from 'kysely';

/**
 * OWASP's device cookies and the sign-in codes of server/auth/: a browser that signed in
 * to an account before (`trusted_device`) is not held back by failures from elsewhere;
 * a new one may skip the account's delay with a code sent to the account (`sign_in_code`).
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable('trusted_device')
    /** A keyed hash of the cookie's nonce, never the nonce itself. */
    .addColumn('id', 'text', (column) => column.primaryKey())
    /** A keyed hash of the account the cookie was issued to ("customer:E|a@b.example", "staff:a@b.example"). */
    .addColumn('account', 'text', (column) => column.notNull())
    /** Tries in a row that failed from this device; at the maximum it is trusted no more. */
    .addColumn('failures', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('last_failure_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`'epoch'::timestamptz`))
    .addColumn('created_at', 'timestamptz', (column) => column.notNull())
    .addColumn('expires_at', 'timestamptz', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('trusted_device_expiry').on('trusted_device').column('expires_at').execute();

  await db.schema
    .createTable('sign_in_code')
    .addColumn('id', 'bigserial', (column) => column.primaryKey())
    /** A keyed hash of the account, as trusted_device.account. */
    .addColumn('account', 'text', (column) => column.notNull())
    /** A keyed hash of the account and the code. */
    .addColumn('code_hash', 'text', (column) => column.notNull())
    .addColumn('created_at', 'timestamptz', (column) => column.notNull())
    .addColumn('expires_at', 'timestamptz', (column) => column.notNull())
    .addColumn('consumed_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('sign_in_code_lookup').on('sign_in_code').columns(['account', 'code_hash']).execute();
  await db.schema.createIndex('sign_in_code_expiry').on('sign_in_code').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.dropTable('sign_in_code').execute();
  await db.schema.dropTable('trusted_device').execute();
}
