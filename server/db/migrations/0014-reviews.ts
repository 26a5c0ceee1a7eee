import { sql, type Kysely } from 'kysely';

/**
 * The staff review queues (../shared/API.md "Staff back office"): one item per thing a
 * module asks staff to decide (a deposit, a withdrawal, a loan, a repayment, an identity
 * check), every decision taken on it, and the files staff look at. The owning module keeps
 * its own row (subject_ref) and its effect runs when the item is decided.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable('review_item')
    .addColumn('id', 'serial', (column) => column.primaryKey())
    .addColumn('kind', 'text', (column) => column.notNull().check(sql`kind in ('deposit', 'withdrawal', 'loan', 'repayment', 'identity', 'juniorIdentity')`))
    .addColumn('status', 'text', (column) => column.notNull().defaultTo('pending').check(sql`status in ('pending', 'awaiting_second', 'approved', 'rejected')`))
    .addColumn('uid', 'integer', (column) => column.notNull().references('app_user.uid'))
    /** The owning module's row id (a deposit, a withdrawal…): one submission, one item. */
    .addColumn('subject_ref', 'text', (column) => column.notNull())
    /** What staff are shown, as label → display string. */
    .addColumn('facts', 'jsonb', (column) => column.notNull())
    /** The item's worth in USD where it has one (four-eyes compares it with FOUR_EYES_USD). */
    .addColumn('amount_usd', 'numeric(38, 8)')
    .addColumn('needs_two_approvals', 'boolean', (column) => column.notNull())
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('decided_at', 'timestamptz')
    .addCheckConstraint('review_item_decided_has_time', sql`(status in ('approved', 'rejected')) = (decided_at is not null)`)
    .execute();
  await db.schema.createIndex('review_item_subject').on('review_item').columns(['kind', 'subject_ref']).unique().execute();
  // The queue: a kind's items newest first, by status.
  await db.schema.createIndex('review_item_queue').on('review_item').columns(['kind', 'status', 'id']).execute();

  await db.schema
    .createTable('review_decision')
    .addColumn('id', 'serial', (column) => column.primaryKey())
    .addColumn('review_id', 'integer', (column) => column.notNull().references('review_item.id'))
    .addColumn('staff_id', 'integer', (column) => column.notNull().references('staff_member.id'))
    .addColumn('decision', 'text', (column) => column.notNull().check(sql`decision in ('approve', 'reject')`))
    .addColumn('reason', 'text')
    /** The console's id for one click: a replay answers the first decision's result. */
    .addColumn('request_id', 'text', (column) => column.notNull().unique())
    .addColumn('resulting_status', 'text', (column) => column.notNull())
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('review_decision_review').on('review_decision').columns(['review_id', 'id']).execute();

  await db.schema
    .createTable('review_file')
    .addColumn('review_id', 'integer', (column) => column.notNull().references('review_item.id'))
    /** The upload's id, served to staff at /v1/staff/file/{file_id}. */
    .addColumn('file_id', 'text', (column) => column.notNull())
    .addColumn('name', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('review_file_pk', ['review_id', 'file_id'])
    .execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.dropTable('review_file').execute();
  await db.schema.dropTable('review_decision').execute();
  await db.schema.dropTable('review_item').execute();
}
