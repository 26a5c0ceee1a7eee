import type { Kysely } from 'kysely';

/**
 * Failed sign-ins per account and failed code checks per destination, shared by every
 * server process: the growing delay of `server/auth/failure-delay.ts`.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable('auth_throttle')
    /** A keyed hash of what is counted ("login:E:a@b.example"), never the address itself. */
    .addColumn('key', 'text', (column) => column.primaryKey())
    .addColumn('failures', 'integer', (column) => column.notNull())
    /** No try is evaluated before this instant. */
    .addColumn('blocked_until', 'timestamptz', (column) => column.notNull())
    .addColumn('last_failure_at', 'timestamptz', (column) => column.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.dropTable('auth_throttle').execute();
}
