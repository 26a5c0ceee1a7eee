import { sql, type Kysely } from 'kysely';

/**
 * Loans and their repayments (issue 17). A loan is asked for with a guarantor (another
 * customer), decided by two finance staff (the 'loan' review kind, four-eyes always) and,
 * once approved, credited to the real trading cash from the house's `loans` account; each
 * repayment is decided by finance (the 'repayment' kind) and moves cash back. `owed` is
 * what is still to repay. At most one open loan per customer (waiting or active) and one
 * waiting repayment per loan: unique partial indexes, so parallel requests cannot pass both.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable('loan')
    .addColumn('id', 'serial', (column) => column.primaryKey())
    .addColumn('uid', 'integer', (column) => column.notNull().references('app_user.uid'))
    .addColumn('amount', 'numeric(38, 8)', (column) => column.notNull().check(sql`amount > 0`))
    .addColumn('days', 'integer', (column) => column.notNull().check(sql`days > 0`))
    .addColumn('guarantor_uid', 'integer', (column) => column.notNull().references('app_user.uid'))
    .addColumn('remark', 'text', (column) => column.notNull())
    /** 0 waiting for review, 1 active, 2 rejected, 100 repaid (ended). */
    .addColumn('status', 'smallint', (column) => column.notNull().defaultTo(0))
    .addColumn('owed', 'numeric(38, 8)', (column) => column.notNull().check(sql`owed >= 0`))
    .addColumn('reject_reason', 'text')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('approved_at', 'timestamptz')
    /** approved_at + days: when the loan is due. */
    .addColumn('repayment_date', 'timestamptz')
    .addColumn('decided_at', 'timestamptz')
    .addColumn('ended_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('loan_owner').on('loan').columns(['uid', 'id']).execute();
  await sql`create unique index loan_one_open on loan (uid) where status in (0, 1)`.execute(db);

  await db.schema
    .createTable('loan_repayment')
    .addColumn('id', 'serial', (column) => column.primaryKey())
    .addColumn('loan_id', 'integer', (column) => column.notNull().references('loan.id'))
    .addColumn('uid', 'integer', (column) => column.notNull().references('app_user.uid'))
    .addColumn('amount', 'numeric(38, 8)', (column) => column.notNull().check(sql`amount > 0`))
    /** What the loan still owes once this repayment is approved. */
    .addColumn('amount_owed', 'numeric(38, 8)', (column) => column.notNull().check(sql`amount_owed >= 0`))
    /** 0 waiting for review, 1 approved, 2 rejected. */
    .addColumn('status', 'smallint', (column) => column.notNull().defaultTo(0))
    .addColumn('reject_reason', 'text')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('decided_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('loan_repayment_loan').on('loan_repayment').columns(['loan_id', 'id']).execute();
  await sql`create unique index loan_repayment_one_waiting on loan_repayment (loan_id) where status = 0`.execute(db);
}

export async function down(db: Kysely<unknown>) {
  await db.schema.dropTable('loan_repayment').execute();
  await db.schema.dropTable('loan').execute();
}
