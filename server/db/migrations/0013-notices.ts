import { sql, type Kysely } from 'kysely';

/**
 * A customer's notices (staff notices, and later the money and account modules'
 * notifications), and why and when the back office last prohibited or allowed a user's trading.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable('notice')
    .addColumn('id', 'serial', (column) => column.primaryKey())
    .addColumn('uid', 'integer', (column) => column.notNull().references('app_user.uid'))
    /** 0 unread, 1 read. */
    .addColumn('read_status', 'integer', (column) => column.notNull().defaultTo(0).check(sql`read_status in (0, 1)`))
    /** 4: a notice with a custom title and content (staff); other types carry a notification code. */
    .addColumn('action_type', 'integer', (column) => column.notNull())
    .addColumn('alarm_type', 'integer')
    .addColumn('title', 'text', (column) => column.notNull())
    .addColumn('content', 'text', (column) => column.notNull())
    .addColumn('remark', 'text')
    .addColumn('payment_price', 'numeric(38, 8)')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute();
  // The unread count and the newest-first list of one customer.
  await db.schema.createIndex('notice_user_read').on('notice').columns(['uid', 'read_status']).execute();
  await db.schema.createIndex('notice_user_newest').on('notice').columns(['uid', 'id']).execute();

  await db.schema.alterTable('app_user').addColumn('trade_prohibited_reason', 'text').execute();
  await db.schema.alterTable('app_user').addColumn('trade_prohibited_changed_at', 'timestamptz').execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.alterTable('app_user').dropColumn('trade_prohibited_changed_at').execute();
  await db.schema.alterTable('app_user').dropColumn('trade_prohibited_reason').execute();
  await db.schema.dropTable('notice').execute();
}
