import { sql, type Kysely } from 'kysely';

/** Users, one-time codes, image captchas and refresh-token families. */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable('app_user')
    .addColumn('uid', 'serial', (column) => column.primaryKey())
    .addColumn('email', 'text', (column) => column.unique())
    .addColumn('phone', 'text', (column) => column.unique())
    .addColumn('register_type', 'text', (column) => column.notNull())
    .addColumn('password_hash', 'text', (column) => column.notNull())
    .addColumn('nick', 'text', (column) => column.notNull())
    .addColumn('invite_code', 'text', (column) => column.notNull().unique())
    .addColumn('invited_by', 'integer', (column) => column.references('app_user.uid'))
    .addColumn('locale', 'text', (column) => column.notNull().defaultTo('en'))
    .addColumn('blocked', 'boolean', (column) => column.notNull().defaultTo(false))
    /** The TOTP secret, encrypted at rest (AES-256-GCM with the server's data key). */
    .addColumn('totp_secret', 'text')
    .addColumn('totp_enabled', 'boolean', (column) => column.notNull().defaultTo(false))
    /** When the user first switched to the demo account (virtual trading used). */
    .addColumn('virtual_used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('verification_code')
    .addColumn('id', 'serial', (column) => column.primaryKey())
    /** The e-mail address or the phone digits. */
    .addColumn('destination', 'text', (column) => column.notNull())
    .addColumn('purpose', 'integer', (column) => column.notNull())
    .addColumn('code_hash', 'text', (column) => column.notNull())
    .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('expires_at', 'timestamptz', (column) => column.notNull())
    .addColumn('consumed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('verification_code_destination').on('verification_code').columns(['destination', 'purpose', 'created_at']).execute();

  await db.schema
    .createTable('image_captcha')
    .addColumn('uuid', 'text', (column) => column.primaryKey())
    .addColumn('answer_hash', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'timestamptz', (column) => column.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('session_family')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('uid', 'integer', (column) => column.notNull().references('app_user.uid'))
    .addColumn('created_at', 'timestamptz', (column) => column.notNull())
    /** Set when the session ends server-side: logout, reset, reuse of a spent refresh token. */
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('revoked_reason', 'text')
    .execute();
  await db.schema.createIndex('session_family_uid').on('session_family').column('uid').execute();

  await db.schema
    .createTable('refresh_token')
    .addColumn('token_hash', 'text', (column) => column.primaryKey())
    .addColumn('family_id', 'text', (column) => column.notNull().references('session_family.id'))
    /** 0 real, 1 demo: the account the tokens it mints are for. */
    .addColumn('virtual_status', 'integer', (column) => column.notNull())
    .addColumn('expires_at', 'timestamptz', (column) => column.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('refresh_token_family').on('refresh_token').column('family_id').execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.dropTable('refresh_token').execute();
  await db.schema.dropTable('session_family').execute();
  await db.schema.dropTable('image_captcha').execute();
  await db.schema.dropTable('verification_code').execute();
  await db.schema.dropTable('app_user').execute();
}
