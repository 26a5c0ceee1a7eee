import { sql, type Kysely } from 'kysely';

/**
 * Who runs a role that must run in one process at a time (the market feed, the jobs): one
 * row per role, its holder and when the lease ends unless renewed (the database's clock, so
 * processes on different machines agree). See server/cluster/leadership.ts.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable('leader_lease')
    .addColumn('role', 'text', (column) => column.primaryKey())
    .addColumn('holder', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'timestamptz', (column) => column.notNull())
    .addColumn('acquired_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.dropTable('leader_lease').execute();
}
