import { sql, type Kysely } from 'kysely';

/**
 * Money controls (issue 31):
 * - `withdrawal_one_pending`: a customer has at most one withdrawal awaiting review. The
 *   unique partial index is the rule itself: of parallel submissions, the statement that
 *   places the second one fails, whatever the service read before.
 * - `withdrawal_limit`: per verification level (none, junior, full), the daily and monthly
 *   withdrawal limits and the largest single deposit, in USD; seeded with the defaults.
 * - `app_user.security_changed_at`: when the password, the second factor or the e-mail last
 *   changed; withdrawals are held for a cooling-off period after it.
 */
export async function up(db: Kysely<unknown>) {
  await sql`create unique index withdrawal_one_pending on withdrawal (uid) where status = 'pending'`.execute(db);

  await db.schema
    .createTable('withdrawal_limit')
    .addColumn('level', 'text', (column) => column.primaryKey().check(sql`level in ('none', 'junior', 'full')`))
    .addColumn('daily_withdraw_usd', 'numeric(38, 8)', (column) => column.notNull().check(sql`daily_withdraw_usd >= 0`))
    .addColumn('monthly_withdraw_usd', 'numeric(38, 8)', (column) => column.notNull().check(sql`monthly_withdraw_usd >= 0`))
    .addColumn('deposit_max_usd', 'numeric(38, 8)', (column) => column.notNull().check(sql`deposit_max_usd >= 0`))
    .addColumn('updated_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('withdrawal_limit_month_covers_day', sql`monthly_withdraw_usd >= daily_withdraw_usd`)
    .execute();
  // The defaults of src/shared/money/withdrawal-limits.ts (defaultLevelLimits).
  await sql`
    insert into withdrawal_limit (level, daily_withdraw_usd, monthly_withdraw_usd, deposit_max_usd) values
      ('none', 1000, 5000, 10000),
      ('junior', 10000, 50000, 100000),
      ('full', 100000, 1000000, 1000000)`.execute(db);

  await db.schema.alterTable('app_user').addColumn('security_changed_at', 'timestamptz').execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.alterTable('app_user').dropColumn('security_changed_at').execute();
  await db.schema.dropTable('withdrawal_limit').execute();
  await sql`drop index withdrawal_one_pending`.execute(db);
}
