import { sql, type Kysely } from 'kysely';

/**
 * Identity verification (full with three document images, junior without). One row per
 * customer and level is the lock every submission takes (`identity_verification`); each
 * submission is its own row, and the customer's status is their latest submission's
 * (none 0, pending 1, approved 2, rejected 3; a pending one replaced by a newer submission
 * is 'replaced'). The document number is sealed with the data key (`key_id` names it) and
 * kept masked beside it for staff; it is never stored in clear.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable('identity_verification')
    .addColumn('uid', 'integer', (column) => column.notNull().references('app_user.uid'))
    .addColumn('level', 'text', (column) => column.notNull().check(sql`level in ('full', 'junior')`))
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('identity_verification_pk', ['uid', 'level'])
    .execute();

  await db.schema
    .createTable('identity_submission')
    .addColumn('id', 'serial', (column) => column.primaryKey())
    .addColumn('uid', 'integer', (column) => column.notNull().references('app_user.uid'))
    .addColumn('level', 'text', (column) => column.notNull().check(sql`level in ('full', 'junior')`))
    .addColumn('status', 'text', (column) => column.notNull().defaultTo('pending').check(sql`status in ('pending', 'approved', 'rejected', 'replaced')`))
    .addColumn('real_name', 'text', (column) => column.notNull())
    .addColumn('id_type', 'integer', (column) => column.notNull().check(sql`id_type in (0, 1, 2)`))
    .addColumn('auth_email', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('id_card_sealed', 'text', (column) => column.notNull())
    .addColumn('id_card_masked', 'text', (column) => column.notNull())
    .addColumn('key_id', 'text', (column) => column.notNull())
    .addColumn('front_file_id', 'text', (column) => column.references('stored_file.id'))
    .addColumn('reverse_file_id', 'text', (column) => column.references('stored_file.id'))
    .addColumn('avatar_file_id', 'text', (column) => column.references('stored_file.id'))
    .addColumn('locale', 'text', (column) => column.notNull())
    .addColumn('failure_reason', 'text')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('decided_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('identity_submission_latest').on('identity_submission').columns(['uid', 'level', 'id']).execute();
}
