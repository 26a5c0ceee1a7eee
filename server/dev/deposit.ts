import { cashKind } from '../modules/account/account-service';
import type { Ledger } from '../modules/ledger/ledger';

/**
 * Credits real cash exactly as a deposit will: a 'deposit' journal from the house.
 * LEAD: replace with the ledger's own verb `ledger.creditDeposit({ uid, amount, idempotencyKey })`
 * when the money branch lands; this is the only place outside the ledger that posts it.
 */
export async function creditDeposit(ledger: Ledger, deposit: { uid: number; amount: bigint; idempotencyKey: string }) {
  await ledger.post({
    idempotencyKey: deposit.idempotencyKey,
    book: 'real',
    kind: 'deposit',
    uid: deposit.uid,
    postings: [
      { account: { owner: null, book: 'real', kind: 'deposits' }, amount: -deposit.amount },
      { account: { owner: deposit.uid, book: 'real', kind: cashKind }, amount: deposit.amount },
    ],
  });
}
