import type { Kysely } from 'kysely';

/** An operator can prohibit a user from trading (405). */
export async function up(db: Kysely<unknown>) {
  await db.schema.alterTable('app_user').addColumn('trade_prohibited', 'boolean', (column) => column.notNull().defaultTo(false)).execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.alterTable('app_user').dropColumn('trade_prohibited').execute();
}
