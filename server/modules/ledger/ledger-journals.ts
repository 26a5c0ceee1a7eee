import type { Units } from '../../../src/shared/money/money';
import type { OptionOutcome } from '../../../src/shared/options/option-rules';
import type { Book } from '../../db/schema';
import { baseCurrency, HouseAccountKind, JournalKeyPrefix, JournalKind, optionOutcomeJournal, UserAccountKind, type AccountKind } from './ledger-kinds';

/** A user's account (owner a uid) or the house's (owner null), in one book and one currency. */
export interface AccountRef<Kind extends string = AccountKind> {
  owner: number | null;
  book: Book;
  kind: Kind;
  /** The currency it holds; absent means the trading accounts' USD ({@link baseCurrency}). */
  currency?: string;
}

/** The currency an account reference names. */
export const currencyOf = (ref: AccountRef<string>): string => ref.currency ?? baseCurrency;

export interface Posting<Kind extends string = AccountKind> {
  account: AccountRef<Kind>;
  /** Positive credits the account (its balance grows), negative debits it. */
  amount: Units;
}

/**
 * A balanced set of postings. The app's journals use the ledger's closed vocabulary (the
 * defaults); the posting engine itself takes any kind, so that fixtures can post their own.
 */
export interface JournalInput<Kind extends string = JournalKind, Account extends string = AccountKind> {
  /** Posting twice with one key records once: the second call is a replay. */
  idempotencyKey: string;
  book: Book;
  kind: Kind;
  uid: number | null;
  reference?: string;
  postings: Posting<Account>[];
}

/** Any journal, as the posting engine takes it. */
export type AnyJournal = JournalInput<string, string>;

const user = (uid: number, book: Book, kind: UserAccountKind): AccountRef => ({ owner: uid, book, kind });
const house = (book: Book, kind: HouseAccountKind): AccountRef => ({ owner: null, book, kind });

/** Whose order, in which book, under which order number. */
export interface OrderRef {
  uid: number;
  book: Book;
  orderNo: string;
}

/** A journal about one order or option: its number is the reference and ends the key. */
function orderJournal(order: OrderRef, kind: JournalKind, idempotencyKey: string, postings: Posting[]): JournalInput {
  return { idempotencyKey, book: order.book, kind, uid: order.uid, reference: order.orderNo, postings };
}

/** Cash into one of the user's held accounts (margin, escrow), and a fee to the house. */
function heldFromCash(owner: OrderRef, held: UserAccountKind, amount: Units, fee: Units): Posting[] {
  return [
    { account: user(owner.uid, owner.book, UserAccountKind.cash), amount: -(amount + fee) },
    { account: user(owner.uid, owner.book, held), amount },
    { account: house(owner.book, HouseAccountKind.fees), amount: fee },
  ];
}

/** An order placed: its margin moves from cash to margin, its fee (a market order's; 0 pending) to the house. */
export function marginLockedJournal(order: OrderRef & { margin: Units; fee: Units }): JournalInput {
  return orderJournal(order, JournalKind.orderOpen, `${JournalKeyPrefix.orderOpen}${order.orderNo}`, heldFromCash(order, UserAccountKind.margin, order.margin, order.fee));
}

/**
 * A pending order's price moved (its `edit`-th move that changed its margin): the margin goes
 * from `from` to `to`, the difference from cash (more) or back to it (less).
 */
export function marginAdjustedJournal(order: OrderRef & { edit: number; from: Units; to: Units }): JournalInput {
  const { uid, book, orderNo } = order;
  const more = order.to - order.from;
  return orderJournal(order, JournalKind.orderMarginAdjust, `${JournalKeyPrefix.orderMarginAdjust}${orderNo}:${order.edit}`, [
    { account: user(uid, book, UserAccountKind.cash), amount: -more },
    { account: user(uid, book, UserAccountKind.margin), amount: more },
  ]);
}

/** A pending order filled: its fee from cash to the house. */
export function feeChargedJournal(order: OrderRef & { fee: Units }): JournalInput {
  const { uid, book, orderNo } = order;
  return orderJournal(order, JournalKind.orderFee, `${JournalKeyPrefix.orderFee}${orderNo}`, [
    { account: user(uid, book, UserAccountKind.cash), amount: -order.fee },
    { account: house(book, HouseAccountKind.fees), amount: order.fee },
  ]);
}

/**
 * The journal that ends an order: its margin back to cash, with a closed position's result
 * (`profitLoss`, the house's trading result the other side), or none for a canceled pending order.
 */
export function orderEndedJournal(order: OrderRef & { margin: Units; profitLoss: Units | null }): JournalInput {
  const { uid, book, orderNo, margin, profitLoss } = order;
  const closed = profitLoss !== null;
  const postings: Posting[] = [
    { account: user(uid, book, UserAccountKind.margin), amount: -margin },
    { account: user(uid, book, UserAccountKind.cash), amount: margin + (profitLoss ?? 0n) },
  ];
  if (closed) postings.push({ account: house(book, HouseAccountKind.tradingResult), amount: -profitLoss });
  return orderJournal(order, closed ? JournalKind.orderClose : JournalKind.orderCancel, `${closed ? JournalKeyPrefix.orderClose : JournalKeyPrefix.orderCancel}${orderNo}`, postings);
}

/** One day's overnight fee of an open position (`day` in the key: once a day). */
export function overnightChargedJournal(order: OrderRef & { day: string; fee: Units }): JournalInput {
  const { uid, book, orderNo } = order;
  return orderJournal(order, JournalKind.overnightFee, `${JournalKeyPrefix.overnight}${orderNo}:${order.day}`, [
    { account: user(uid, book, UserAccountKind.cash), amount: -order.fee },
    { account: house(book, HouseAccountKind.overnight), amount: order.fee },
  ]);
}

/** An option placed: its amount from cash to escrow, its fee to the house. */
export function optionEscrowedJournal(option: OrderRef & { amount: Units; fee: Units }): JournalInput {
  return orderJournal(option, JournalKind.optionOpen, `${JournalKeyPrefix.optionOpen}${option.orderNo}`, heldFromCash(option, UserAccountKind.optionEscrow, option.amount, option.fee));
}

/** An option settled on its end tick: escrow out, the payout to cash, the house takes the difference (a win's profit it pays is negative). */
export function optionSettledJournal(option: OrderRef & { amount: Units; outcome: OptionOutcome; payout: Units }): JournalInput {
  const { uid, book, orderNo, amount, payout } = option;
  return orderJournal(option, optionOutcomeJournal[option.outcome], `${JournalKeyPrefix.optionSettle}${orderNo}`, [
    { account: user(uid, book, UserAccountKind.optionEscrow), amount: -amount },
    { account: user(uid, book, UserAccountKind.cash), amount: payout },
    { account: house(book, HouseAccountKind.optionResult), amount: amount - payout },
  ]);
}

/**
 * An option ended void: its amount back to cash, with its fee (`refundedFee`) when it
 * could not settle, without it (null) when negative-balance protection ended it.
 */
export function optionVoidedJournal(option: OrderRef & { amount: Units; refundedFee: Units | null }): JournalInput {
  const { uid, book, orderNo, amount, refundedFee } = option;
  const escrowOut: Posting = { account: user(uid, book, UserAccountKind.optionEscrow), amount: -amount };
  const postings: Posting[] =
    refundedFee === null
      ? [escrowOut, { account: user(uid, book, UserAccountKind.cash), amount }]
      : [escrowOut, { account: house(book, HouseAccountKind.fees), amount: -refundedFee }, { account: user(uid, book, UserAccountKind.cash), amount: amount + refundedFee }];
  return orderJournal(option, JournalKind.optionVoid, `${JournalKeyPrefix.optionSettle}${orderNo}`, postings);
}

/** A new user's demo cash (the key makes it once per user). */
export function demoFundedJournal(uid: number, amount: Units): JournalInput {
  return {
    idempotencyKey: `${JournalKeyPrefix.demoFunding}${uid}`,
    book: 'demo',
    kind: JournalKind.demoFunding,
    uid,
    postings: [
      { account: house('demo', HouseAccountKind.demoFunding), amount: -amount },
      { account: user(uid, 'demo', UserAccountKind.cash), amount },
    ],
  };
}

/**
 * The demo reset: every demo account of the user moves to its target (cash to the demo
 * balance, any other kind to what is still `held` in it, else 0), the house's demo
 * funding the other side. `balances` are the accounts as read under their lock.
 */
export function demoResetJournal(reset: { uid: number; idempotencyKey: string; balances: ReadonlyMap<UserAccountKind, Units>; demoBalance: Units; held: ReadonlyMap<UserAccountKind, Units> }): JournalInput {
  const { uid } = reset;
  const postings: Posting[] = [];
  let fromHouse = 0n;
  for (const [kind, balance] of reset.balances) {
    const target = kind === UserAccountKind.cash ? reset.demoBalance : (reset.held.get(kind) ?? 0n);
    postings.push({ account: user(uid, 'demo', kind), amount: target - balance });
    fromHouse += target - balance;
  }
  postings.push({ account: house('demo', HouseAccountKind.demoFunding), amount: -fromHouse });
  return { idempotencyKey: reset.idempotencyKey, book: 'demo', kind: JournalKind.demoReset, uid, postings };
}

/** Real cash deposited, from the house's deposits account. */
export function depositJournal(deposit: { uid: number; amount: Units; idempotencyKey: string }): JournalInput {
  return {
    idempotencyKey: deposit.idempotencyKey,
    book: 'real',
    kind: JournalKind.deposit,
    uid: deposit.uid,
    postings: [
      { account: house('real', HouseAccountKind.deposits), amount: -deposit.amount },
      { account: user(deposit.uid, 'real', UserAccountKind.cash), amount: deposit.amount },
    ],
  };
}

const wallet = (uid: number, currency: string, kind: UserAccountKind = UserAccountKind.wallet): AccountRef => ({ owner: uid, book: 'real', kind, currency });
const houseIn = (kind: HouseAccountKind, currency: string): AccountRef => ({ owner: null, book: 'real', kind, currency });

/** Currency credited to a user's wallet from the house's deposits of that currency (an approved deposit). */
export function walletDepositJournal(deposit: { uid: number; currency: string; amount: Units; key: string }): JournalInput {
  const { uid, currency, amount } = deposit;
  return {
    idempotencyKey: deposit.key,
    book: 'real',
    kind: JournalKind.walletDeposit,
    uid,
    reference: currency,
    postings: [
      { account: houseIn(HouseAccountKind.deposits, currency), amount: -amount },
      { account: wallet(uid, currency), amount },
    ],
  };
}

/**
 * What a transfer between a wallet and the trading cash moves: `amount` of the currency,
 * `usdAmount` of the trading cash, and the fee, kept in the unit that leaves (the currency
 * on the way in, USD on the way out).
 */
export interface WalletTransfer {
  uid: number;
  currency: string;
  amount: Units;
  usdAmount: Units;
  fee: Units;
  key: string;
}

/**
 * A transfer in: `amount` leaves the wallet; its fee goes to the house's fees in that
 * currency, the rest to the house's exchange, which pays `usdAmount` into the trading cash.
 * Each currency sums to zero on its own.
 */
export function transferInJournal(transfer: WalletTransfer): JournalInput {
  const { uid, currency, amount, usdAmount, fee } = transfer;
  return {
    idempotencyKey: transfer.key,
    book: 'real',
    kind: JournalKind.transferIn,
    uid,
    reference: currency,
    postings: [
      { account: wallet(uid, currency), amount: -amount },
      { account: houseIn(HouseAccountKind.fees, currency), amount: fee },
      { account: houseIn(HouseAccountKind.exchange, currency), amount: amount - fee },
      { account: houseIn(HouseAccountKind.exchange, baseCurrency), amount: -usdAmount },
      { account: user(uid, 'real', UserAccountKind.cash), amount: usdAmount },
    ],
  };
}

/**
 * A transfer out: `usdAmount` leaves the trading cash; its fee (USD) goes to the house's
 * fees, the rest to the house's exchange, which pays `amount` of the currency into the wallet.
 */
export function transferOutJournal(transfer: WalletTransfer): JournalInput {
  const { uid, currency, amount, usdAmount, fee } = transfer;
  return {
    idempotencyKey: transfer.key,
    book: 'real',
    kind: JournalKind.transferOut,
    uid,
    reference: currency,
    postings: [
      { account: user(uid, 'real', UserAccountKind.cash), amount: -usdAmount },
      { account: houseIn(HouseAccountKind.fees, baseCurrency), amount: fee },
      { account: houseIn(HouseAccountKind.exchange, baseCurrency), amount: usdAmount - fee },
      { account: houseIn(HouseAccountKind.exchange, currency), amount: -amount },
      { account: wallet(uid, currency), amount },
    ],
  };
}

/** An approved loan (id `loanId`): its amount from the house's loans into the customer's real trading cash. */
export function loanDisbursedJournal(loan: { uid: number; loanId: number; amount: Units }): JournalInput {
  return {
    idempotencyKey: `${JournalKeyPrefix.loanDisbursement}${loan.loanId}`,
    book: 'real',
    kind: JournalKind.loanDisbursement,
    uid: loan.uid,
    reference: String(loan.loanId),
    postings: [
      { account: house('real', HouseAccountKind.loans), amount: -loan.amount },
      { account: user(loan.uid, 'real', UserAccountKind.cash), amount: loan.amount },
    ],
  };
}

/** An approved repayment (id `repaymentId`) of loan `loanId`: its amount from the customer's real trading cash back to the house's loans. */
export function loanRepaidJournal(repayment: { uid: number; loanId: number; repaymentId: number; amount: Units }): JournalInput {
  return {
    idempotencyKey: `${JournalKeyPrefix.loanRepayment}${repayment.repaymentId}`,
    book: 'real',
    kind: JournalKind.loanRepayment,
    uid: repayment.uid,
    reference: String(repayment.loanId),
    postings: [
      { account: user(repayment.uid, 'real', UserAccountKind.cash), amount: -repayment.amount },
      { account: house('real', HouseAccountKind.loans), amount: repayment.amount },
    ],
  };
}
