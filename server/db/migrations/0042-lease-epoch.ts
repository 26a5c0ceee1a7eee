import type { Kysely } from 'kysely';

/**
 * Fencing (issue 35): each role's lease counts its take-overs. The epoch is raised in the
 * take-over's own statement and kept by renewals; the market leader stamps its ticks with
 * it and the jobs' writes lock the row under it, so a stale leader's are refused. Rows are
 * no longer deleted when a holder steps down (it expires its row instead): the count must
 * never go back. See server/cluster/leadership.ts.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .alterTable('leader_lease')
    .addColumn('epoch', 'bigint', (column) => column.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.alterTable('leader_lease').dropColumn('epoch').execute();
}
