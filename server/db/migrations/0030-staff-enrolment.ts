import { sql, type Kysely } from 'kysely';

/**
 * Staff enrolment by invitation (issue 31): an admin's `staff/create` makes a member with no
 * password and no second factor yet, and a single-use invitation (only its digest is kept)
 * through which the member sets both. Until the member confirms a first code
 * (`enrolled_at`), they cannot sign in. Members made before this (and by the command line)
 * count as enrolled.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema.alterTable('staff_member').alterColumn('password_hash', (column) => column.dropNotNull()).execute();
  await db.schema.alterTable('staff_member').alterColumn('totp_secret', (column) => column.dropNotNull()).execute();
  await db.schema.alterTable('staff_member').addColumn('enrolled_at', 'timestamptz').execute();
  await sql`update staff_member set enrolled_at = created_at`.execute(db);

  await db.schema
    .createTable('staff_invitation')
    .addColumn('id', 'serial', (column) => column.primaryKey())
    .addColumn('staff_id', 'integer', (column) => column.notNull().references('staff_member.id'))
    /** The digest of the link's token (the data key's HMAC): the token itself is only in the message. */
    .addColumn('token_hash', 'text', (column) => column.notNull().unique())
    .addColumn('expires_at', 'timestamptz', (column) => column.notNull())
    /** The member chose a password and was given a second-factor secret (staff/enrol). */
    .addColumn('password_set_at', 'timestamptz')
    /** The member confirmed a first code (staff/enrol/confirm): the invitation is spent. */
    .addColumn('confirmed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('staff_invitation_staff').on('staff_invitation').column('staff_id').execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.dropTable('staff_invitation').execute();
  await db.schema.alterTable('staff_member').dropColumn('enrolled_at').execute();
}
