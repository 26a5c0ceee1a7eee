import { sql, type Kysely } from 'kysely';

/**
 * The back office's staff: their accounts (apart from customers'), their session families
 * and rotating refresh tokens, and the audit trail of what they did. The audit trail is
 * append-only: a trigger refuses UPDATE, DELETE and TRUNCATE, so no code path (nor a
 * mistaken query) can rewrite history.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable('staff_member')
    .addColumn('id', 'serial', (column) => column.primaryKey())
    .addColumn('email', 'text', (column) => column.notNull().unique())
    /** argon2id (server/auth/passwords.ts). */
    .addColumn('password_hash', 'text', (column) => column.notNull())
    .addColumn('roles', sql`text[]`, (column) => column.notNull())
    /** The TOTP secret, encrypted at rest (AES-256-GCM with the server's data key). */
    .addColumn('totp_secret', 'text', (column) => column.notNull())
    /** The last second-factor time step spent: a code is accepted once. */
    .addColumn('totp_last_step', 'bigint')
    /** Set for a one-time password: every call but me, password and logout is refused until it changes. */
    .addColumn('must_change_password', 'boolean', (column) => column.notNull().defaultTo(true))
    .addColumn('disabled_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull())
    .addColumn('last_sign_in_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('staff_session_family')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('staff_id', 'integer', (column) => column.notNull().references('staff_member.id'))
    .addColumn('created_at', 'timestamptz', (column) => column.notNull())
    /** Set when the session ends server-side: logout, a password change, disabling, reuse of a spent refresh token. */
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('revoked_reason', 'text')
    .execute();
  await db.schema.createIndex('staff_session_family_staff').on('staff_session_family').column('staff_id').execute();

  await db.schema
    .createTable('staff_refresh_token')
    .addColumn('token_hash', 'text', (column) => column.primaryKey())
    .addColumn('family_id', 'text', (column) => column.notNull().references('staff_session_family.id'))
    .addColumn('expires_at', 'timestamptz', (column) => column.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('staff_refresh_token_family').on('staff_refresh_token').column('family_id').execute();

  await db.schema
    .createTable('staff_audit')
    .addColumn('id', 'bigserial', (column) => column.primaryKey())
    /** Null for the command line (`npm run staff`). */
    .addColumn('staff_id', 'integer', (column) => column.references('staff_member.id'))
    .addColumn('action', 'text', (column) => column.notNull())
    .addColumn('target_type', 'text', (column) => column.notNull())
    .addColumn('target_id', 'text')
    /** The customer concerned, when there is one (audit/list filters on it). */
    .addColumn('uid', 'integer')
    .addColumn('before', 'jsonb')
    .addColumn('after', 'jsonb')
    .addColumn('at', 'timestamptz', (column) => column.notNull())
    .addColumn('address', 'text')
    .execute();
  await db.schema.createIndex('staff_audit_staff').on('staff_audit').columns(['staff_id', 'id']).execute();
  await db.schema.createIndex('staff_audit_uid').on('staff_audit').columns(['uid', 'id']).execute();
  await db.schema.createIndex('staff_audit_action').on('staff_audit').columns(['action', 'id']).execute();

  await sql`
    create function staff_audit_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'staff_audit is append-only: % refused', tg_op using errcode = 'insufficient_privilege';
    end
    $$`.execute(db);
  await sql`create trigger staff_audit_no_update_or_delete before update or delete on staff_audit for each row execute function staff_audit_append_only()`.execute(db);
  await sql`create trigger staff_audit_no_truncate before truncate on staff_audit for each statement execute function staff_audit_append_only()`.execute(db);
}

export async function down(db: Kysely<unknown>) {
  await sql`drop table staff_audit`.execute(db);
  await sql`drop function staff_audit_append_only()`.execute(db);
  await db.schema.dropTable('staff_refresh_token').execute();
  await db.schema.dropTable('staff_session_family').execute();
  await db.schema.dropTable('staff_member').execute();
}
