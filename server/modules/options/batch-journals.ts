import { sql, type Transaction } from 'kysely';
import { formatMoney } from '../../../src/shared/money/money';
import type { Database } from '../../db/schema';
import type { AccountRef, JournalInput } from '../ledger/ledger';

/**
 * Many journals in one transaction in three statements (journals, entries, balances),
 * where the ledger's `postInTransaction` spends about ten per journal: settlement posts
 * thousands of journals in the same second. The ledger's rules hold unchanged: each
 * journal sums to zero and stays in its book, its idempotency key records it once (a
 * replayed key posts nothing), balances move with their entries in the caller's
 * transaction, and user accounts never go below zero (the database's check). The caller
 * locks the accounts in id order first. It belongs beside `postInTransaction` in
 * ledger.ts as a `postMany`; it lives here only because that module was outside this change.
 */
export async function postJournals(
  trx: Transaction<Database>,
  journals: readonly JournalInput[],
  accountIdOf: (ref: AccountRef) => Promise<number>,
  createdAt: Date,
): Promise<number> {
  if (journals.length === 0) return 0;
  for (const journal of journals) {
    const total = journal.postings.reduce((sum, posting) => sum + posting.amount, 0n);
    if (total !== 0n) throw new Error(`unbalanced journal ${journal.idempotencyKey}: ${formatMoney(total)}`);
    if (journal.postings.some((posting) => posting.account.book !== journal.book)) throw new Error(`journal ${journal.idempotencyKey} mixes books`);
  }
  const inserted = await sql<{ id: number; idempotency_key: string }>`
    insert into ledger_journal (idempotency_key, book, kind, uid, reference, created_at)
    select key, book, kind, uid, reference, ${createdAt}::timestamptz
    from unnest(
      ${journals.map((journal) => journal.idempotencyKey)}::text[],
      ${journals.map((journal) => journal.book)}::text[],
      ${journals.map((journal) => journal.kind)}::text[],
      ${journals.map((journal) => journal.uid)}::integer[],
      ${journals.map((journal) => journal.reference ?? null)}::text[]
    ) as j(key, book, kind, uid, reference)
    on conflict (idempotency_key) do nothing
    returning id, idempotency_key`.execute(trx);
  const journalIds = new Map(inserted.rows.map((row) => [row.idempotency_key, Number(row.id)]));

  const entryJournals: number[] = [];
  const entryAccounts: number[] = [];
  const entryAmounts: string[] = [];
  const deltas = new Map<number, bigint>();
  for (const journal of journals) {
    const journalId = journalIds.get(journal.idempotencyKey);
    if (journalId === undefined) continue; // recorded before: a replay posts nothing
    for (const posting of journal.postings) {
      if (posting.amount === 0n) continue;
      const accountId = await accountIdOf(posting.account);
      entryJournals.push(journalId);
      entryAccounts.push(accountId);
      entryAmounts.push(formatMoney(posting.amount, 0));
      deltas.set(accountId, (deltas.get(accountId) ?? 0n) + posting.amount);
    }
  }
  if (entryJournals.length === 0) return journalIds.size;
  await sql`
    insert into ledger_entry (journal_id, account_id, amount)
    select * from unnest(${entryJournals}::integer[], ${entryAccounts}::integer[], ${entryAmounts}::numeric[])`.execute(trx);
  const accounts = [...deltas.keys()].sort((a, b) => a - b);
  await sql`
    update ledger_account as a set balance = a.balance + d.delta
    from unnest(${accounts}::integer[], ${accounts.map((id) => formatMoney(deltas.get(id) ?? 0n, 0))}::numeric[]) as d(id, delta)
    where a.id = d.id`.execute(trx);
  return journalIds.size;
}
