import crypto from 'node:crypto';
import type { AccountBalance, UserInfo } from '../../../src/shared/api/account';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { formatMoney, money } from '../../../src/shared/money/money';
import type { Book } from '../../db/schema';
import { AppError } from '../../http/app-error';
import type { IdentityRepository } from '../identity/identity-repository';
import type { Ledger } from '../ledger/ledger';

/** A user's trading accounts: available cash and locked margin, in each book. */
export const cashKind = 'cash';
export const marginKind = 'margin';
/** The house account demo money comes from and returns to. */
export const demoFundingKind = 'demo-funding';

export function bookOf(virtualStatus: number): Book {
  return virtualStatus === 0 ? 'real' : 'demo';
}

/**
 * Opens every user's real and demo accounts (the demo one funded with the virtual
 * balance), answers balances and the profile, and resets the demo account.
 */
export function createAccountService(deps: {
  ledger: Ledger;
  users: IdentityRepository;
  demoBalance: string;
  /** Closes the user's open demo orders before the demo money is reset. */
  closeDemoOrders?: (uid: number) => Promise<void>;
  nowMs?: () => number;
}) {
  const { ledger } = deps;
  const demoBalance = money(deps.demoBalance);
  const nowMs = deps.nowMs ?? Date.now;

  async function open(uid: number) {
    for (const book of ['real', 'demo'] as const) {
      await ledger.accountId({ owner: uid, book, kind: cashKind });
      await ledger.accountId({ owner: uid, book, kind: marginKind });
    }
    // Idempotent: the key makes a second opening a replay.
    await ledger.post({
      idempotencyKey: `demo-funding:${uid}`,
      book: 'demo',
      kind: 'demo-funding',
      uid,
      postings: [
        { account: { owner: null, book: 'demo', kind: demoFundingKind }, amount: -demoBalance },
        { account: { owner: uid, book: 'demo', kind: cashKind }, amount: demoBalance },
      ],
    });
  }

  async function balance(uid: number, book: Book): Promise<AccountBalance> {
    await open(uid);
    const [cash, margin] = await Promise.all([
      ledger.balance({ owner: uid, book, kind: cashKind }),
      ledger.balance({ owner: uid, book, kind: marginKind }),
    ]);
    return { balanceAmount: formatMoney(cash), lockMargin: formatMoney(margin) };
  }

  return {
    open,
    balance,

    async info(uid: number, virtualStatus: number): Promise<UserInfo> {
      const user = await deps.users.findUserByUid(uid);
      if (!user) throw new AppError(ErrorCode.USER_NOT_FOUND);
      return {
        nick: user.nick,
        uid: user.uid,
        avator: '',
        email: user.email ?? '',
        inviteCode: user.invite_code,
        registerType: user.register_type,
        walletType: 0,
        verifiedStatus: 0,
        account: await balance(uid, bookOf(virtualStatus)),
      };
    },

    /** Demo only: cash back to the virtual balance and no locked margin, in one journal. */
    async resetDemo(uid: number, virtualStatus: number) {
      if (virtualStatus === 0) throw new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, 'not a demo session');
      await open(uid);
      await deps.closeDemoOrders?.(uid);
      const cash = await ledger.balance({ owner: uid, book: 'demo', kind: cashKind });
      const margin = await ledger.balance({ owner: uid, book: 'demo', kind: marginKind });
      await ledger.post({
        idempotencyKey: `demo-reset:${uid}:${nowMs()}:${crypto.randomUUID()}`,
        book: 'demo',
        kind: 'demo-reset',
        uid,
        postings: [
          { account: { owner: uid, book: 'demo', kind: cashKind }, amount: demoBalance - cash },
          { account: { owner: uid, book: 'demo', kind: marginKind }, amount: -margin },
          { account: { owner: null, book: 'demo', kind: demoFundingKind }, amount: cash + margin - demoBalance },
        ],
      });
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
