import crypto from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { money, parseMoney, type Units } from '../../../src/shared/money/money';
import type { Book, Database } from '../../db/schema';
import { isCheckViolation } from '../../db/database-errors';
import { AppError } from '../../http/app-error';
import { auditLedger } from './ledger-audit';
import { withdrawalHoldJournal, withdrawalPayJournal, withdrawalReleaseJournal, type HeldWithdrawal } from './withdrawal-journals';
import {
  demoFundedJournal,
  currencyOf,
  demoResetJournal,
  depositJournal,
  loanDisbursedJournal,
  loanRepaidJournal,
  feeChargedJournal,
  marginAdjustedJournal,
  marginLockedJournal,
  optionEscrowedJournal,
  orderEndedJournal,
  overnightChargedJournal,
  type AccountRef,
  type AnyJournal,
  type JournalInput,
  type OrderRef,
  transferInJournal,
  transferOutJournal,
  walletDepositJournal,
  type WalletTransfer,
} from './ledger-journals';
import { baseCurrency, JournalKeyPrefix, JournalKind, UserAccountKind } from './ledger-kinds';
import { createPostingEngine, type AlongsideWrite, type Executor } from './ledger-posting';

export type { AccountRef, JournalInput, Posting, WalletTransfer } from './ledger-journals';

/** The wallet records' type filter: 0 transfers in, 1 transfers out, 2 every other wallet movement. */
export type WalletLineType = 0 | 1 | 2;

/** The trading balances of one account in one book: available cash and locked margin. */
export interface TradingBalances {
  cash: Units;
  margin: Units;
  /** The amounts of running options: the user's money, locked until settlement. */
  optionEscrow: Units;
}

/**
 * The double-entry ledger and its verbs: other modules move money only by these
 * (`lockMarginPlacing`, `chargeFee`, `settlePositionClosing`, `escrowOption`, …), each
 * posting one journal of the ledger's vocabulary (ledger-kinds.ts, ledger-journals.ts), and
 * read balances only by its reads. Nothing else reads or locks the ledger's tables. A verb
 * named `…Placing` or `…Closing` also runs the caller's own write (an order's insert or
 * update, built but not run) in the journal's statement: one round trip for both.
 */
export function createLedger(db: Kysely<Database>, nowMs: () => number = Date.now) {
  const engine = createPostingEngine(db, nowMs);
  /** Posts one journal in its own transaction; a user account that would go below zero refuses it (203). */
  async function post(input: AnyJournal): Promise<{ journalId: number; replayed: boolean }> {
    try {
      return await db.transaction().execute((trx) => engine.postWith(trx, input));
    } catch (error) {
      if (isCheckViolation(error)) throw new AppError(ErrorCode.INSUFFICIENT_BALANCE);
      throw error;
    }
  }

  // The trading accounts by kind: those in USD (a wallet's currencies are read by walletBalances).
  const balancesByKind = (rows: readonly { kind: string; currency: string; balance: string }[]) =>
    // Only the ledger's verbs open user accounts, so every kind read back is one of them.
    new Map(rows.filter((row) => row.currency === baseCurrency).map((row) => [row.kind as UserAccountKind, money(String(row.balance))]));

  /**
   * Locks every account a user holds in a book (id order) for the caller's transaction.
   * Every transaction that moves a user's money calls this first, before it touches
   * orders, options or the house's accounts: one lock order for all of them (no
   * deadlocks), and what it reads afterwards cannot change under it (no lost updates).
   * Answers the balances it locked, by kind.
   */
  async function lockOwnerAccounts(trx: Transaction<Database>, uid: number, book: Book): Promise<Map<UserAccountKind, Units>> {
    const rows = await trx.selectFrom('ledger_account').select(['id', 'kind', 'currency', 'balance']).where('owner_uid', '=', uid).where('book', '=', book).orderBy('id').forUpdate().execute();
    // What the lock read is exact until the transaction ends: callers decide on it without reading again.
    return balancesByKind(rows);
  }

  async function ownerBalances(executor: Executor, uid: number, book: Book): Promise<Map<UserAccountKind, Units>> {
    return balancesByKind(await executor.selectFrom('ledger_account').select(['kind', 'currency', 'balance']).where('owner_uid', '=', uid).where('book', '=', book).execute());
  }

  async function balance(ref: AccountRef<string>, executor: Executor = db): Promise<Units> {
    const query = executor.selectFrom('ledger_account').select('balance').where('book', '=', ref.book).where('kind', '=', ref.kind).where('currency', '=', currencyOf(ref));
    const row = await (ref.owner === null ? query.where('owner_uid', 'is', null) : query.where('owner_uid', '=', ref.owner)).executeTakeFirst();
    return row ? money(String(row.balance)) : 0n;
  }

  /** The wallet journals a record type shows: 0 transfers in, 1 transfers out, 2 the rest (deposits, withdrawals). */
  const walletRecordKinds = (type: WalletLineType | undefined): { only: boolean; kinds: JournalKind[] } | null => {
    if (type === undefined) return null;
    if (type === 0) return { only: true, kinds: [JournalKind.transferIn] };
    if (type === 1) return { only: true, kinds: [JournalKind.transferOut] };
    return { only: false, kinds: [JournalKind.transferIn, JournalKind.transferOut] };
  };

  /**
   * A wallet verb's journal in the caller's transaction: an account that would go below
   * zero refuses it (203), and the caller's transaction rolls back with it. The balance
   * check is the write itself (the database's non-negative check), so parallel calls can
   * never overdraw.
   */
  /** What a withdrawal's hold journal moved: whose, which currency, how much (a missing hold is a caller's bug). */
  async function heldWithdrawal(executor: Executor, holdKey: string): Promise<HeldWithdrawal> {
    const row = await executor
      .selectFrom('ledger_journal')
      .innerJoin('ledger_entry', 'ledger_entry.journal_id', 'ledger_journal.id')
      .innerJoin('ledger_account', 'ledger_account.id', 'ledger_entry.account_id')
      .select(['ledger_journal.uid', 'ledger_account.currency', 'ledger_entry.amount'])
      .where('ledger_journal.idempotency_key', '=', holdKey)
      .where('ledger_journal.kind', '=', JournalKind.withdrawalHold)
      .where('ledger_account.kind', '=', UserAccountKind.withdrawalHold)
      .executeTakeFirst();
    if (!row || row.uid === null) throw new Error(`no withdrawal hold ${holdKey}`);
    return { uid: row.uid, currency: row.currency, amount: money(String(row.amount)) };
  }

  async function postWallet(trx: Transaction<Database>, journal: AnyJournal): Promise<{ replayed: boolean }> {
    try {
      return { replayed: (await engine.postWith(trx, journal)).replayed };
    } catch (error) {
      if (isCheckViolation(error)) throw new AppError(ErrorCode.INSUFFICIENT_BALANCE);
      throw error;
    }
  }

  return {
    // The posting engine, open to any kind: the verbs below use it, and tests' fixtures post their own journals.
    post,
    /** Posts within a transaction the caller holds. */
    postInTransaction: (trx: Transaction<Database>, input: AnyJournal) => engine.postWith(trx, input),
    /**
     * Many journals in the caller's transaction in three statements (option settlement
     * posts thousands in one second); the caller locks the accounts they move first.
     * Answers how many journals were new (a replayed key posts nothing).
     */
    postManyInTransaction: (trx: Transaction<Database>, journals: readonly AnyJournal[], accountIdOf?: (ref: AccountRef<string>) => Promise<number>) =>
      engine.postManyWith(trx, journals, accountIdOf),
    accountId: (ref: AccountRef<string>) => engine.accountId(db, ref),
    check: () => auditLedger(db),

    // Reads.
    lockOwnerAccounts,
    /** Locks the user's accounts in a book (see lockOwnerAccounts) and answers the cash. */
    async lockCash(trx: Transaction<Database>, uid: number, book: Book): Promise<Units> {
      return (await lockOwnerAccounts(trx, uid, book)).get(UserAccountKind.cash) ?? 0n;
    },
    /** Every account a user holds in a book, by kind (read inside the caller's lock to be exact). */
    ownerBalances,
    balance,
    cashBalance: (uid: number, book: Book, executor: Executor = db) => balance({ owner: uid, book, kind: UserAccountKind.cash }, executor),
    /** Cash and margin of an account (what `user/balance` and the feed's account message answer). */
    async tradingBalances(uid: number, book: Book): Promise<TradingBalances> {
      const [cash, margin, optionEscrow] = await Promise.all([
        balance({ owner: uid, book, kind: UserAccountKind.cash }),
        balance({ owner: uid, book, kind: UserAccountKind.margin }),
        balance({ owner: uid, book, kind: UserAccountKind.optionEscrow }),
      ]);
      return { cash, margin, optionEscrow };
    },
    /** The cash of many users in a book, in one read (users without an account are absent). */
    async cashOf(uids: readonly number[], book: Book): Promise<Map<number, Units>> {
      if (uids.length === 0) return new Map();
      const rows = await db
        .selectFrom('ledger_account')
        .select(['owner_uid', 'balance'])
        .where(sql<boolean>`owner_uid = any(${[...uids]}::integer[])`)
        .where('book', '=', book)
        .where('kind', '=', UserAccountKind.cash)
        .where('currency', '=', baseCurrency)
        .execute();
      return new Map(rows.map((row) => [Number(row.owner_uid), money(String(row.balance))]));
    },
    /** What a user's accounts in a book received by journals of one kind, in total (deposits: the forex minimum). */
    async totalByJournalKind(uid: number, book: Book, kind: JournalKind): Promise<Units> {
      const row = await db
        .selectFrom('ledger_entry')
        .innerJoin('ledger_journal', 'ledger_journal.id', 'ledger_entry.journal_id')
        .innerJoin('ledger_account', 'ledger_account.id', 'ledger_entry.account_id')
        .select(({ fn }) => fn.sum<string>('ledger_entry.amount').as('total'))
        .where('ledger_journal.kind', '=', kind)
        .where('ledger_journal.book', '=', book)
        .where('ledger_account.owner_uid', '=', uid)
        .executeTakeFirst();
      return row?.total ? (parseMoney(String(row.total)) ?? 0n) : 0n;
    },

    /**
     * The lines of every journal that touched a user's accounts (both books), newest first,
     * paged, with the number of lines: the back office's view of a customer's money.
     */
    async linesOfOwner(uid: number, page: number, limit: number) {
      const owned = db
        .selectFrom('ledger_entry')
        .innerJoin('ledger_account', 'ledger_account.id', 'ledger_entry.account_id')
        .where('ledger_account.owner_uid', '=', uid);
      const [rows, total] = await Promise.all([
        owned
          .innerJoin('ledger_journal', 'ledger_journal.id', 'ledger_entry.journal_id')
          .select([
            'ledger_entry.journal_id',
            'ledger_journal.kind as journal_kind',
            'ledger_account.book',
            'ledger_account.kind as account_kind',
            'ledger_account.currency',
            'ledger_entry.amount',
            'ledger_journal.created_at',
            'ledger_journal.reference',
          ])
          .orderBy('ledger_entry.journal_id', 'desc')
          .orderBy('ledger_entry.id', 'desc')
          .limit(limit)
          .offset((page - 1) * limit)
          .execute(),
        owned.select(({ fn }) => fn.countAll<string | number>().as('count')).executeTakeFirstOrThrow(),
      ]);
      return {
        lines: rows.map((row) => ({
          journalId: row.journal_id,
          journalKind: row.journal_kind,
          book: row.book,
          accountKind: row.account_kind,
          currency: row.currency,
          amount: money(String(row.amount)),
          at: row.created_at,
          reference: row.reference,
        })),
        total: Number(total.count),
      };
    },

    // Verbs, each inside the caller's transaction (which has locked the user's accounts) unless it says otherwise.
    /**
     * An order placed: margin from cash to margin, a market order's fee to the house, in the
     * same statement as `placeOrder`, the order's own insert (built by the caller, not run),
     * whose row is answered. Too little cash fails both (the database's check violation).
     */
    lockMarginPlacing: <Row>(trx: Transaction<Database>, order: OrderRef & { margin: Units; fee: Units }, placeOrder: AlongsideWrite<Row>): Promise<Row> =>
      engine.postAlongside(trx, marginLockedJournal(order), placeOrder),
    /** A pending order filled: its fee. A user without the cash refuses it (the database's check violation). */
    async chargeFee(trx: Transaction<Database>, order: OrderRef & { fee: Units }) {
      await engine.postWith(trx, feeChargedJournal(order));
    },
    /**
     * A position closed: its margin and result to cash, the house's trading result the other
     * side, in the same statement as `closeOrder`, the order's own update (built by the
     * caller, not run), which must change exactly the one row or nothing is kept.
     */
    async settlePositionClosing(trx: Transaction<Database>, order: OrderRef & { margin: Units; profitLoss: Units }, closeOrder: AlongsideWrite<unknown>) {
      await engine.postAlongside(trx, orderEndedJournal(order), closeOrder);
    },
    /**
     * A pending order's price moved: its margin from `from` to `to` (the extra locked from
     * cash, or the excess released), in the caller's transaction, which holds the user's
     * accounts and the order's row. The key counts the order's earlier adjustments, so each
     * edit posts once and a replayed one (same count) records nothing twice. Too little cash
     * for the extra is the database's check violation.
     */
    async adjustMargin(trx: Transaction<Database>, order: OrderRef & { from: Units; to: Units }) {
      if (order.from === order.to) return;
      const earlier = await trx
        .selectFrom('ledger_journal')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .where('kind', '=', JournalKind.orderMarginAdjust)
        .where('reference', '=', order.orderNo)
        .where('book', '=', order.book)
        .executeTakeFirstOrThrow();
      await engine.postWith(trx, marginAdjustedJournal({ ...order, edit: Number(earlier.count) + 1 }));
    },
    /** A pending order canceled: its margin back to cash. */
    async releaseMargin(trx: Transaction<Database>, order: OrderRef & { margin: Units }) {
      await engine.postWith(trx, orderEndedJournal({ ...order, profitLoss: null }));
    },
    /** One day's overnight fee; `replayed` when that day was charged already. */
    async chargeOvernight(trx: Transaction<Database>, order: OrderRef & { day: string; fee: Units }): Promise<{ replayed: boolean }> {
      return { replayed: (await engine.postWith(trx, overnightChargedJournal(order))).replayed };
    },
    /** An option placed: its amount into escrow, its fee to the house. */
    async escrowOption(trx: Transaction<Database>, option: OrderRef & { amount: Units; fee: Units }) {
      await engine.postWith(trx, optionEscrowedJournal(option));
    },
    /**
     * Journals of many accounts in one go (negative-balance protection ends a whole account:
     * one balance update per account, so the cash never passes through a negative value).
     */
    async postBatch(trx: Transaction<Database>, journals: readonly JournalInput[]) {
      await engine.postManyWith(trx, journals);
    },
    /**
     * A settlement batch: the accounts its journals move are resolved now, before the
     * transaction (ids kept once known), and locked in it in the ledger's one lock order
     * (user accounts first, then the house's, each by id); `postIn` then posts those of
     * the journals the caller settled. Answers how many were new.
     */
    async prepareBatch(journals: readonly JournalInput[]) {
      // Resolved before the transaction and kept for it: inside it, no statement may go around it (PGlite has one connection).
      const idsByKey = new Map<string, number>();
      const keyOf = (ref: AccountRef<string>) => `${ref.owner ?? ''}|${ref.book}|${ref.kind}|${currencyOf(ref)}`;
      for (const journal of journals) {
        for (const posting of journal.postings) if (posting.amount !== 0n) idsByKey.set(keyOf(posting.account), await engine.accountId(db, posting.account));
      }
      const sorted = [...new Set(idsByKey.values())].sort((a, b) => a - b);
      return {
        async lockIn(trx: Transaction<Database>) {
          if (sorted.length === 0) return;
          await trx.selectFrom('ledger_account').select('id').where('id', 'in', sorted).orderBy(sql`owner_uid is null`).orderBy('id').forUpdate().execute();
        },
        postIn: (trx: Transaction<Database>, settled: readonly JournalInput[]) =>
          engine.postManyWith(trx, settled, async (ref) => idsByKey.get(keyOf(ref)) ?? (await engine.accountId(trx, ref))),
      };
    },
    /** Opens a user's cash and margin accounts in both books (idempotent). */
    async openAccounts(uid: number) {
      for (const book of ['real', 'demo'] as const) {
        await engine.accountId(db, { owner: uid, book, kind: UserAccountKind.cash });
        await engine.accountId(db, { owner: uid, book, kind: UserAccountKind.margin });
      }
    },
    /** A new user's demo cash, in its own transaction (once per user: a second call is a replay). */
    async fundDemo(uid: number, amount: Units) {
      await post(demoFundedJournal(uid, amount));
    },
    /**
     * The demo reset, in the caller's transaction after it locked the demo accounts: cash
     * to `demoBalance`, every other account to what is still `held` in it (else 0).
     */
    async resetDemo(trx: Transaction<Database>, reset: { uid: number; demoBalance: Units; held: ReadonlyMap<UserAccountKind, Units> }) {
      const balances = await ownerBalances(trx, reset.uid, 'demo');
      // Every reset is its own event: the key never repeats.
      const idempotencyKey = `${JournalKeyPrefix.demoReset}${reset.uid}:${nowMs()}:${crypto.randomUUID()}`;
      await engine.postWith(trx, demoResetJournal({ ...reset, balances, idempotencyKey }));
    },
    /**
     * Real cash deposited; the key makes a retried deposit a replay. In the caller's
     * transaction when one is given (a staff approval: the credit commits with the decision
     * and its audit row, or not at all), else in its own.
     */
    async creditDeposit(deposit: { uid: number; amount: Units; idempotencyKey: string }, trx?: Transaction<Database>) {
      if (trx) await engine.postWith(trx, depositJournal(deposit));
      else await post(depositJournal(deposit));
    },

    // Loans (real book, USD): the house's loans account against the customer's trading cash.
    /** An approved loan paid into the customer's real cash from the house's loans; once per loan. */
    disburseLoan: (trx: Transaction<Database>, loan: { uid: number; loanId: number; amount: Units }) => postWallet(trx, loanDisbursedJournal(loan)),
    /**
     * An approved repayment: its amount from the customer's real cash back to the house's
     * loans, once per repayment. The balance check is the write (the cash's non-negative
     * check): cash short of the amount refuses it (203), and nothing is debited.
     */
    repayLoan: (trx: Transaction<Database>, repayment: { uid: number; loanId: number; repaymentId: number; amount: Units }) => postWallet(trx, loanRepaidJournal(repayment)),

    // Wallets (real book only): one account per currency, moved only by these verbs.
    /** Currency credited to a wallet from the house's deposits (an approved deposit); a replayed key credits nothing. */
    creditWalletDeposit: (trx: Transaction<Database>, deposit: { uid: number; currency: string; amount: Units; key: string }) => postWallet(trx, walletDepositJournal(deposit)),
    /** A wallet's currency into the trading cash (see transferInJournal); a wallet short of `amount` refuses it (203). */
    transferIn: (trx: Transaction<Database>, transfer: WalletTransfer) => postWallet(trx, transferInJournal(transfer)),
    /** Trading cash into a wallet's currency (see transferOutJournal); cash short of `usdAmount` refuses it (203). */
    transferOut: (trx: Transaction<Database>, transfer: WalletTransfer) => postWallet(trx, transferOutJournal(transfer)),
    /**
     * A withdrawal's hold: the wallet's amount moved to the user's withdrawal hold. The
     * balance check is the write (the wallet's non-negative check): a wallet short of the
     * amount refuses it (203) and parallel holds can never overdraw it.
     */
    holdWithdrawal: (trx: Transaction<Database>, hold: HeldWithdrawal & { key: string }) => postWallet(trx, withdrawalHoldJournal(hold)),
    /** The held amount paid out: less `fee` to the house's withdrawals, `fee` to its fees; once per key. */
    async payWithdrawal(trx: Transaction<Database>, payout: { holdKey: string; fee: Units; key: string }) {
      await postWallet(trx, withdrawalPayJournal(await heldWithdrawal(trx, payout.holdKey), payout));
    },
    /** The held amount back to the wallet; once per key. */
    async releaseWithdrawal(trx: Transaction<Database>, release: { holdKey: string; key: string }) {
      await postWallet(trx, withdrawalReleaseJournal(await heldWithdrawal(trx, release.holdKey), release));
    },
    /** A user's wallet balances by currency code (currencies never held are absent). */
    async walletBalances(uid: number, executor: Executor = db): Promise<Map<string, Units>> {
      const rows = await executor
        .selectFrom('ledger_account')
        .select(['currency', 'balance'])
        .where('owner_uid', '=', uid)
        .where('book', '=', 'real')
        .where('kind', '=', UserAccountKind.wallet)
        .execute();
      return new Map(rows.map((row) => [row.currency, money(String(row.balance))]));
    },
    /**
     * The lines of a user's wallets, newest first, paged, with the number of lines: what
     * each journal did to a wallet (signed), its currency, kind and time. `type` filters as
     * the wallet records do (0 transfers in, 1 out, 2 everything else).
     */
    async walletLines(uid: number, page: number, limit: number, type?: WalletLineType) {
      const kinds = walletRecordKinds(type);
      let lines = db
        .selectFrom('ledger_entry')
        .innerJoin('ledger_account', 'ledger_account.id', 'ledger_entry.account_id')
        .innerJoin('ledger_journal', 'ledger_journal.id', 'ledger_entry.journal_id')
        .where('ledger_account.owner_uid', '=', uid)
        .where('ledger_account.book', '=', 'real')
        .where('ledger_account.kind', '=', UserAccountKind.wallet);
      if (kinds) lines = lines.where('ledger_journal.kind', kinds.only ? 'in' : 'not in', kinds.kinds);
      const [rows, total] = await Promise.all([
        lines
          .select(['ledger_entry.id', 'ledger_journal.id as journal_id', 'ledger_journal.kind', 'ledger_account.currency', 'ledger_entry.amount', 'ledger_journal.created_at'])
          .orderBy('ledger_journal.id', 'desc')
          .orderBy('ledger_entry.id', 'desc')
          .limit(limit)
          .offset((page - 1) * limit)
          .execute(),
        lines.select(({ fn }) => fn.countAll<string | number>().as('count')).executeTakeFirstOrThrow(),
      ]);
      return {
        lines: rows.map((row) => ({
          journalId: row.journal_id,
          journalKind: row.kind as JournalKind,
          currency: row.currency,
          amount: money(String(row.amount)),
          at: row.created_at,
        })),
        total: Number(total.count),
      };
    },
  };
}

export type Ledger = ReturnType<typeof createLedger>;
