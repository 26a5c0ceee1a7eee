import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/**
 * The ledger's own audit: every journal sums to zero in each currency and stays in its book, every stored
 * balance equals the sum of its entries, no user account is negative. One line per problem.
 */
export async function auditLedger(db: Kysely<Database>): Promise<string[]> {
  const problems: string[] = [];
  // Each currency of a journal sums to zero on its own (a transfer moves two currencies).
  const unbalanced = await sql<{ journal_id: number; currency: string; total: string }>`
    select e.journal_id, a.currency, sum(e.amount)::text as total
    from ledger_entry e join ledger_account a on a.id = e.account_id
    group by e.journal_id, a.currency having sum(e.amount) <> 0`.execute(db);
  for (const row of unbalanced.rows) problems.push(`journal ${row.journal_id} sums to ${row.total} ${row.currency}`);
  const mixed = await sql<{ journal_id: number }>`
    select distinct e.journal_id from ledger_entry e
    join ledger_account a on a.id = e.account_id join ledger_journal j on j.id = e.journal_id
    where a.book <> j.book`.execute(db);
  for (const row of mixed.rows) problems.push(`journal ${row.journal_id} mixes books`);
  const drift = await sql<{ id: number; balance: string; total: string }>`
    select a.id, a.balance::text as balance, coalesce(sum(e.amount), 0)::text as total
    from ledger_account a left join ledger_entry e on e.account_id = a.id
    group by a.id, a.balance having a.balance <> coalesce(sum(e.amount), 0)`.execute(db);
  for (const row of drift.rows) problems.push(`account ${row.id} holds ${row.balance} but its entries sum to ${row.total}`);
  const negative = await sql<{ id: number; balance: string }>`
    select id, balance::text as balance from ledger_account where owner_uid is not null and balance < 0`.execute(db);
  for (const row of negative.rows) problems.push(`user account ${row.id} is negative: ${row.balance}`);
  return problems;
}
