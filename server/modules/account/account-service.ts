import crypto from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { AccountBalance, UserInfo } from '../../../src/shared/api/account';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { formatMoney, money } from '../../../src/shared/money/money';
import type { Book, Database } from '../../db/schema';
import { AppError } from '../../http/app-error';
import type { IdentityRepository } from '../identity/identity-repository';
import type { Ledger, Posting } from '../ledger/ledger';

/**
 * What the demo reset ends inside its transaction, in the order the lock order asks:
 * options first (their rows before the accounts, as settlement locks them), then orders
 * (after the accounts). Each answers what to tell once the reset has committed.
 */
export interface DemoHoldings {
  endOptionsIn(trx: Transaction<Database>, uid: number): Promise<() => void>;
  endOrdersIn(trx: Transaction<Database>, uid: number): Promise<() => void>;
  /** What the user's accounts must still hold after the reset, by account kind (escrow of options still running). */
  heldIn(trx: Transaction<Database>, uid: number): Promise<Map<string, bigint>>;
}

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
  db: Kysely<Database>;
  /** The open demo orders and options the reset ends (trading and options). */
  demoHoldings?: () => DemoHoldings | null;
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

    /**
     * Demo only, in one transaction: open orders and running options end, then every demo
     * account of the user is read under its lock and one journal sets the cash to the
     * virtual balance and empties the rest (margin, escrow). Parallel resets and orders
     * placed meanwhile serialize on the lock; none can leave money or orders behind.
     */
    async resetDemo(uid: number, virtualStatus: number) {
      if (virtualStatus === 0) throw new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, 'not a demo session');
      await open(uid);
      const holdings = deps.demoHoldings?.() ?? null;
      const tell = await deps.db.transaction().execute(async (trx) => {
        const afterOptions = (await holdings?.endOptionsIn(trx, uid)) ?? (() => undefined);
        await ledger.lockOwnerAccounts(trx, uid, 'demo');
        const afterOrders = (await holdings?.endOrdersIn(trx, uid)) ?? (() => undefined);
        // An option placed after the options were ended but before the accounts were locked
        // is still running: its escrow stays (nothing can be placed now, under the lock).
        const stillHeld = (await holdings?.heldIn(trx, uid)) ?? new Map<string, bigint>();
        const balances = await ledger.ownerBalances(trx, uid, 'demo');
        const postings: Posting[] = [];
        let fromHouse = 0n;
        for (const [kind, held] of balances) {
          const target = kind === cashKind ? demoBalance : (stillHeld.get(kind) ?? 0n);
          postings.push({ account: { owner: uid, book: 'demo', kind }, amount: target - held });
          fromHouse += target - held;
        }
        postings.push({ account: { owner: null, book: 'demo', kind: demoFundingKind }, amount: -fromHouse });
        await ledger.postInTransaction(trx, { idempotencyKey: `demo-reset:${uid}:${nowMs()}:${crypto.randomUUID()}`, book: 'demo', kind: 'demo-reset', uid, postings });
        return () => {
          afterOptions();
          afterOrders();
        };
      });
      tell();
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
