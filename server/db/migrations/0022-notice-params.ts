import type { Kysely } from 'kysely';

/**
 * A coded notice's parameters besides its amount and reason (`params`: the amount's currency,
 * the event of a 629012 "new message"; src/shared/notices/notice-codes.ts), so that the app
 * words it in the reader's language. Null for custom notices and older rows.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema.alterTable('notice').addColumn('params', 'jsonb').execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.alterTable('notice').dropColumn('params').execute();
}
