import type { Kysely } from 'kysely';

/**
 * Every request for a code, per destination and purpose, whether or not a code goes out:
 * the 60 s resend rule and the per-destination count then answer alike for addresses
 * with and without an account.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable('code_request')
    /** A keyed hash of purpose and destination, never the address itself. */
    .addColumn('key', 'text', (column) => column.primaryKey())
    .addColumn('last_at', 'timestamptz', (column) => column.notNull())
    .addColumn('window_start', 'timestamptz', (column) => column.notNull())
    .addColumn('window_count', 'integer', (column) => column.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.dropTable('code_request').execute();
}
