import type { Units } from '../../../src/shared/money/money';
import type { AccountRef, JournalInput } from './ledger-journals';
import { HouseAccountKind, JournalKind, UserAccountKind } from './ledger-kinds';

/**
 * A withdrawal's three journals (real book, the withdrawn currency): the hold (wallet →
 * the user's withdrawal hold), the payout (the hold → the house's paid-out withdrawals, its
 * fee → the house's fees) and the release (the hold back to the wallet). Each sums to zero
 * in its one currency.
 */
const userAccount = (uid: number, kind: UserAccountKind, currency: string): AccountRef => ({ owner: uid, book: 'real', kind, currency });
const houseAccount = (kind: HouseAccountKind, currency: string): AccountRef => ({ owner: null, book: 'real', kind, currency });

export interface HeldWithdrawal {
  uid: number;
  currency: string;
  amount: Units;
}

export function withdrawalHoldJournal(hold: HeldWithdrawal & { key: string }): JournalInput {
  return {
    idempotencyKey: hold.key,
    book: 'real',
    kind: JournalKind.withdrawalHold,
    uid: hold.uid,
    reference: hold.currency,
    postings: [
      { account: userAccount(hold.uid, UserAccountKind.wallet, hold.currency), amount: -hold.amount },
      { account: userAccount(hold.uid, UserAccountKind.withdrawalHold, hold.currency), amount: hold.amount },
    ],
  };
}

export function withdrawalPayJournal(held: HeldWithdrawal, payout: { fee: Units; key: string; holdKey: string }): JournalInput {
  if (payout.fee < 0n || payout.fee >= held.amount) throw new RangeError(`withdrawal ${payout.holdKey}: a fee of ${payout.fee} units does not fit its amount`);
  return {
    idempotencyKey: payout.key,
    book: 'real',
    kind: JournalKind.withdrawalPay,
    uid: held.uid,
    reference: payout.holdKey,
    postings: [
      { account: userAccount(held.uid, UserAccountKind.withdrawalHold, held.currency), amount: -held.amount },
      { account: houseAccount(HouseAccountKind.withdrawals, held.currency), amount: held.amount - payout.fee },
      { account: houseAccount(HouseAccountKind.fees, held.currency), amount: payout.fee },
    ],
  };
}

export function withdrawalReleaseJournal(held: HeldWithdrawal, release: { key: string; holdKey: string }): JournalInput {
  return {
    idempotencyKey: release.key,
    book: 'real',
    kind: JournalKind.withdrawalRelease,
    uid: held.uid,
    reference: release.holdKey,
    postings: [
      { account: userAccount(held.uid, UserAccountKind.withdrawalHold, held.currency), amount: -held.amount },
      { account: userAccount(held.uid, UserAccountKind.wallet, held.currency), amount: held.amount },
    ],
  };
}
