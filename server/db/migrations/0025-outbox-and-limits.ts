import { sql, type Kysely } from 'kysely';

/**
 * Mail and SMS through a transactional outbox (`outbox_message`: written by the request,
 * delivered by whichever process claims it first); the rate limits (`rate_limit`) and the
 * open sockets per address and per user (`open_connection`) in the database, so that every
 * server process counts against the same windows and places.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable('outbox_message')
    .addColumn('id', 'bigserial', (column) => column.primaryKey())
    .addColumn('channel', 'text', (column) => column.notNull().check(sql`channel in ('email', 'sms')`))
    /** The recipient, subject and text sealed with the data key (they may hold a code); null once sent. */
    .addColumn('sealed', 'text')
    .addColumn('key_id', 'text', (column) => column.notNull())
    /** pending: waits for its first try; sending: claimed until claimed_until; failed: waits for its next try; sent. */
    .addColumn('status', 'text', (column) => column.notNull().defaultTo('pending').check(sql`status in ('pending', 'sending', 'failed', 'sent')`))
    .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
    /** Why the last try failed (the transport's words, never the message). */
    .addColumn('last_error', 'text')
    .addColumn('next_attempt_at', 'timestamptz', (column) => column.notNull())
    .addColumn('claimed_until', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull())
    .addColumn('sent_at', 'timestamptz')
    .execute();
  // What the sender claims: due messages, oldest first.
  await db.schema.createIndex('outbox_message_due').on('outbox_message').columns(['next_attempt_at', 'id']).where(sql.ref('status'), '<>', 'sent').execute();
  // Sent rows past their keeping time, deleted hourly.
  await db.schema.createIndex('outbox_message_sent').on('outbox_message').column('sent_at').where(sql.ref('status'), '=', 'sent').execute();

  await db.schema
    .createTable('rate_limit')
    /** A keyed hash of the limit's name and what it counts (an address, an account), never the value itself. */
    .addColumn('key', 'text', (column) => column.primaryKey())
    .addColumn('window_start', 'timestamptz', (column) => column.notNull())
    .addColumn('hits', 'integer', (column) => column.notNull())
    /** The window's end: rows past it are forgotten. */
    .addColumn('expires_at', 'timestamptz', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('rate_limit_expiry').on('rate_limit').column('expires_at').execute();

  await db.schema
    .createTable('open_connection')
    .addColumn('id', 'text', (column) => column.primaryKey())
    /** A keyed hash of the limit's scope and what it counts (an address, a user). */
    .addColumn('key', 'text', (column) => column.notNull())
    /** The server process holding the socket; it renews the lease while it lives. */
    .addColumn('holder', 'text', (column) => column.notNull())
    .addColumn('lease_until', 'timestamptz', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('open_connection_key').on('open_connection').columns(['key', 'lease_until']).execute();
  await db.schema.createIndex('open_connection_holder').on('open_connection').column('holder').execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.dropTable('open_connection').execute();
  await db.schema.dropTable('rate_limit').execute();
  await db.schema.dropTable('outbox_message').execute();
}
