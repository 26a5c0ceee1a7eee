import type { Kysely } from 'kysely';

/** The last second-factor time step a user spent: a code is accepted once (no replay within its window). */
export async function up(db: Kysely<unknown>) {
  await db.schema.alterTable('app_user').addColumn('totp_last_step', 'bigint').execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.alterTable('app_user').dropColumn('totp_last_step').execute();
}
