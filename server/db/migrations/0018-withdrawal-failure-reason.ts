import type { Kysely } from 'kysely';

/**
 * A rejected withdrawal keeps the reviewer's reason on its own row (as a deposit does), so the
 * customer's records (`fund/records`) show why it failed without reading the review queue.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema.alterTable('withdrawal').addColumn('failure_reason', 'text').execute();
}
