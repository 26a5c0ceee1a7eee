import { sql, type Compilable, type Kysely, type OperationNodeSource, type RawBuilder, type Transaction } from 'kysely';
import { formatMoney } from '../../../src/shared/money/money';
import type { Database } from '../../db/schema';
import { currencyOf, type AccountRef, type AnyJournal } from './ledger-journals';

export type Executor = Kysely<Database> | Transaction<Database>;

/** A write built with the caller's query builder (an insert … returning), run inside a journal's statement. */
export type AlongsideWrite<Row> = Compilable<Row> & OperationNodeSource;

/** A journal must sum to zero in each currency and stay in its book; anything else is a bug, not bad input. */
function assertJournal(input: AnyJournal) {
  const totals = new Map<string, bigint>();
  for (const posting of input.postings) totals.set(currencyOf(posting.account), (totals.get(currencyOf(posting.account)) ?? 0n) + posting.amount);
  for (const [currency, total] of totals) if (total !== 0n) throw new Error(`unbalanced journal ${input.idempotencyKey}: ${formatMoney(total)} ${currency}`);
  if (input.postings.some((posting) => posting.account.book !== input.book)) throw new Error(`journal ${input.idempotencyKey} mixes books`);
}

/** The one order accounts are opened in: users' accounts first (by owner), then the house's, each by book, kind and currency. */
function openingOrder(a: AccountRef<string>, b: AccountRef<string>): number {
  const rank = (ref: AccountRef<string>) => [ref.owner === null ? 1 : 0, ref.owner ?? 0, ref.book, ref.kind, currencyOf(ref)] as const;
  const [x, y] = [rank(a), rank(b)];
  for (let i = 0; i < x.length; i += 1) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  return 0;
}

/**
 * The posting engine of the double-entry ledger: journals of entries that sum to zero,
 * written with the account balances they move in one transaction. User accounts never go
 * below zero (the database's check). Only the ledger calls it.
 */
/** Account ids cached at most: beyond it the cache starts again (a miss costs one read). */
const knownAccountsCap = 100_000;

export function createPostingEngine(db: Kysely<Database>, nowMs: () => number) {
  /**
   * Ids of accounts known to be committed, by owner, book, kind and currency: accounts are
   * never deleted, so a posting names its accounts without reading them again.
   */
  const knownIds = new Map<string, number>();
  /** Accounts a transaction opened itself: not known until it commits (it may roll back). */
  const openedIn = new WeakMap<Executor, Set<string>>();
  const keyOf = (ref: AccountRef<string>) => `${ref.owner ?? ''}|${ref.book}|${ref.kind}|${currencyOf(ref)}`;

  async function accountId(executor: Executor, ref: AccountRef<string>): Promise<number> {
    const key = keyOf(ref);
    const known = knownIds.get(key);
    if (known !== undefined) return known;
    const find = () => {
      const query = executor.selectFrom('ledger_account').select('id').where('book', '=', ref.book).where('kind', '=', ref.kind).where('currency', '=', currencyOf(ref));
      return (ref.owner === null ? query.where('owner_uid', 'is', null) : query.where('owner_uid', '=', ref.owner)).executeTakeFirst();
    };
    const found = await find();
    if (found) {
      // Read committed sees only committed rows and this transaction's own: those it opened are not known yet.
      if (!openedIn.get(executor)?.has(key)) {
        if (knownIds.size >= knownAccountsCap) knownIds.clear();
        knownIds.set(key, found.id);
      }
      return found.id;
    }
    // Inside a transaction a failed insert would abort it: insert only what is missing.
    const inserted = await executor
      .insertInto('ledger_account')
      .values({ owner_uid: ref.owner, book: ref.book, kind: ref.kind, currency: currencyOf(ref) })
      .onConflict((conflict) => conflict.doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted) {
      // Outside a transaction the insert has committed; inside one it is known once it commits.
      if (executor.isTransaction) openedIn.set(executor, (openedIn.get(executor) ?? new Set()).add(key));
      else knownIds.set(key, inserted.id);
      return inserted.id;
    }
    const again = await find();
    if (!again) throw new Error(`ledger account ${ref.book}/${ref.kind}/${currencyOf(ref)} could not be opened`);
    return again.id;
  }

  /**
   * A journal's statement up to its final select: the journal (its key recorded once), its
   * entries and the balances they move, as common table expressions (`journal` answers the
   * new journal's id, none when the key was recorded before).
   */
  async function journalExpressions(executor: Transaction<Database>, input: AnyJournal): Promise<RawBuilder<unknown>> {
    assertJournal(input);
    // Accounts are opened one at a time in the one opening order (users' first, then the
    // house's, by book, kind and currency): a new account's insert waits for any other
    // transaction opening it, so two journals opening the same new accounts in different
    // orders (a first transfer in and out of a currency) would wait on each other crosswise.
    const resolved: { id: number; house: boolean; posting: AnyJournal['postings'][number] }[] = [];
    for (const posting of [...input.postings].sort((a, b) => openingOrder(a.account, b.account))) {
      resolved.push({ id: await accountId(executor, posting.account), house: posting.account.owner === null, posting });
    }
    // The caller holds the user's accounts (lockOwnerAccounts); the rows are written users
    // first, then the house's, each in id order: the one order of every money transaction.
    resolved.sort((a, b) => Number(a.house) - Number(b.house) || a.id - b.id);
    const moves = resolved.filter(({ posting }) => posting.amount !== 0n);
    return sql`
      with journal as (
        insert into ledger_journal (idempotency_key, book, kind, uid, reference, created_at)
        values (${input.idempotencyKey}, ${input.book}, ${input.kind}, ${input.uid}, ${input.reference ?? null}, ${new Date(nowMs())}::timestamptz)
        on conflict (idempotency_key) do nothing
        returning id
      ), moves as (
        select * from unnest(${moves.map(({ id }) => id)}::integer[], ${moves.map(({ posting }) => formatMoney(posting.amount, 0))}::numeric[]) with ordinality as m(account_id, amount, n)
      ), entries as (
        insert into ledger_entry (journal_id, account_id, amount)
        select journal.id, moves.account_id, moves.amount from journal, moves order by moves.n
      ), balances as (
        update ledger_account as a set balance = a.balance + d.amount
        from journal, (select account_id, sum(amount) as amount from moves group by account_id) as d
        where a.id = d.account_id
      )`;
  }

  /**
   * One journal in the caller's transaction, in one statement once its accounts are known:
   * the journal (its key recorded once), its entries and the balances they move. A replayed
   * key posts nothing and answers the journal recorded before. A user account that would go
   * below zero fails the statement (the database's check), and the caller's transaction with it.
   */
  async function postWith(executor: Transaction<Database>, input: AnyJournal): Promise<{ journalId: number; replayed: boolean }> {
    const { rows } = await sql<{ id: number; replayed: boolean }>`
      ${await journalExpressions(executor, input)}
      select id, false as replayed from journal
      union all
      select id, true as replayed from ledger_journal where idempotency_key = ${input.idempotencyKey}`.execute(executor);
    const row = rows[0];
    if (row) return { journalId: Number(row.id), replayed: row.replayed };
    // The same key committed by another transaction after this statement's snapshot: recorded once, by it.
    const existing = await executor.selectFrom('ledger_journal').select('id').where('idempotency_key', '=', input.idempotencyKey).executeTakeFirstOrThrow();
    return { journalId: existing.id, replayed: true };
  }

  /**
   * A journal and one write of the caller's (an order's insert or update, built but not run)
   * in one statement: the journal posts as `postWith` posts it, and the write's one row is
   * answered. Data-modifying expressions of one statement all run, and fail together: an
   * account that would go below zero or a duplicate row fails both. The key must be new (an
   * order's own number) and the write must change exactly one row; anything else is a bug
   * and fails the caller's transaction, so no row is kept without its money nor money
   * without its row.
   */
  async function postAlongside<Row>(executor: Transaction<Database>, input: AnyJournal, write: AlongsideWrite<Row>): Promise<Row> {
    const { rows } = await sql<Row & { journal_posted: number }>`
      ${await journalExpressions(executor, input)}, alongside as (${write})
      select alongside.*, (select count(*) from journal)::integer as journal_posted from alongside`.execute(executor);
    const [row, ...more] = rows;
    if (row === undefined || more.length > 0) throw new Error(`journal ${input.idempotencyKey}: its write changed ${rows.length} rows, not 1; nothing is kept`);
    const { journal_posted: posted, ...written } = row;
    if (posted !== 1) throw new Error(`journal ${input.idempotencyKey} was recorded before: its write is not kept`);
    return written as Row;
  }

  /**
   * Many journals in the caller's transaction in three statements (journals, entries,
   * balances) where `postWith` spends about ten per journal: option settlement posts
   * thousands in one second. Same rules: each journal balanced and in its book, a key
   * recorded once (a replayed key posts nothing), balances moved with their entries, user
   * accounts never below zero (the database's check). The caller locks the accounts it
   * moves in id order first. `accountIdOf` may cache ids (accounts are never deleted).
   * Answers how many journals were new.
   */
  async function postManyWith(
    executor: Transaction<Database>,
    journals: readonly AnyJournal[],
    accountIdOf: (ref: AccountRef<string>) => Promise<number> = (ref) => accountId(executor, ref),
  ): Promise<number> {
    if (journals.length === 0) return 0;
    journals.forEach(assertJournal);
    const createdAt = new Date(nowMs());
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
      returning id, idempotency_key`.execute(executor);
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
        const id = await accountIdOf(posting.account);
        entryJournals.push(journalId);
        entryAccounts.push(id);
        entryAmounts.push(formatMoney(posting.amount, 0));
        deltas.set(id, (deltas.get(id) ?? 0n) + posting.amount);
      }
    }
    if (entryJournals.length === 0) return journalIds.size;
    await sql`
      insert into ledger_entry (journal_id, account_id, amount)
      select * from unnest(${entryJournals}::integer[], ${entryAccounts}::integer[], ${entryAmounts}::numeric[])`.execute(executor);
    const accounts = [...deltas.keys()].sort((a, b) => a - b);
    await sql`
      update ledger_account as a set balance = a.balance + d.delta
      from unnest(${accounts}::integer[], ${accounts.map((id) => formatMoney(deltas.get(id) ?? 0n, 0))}::numeric[]) as d(id, delta)
      where a.id = d.id`.execute(executor);
    return journalIds.size;
  }

  return { accountId, postWith, postAlongside, postManyWith };
}
