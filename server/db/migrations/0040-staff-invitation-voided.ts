import type { Kysely } from 'kysely';

/**
 * An invitation sent again voids the older link (`staff/resendInvitation`): the older row
 * stays, as the record of what was sent when, marked with when it was replaced.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema.alterTable('staff_invitation').addColumn('voided_at', 'timestamptz').execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.alterTable('staff_invitation').dropColumn('voided_at').execute();
}
