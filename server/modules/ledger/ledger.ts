import { sql, type Kysely, type Transaction } from 'kysely';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { formatMoney, money, type Units } from '../../../src/shared/money/money';
import type { Book, Database } from '../../db/schema';
import { AppError } from '../../http/app-error';

/** A user's account (owner a uid) or the house's (owner null), in one book. */
export interface AccountRef {
  owner: number | null;
  book: Book;
  kind: string;
}

export interface Posting {
  account: AccountRef;
  /** Positive credits the account (its balance grows), negative debits it. */
  amount: Units;
}

export interface JournalInput {
  /** Posting twice with one key records once: the second call is a replay. */
  idempotencyKey: string;
  book: Book;
  kind: string;
  uid: number | null;
  reference?: string;
  postings: Posting[];
}

type Executor = Kysely<Database> | Transaction<Database>;

const checkViolation = '23514';

/** A journal must sum to zero and stay in its book; anything else is a bug, not bad input. */
function assertJournal(input: JournalInput) {
  const total = input.postings.reduce((sum, posting) => sum + posting.amount, 0n);
  if (total !== 0n) throw new Error(`unbalanced journal ${input.idempotencyKey}: ${formatMoney(total)}`);
  if (input.postings.some((posting) => posting.account.book !== input.book)) throw new Error(`journal ${input.idempotencyKey} mixes books`);
}

/**
 * The double-entry ledger: journals of entries that sum to zero, written with the
 * account balances they move in one transaction. User accounts never go below zero.
 */
export function createLedger(db: Kysely<Database>, nowMs: () => number = Date.now) {
  async function accountId(executor: Executor, ref: AccountRef): Promise<number> {
    const find = () => {
      const query = executor.selectFrom('ledger_account').select('id').where('book', '=', ref.book).where('kind', '=', ref.kind);
      return (ref.owner === null ? query.where('owner_uid', 'is', null) : query.where('owner_uid', '=', ref.owner)).executeTakeFirst();
    };
    const found = await find();
    if (found) return found.id;
    // Inside a transaction a failed insert would abort it: insert only what is missing.
    const inserted = await executor
      .insertInto('ledger_account')
      .values({ owner_uid: ref.owner, book: ref.book, kind: ref.kind })
      .onConflict((conflict) => conflict.doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted) return inserted.id;
    const again = await find();
    if (!again) throw new Error(`ledger account ${ref.book}/${ref.kind} could not be opened`);
    return again.id;
  }

  async function postWith(executor: Transaction<Database>, input: JournalInput): Promise<{ journalId: number; replayed: boolean }> {
    assertJournal(input);
    const journal = await executor
      .insertInto('ledger_journal')
      .values({ idempotency_key: input.idempotencyKey, book: input.book, kind: input.kind, uid: input.uid, reference: input.reference ?? null, created_at: new Date(nowMs()) })
      .onConflict((conflict) => conflict.column('idempotency_key').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!journal) {
      const existing = await executor.selectFrom('ledger_journal').select('id').where('idempotency_key', '=', input.idempotencyKey).executeTakeFirstOrThrow();
      return { journalId: existing.id, replayed: true };
    }
    const resolved = await Promise.all(input.postings.map(async (posting) => ({ id: await accountId(executor, posting.account), house: posting.account.owner === null, posting })));
    // One order of row locks for every money transaction, so that concurrent ones cannot
    // deadlock: user accounts first (id order), then the house's (id order).
    resolved.sort((a, b) => Number(a.house) - Number(b.house) || a.id - b.id);
    for (const { id, posting } of resolved) {
      if (posting.amount === 0n) continue;
      const amount = formatMoney(posting.amount, 0);
      await executor.insertInto('ledger_entry').values({ journal_id: journal.id, account_id: id, amount }).execute();
      await executor
        .updateTable('ledger_account')
        .set({ balance: sql<string>`balance + ${amount}::numeric` })
        .where('id', '=', id)
        .execute();
    }
    return { journalId: journal.id, replayed: false };
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
    journals: readonly JournalInput[],
    accountIdOf: (ref: AccountRef) => Promise<number> = (ref) => accountId(executor, ref),
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

  return {
    /** Posts one journal in its own transaction (or the caller's, with `inTransaction`). */
    async post(input: JournalInput): Promise<{ journalId: number; replayed: boolean }> {
      try {
        return await db.transaction().execute((trx) => postWith(trx, input));
      } catch (error) {
        if ((error as { code?: string }).code === checkViolation) throw new AppError(ErrorCode.INSUFFICIENT_BALANCE);
        throw error;
      }
    },
    /** Posts within a transaction the caller holds (an order and its margin together). */
    postInTransaction: postWith,
    /** Posts a batch of journals within the caller's transaction (settlement). */
    postManyInTransaction: postManyWith,
    accountId: (ref: AccountRef) => accountId(db, ref),
    /**
     * Locks every account a user holds in a book (id order) for the caller's transaction.
     * Every transaction that moves a user's money calls this first, before it touches
     * orders, options or the house's accounts: one lock order for all of them (no
     * deadlocks), and what it reads afterwards cannot change under it (no lost updates).
     * Answers the balances it locked, by kind.
     */
    async lockOwnerAccounts(executor: Transaction<Database>, uid: number, book: Book): Promise<Map<string, Units>> {
      const rows = await executor.selectFrom('ledger_account').select(['id', 'kind', 'balance']).where('owner_uid', '=', uid).where('book', '=', book).orderBy('id').forUpdate().execute();
      // What the lock read is exact until the transaction ends: callers decide on it without reading again.
      return new Map(rows.map((row) => [row.kind, money(String(row.balance))]));
    },
    /** Every account a user holds in a book, by kind (read inside the caller's lock to be exact). */
    async ownerBalances(executor: Executor, uid: number, book: Book): Promise<Map<string, Units>> {
      const rows = await executor.selectFrom('ledger_account').select(['kind', 'balance']).where('owner_uid', '=', uid).where('book', '=', book).execute();
      return new Map(rows.map((row) => [row.kind, money(String(row.balance))]));
    },
    /** One kind of account of many users in a book, in one read (users without one are absent). */
    async balancesOf(uids: readonly number[], book: Book, kind: string): Promise<Map<number, Units>> {
      if (uids.length === 0) return new Map();
      const rows = await db.selectFrom('ledger_account').select(['owner_uid', 'balance']).where(sql<boolean>`owner_uid = any(${[...uids]}::integer[])`).where('book', '=', book).where('kind', '=', kind).execute();
      return new Map(rows.map((row) => [Number(row.owner_uid), money(String(row.balance))]));
    },
    async balance(ref: AccountRef, executor: Executor = db): Promise<Units> {
      const query = executor.selectFrom('ledger_account').select('balance').where('book', '=', ref.book).where('kind', '=', ref.kind);
      const row = await (ref.owner === null ? query.where('owner_uid', 'is', null) : query.where('owner_uid', '=', ref.owner)).executeTakeFirst();
      return row ? money(String(row.balance)) : 0n;
    },
    /**
     * The ledger's own audit: every journal sums to zero and stays in its book, every
     * stored balance equals the sum of its entries, no user account is negative.
     */
    async check(): Promise<string[]> {
      const problems: string[] = [];
      const unbalanced = await sql<{ journal_id: number; total: string }>`
        select journal_id, sum(amount)::text as total from ledger_entry group by journal_id having sum(amount) <> 0`.execute(db);
      for (const row of unbalanced.rows) problems.push(`journal ${row.journal_id} sums to ${row.total}`);
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
    },
  };
}

export type Ledger = ReturnType<typeof createLedger>;
