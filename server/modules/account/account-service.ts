import type { Kysely } from 'kysely';
import type { AccountBalance, UserInfo } from '../../../src/shared/api/account';
import { ownFileUrl } from '../../../src/shared/api/uploads';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import type { Units } from '../../../src/shared/money/money';
import { bookOf } from '../../../src/shared/session/token';
import type { Book, Database } from '../../db/schema';
import { AppError } from '../../http/app-error';
import type { IdentityService } from '../identity/identity-service';
import type { Ledger } from '../ledger/ledger';
import type { OptionsService } from '../options/options-service';
import type { TradingService } from '../trading/trading-service';
import { accountBalanceView } from './account-balance';

/** Opens a user's accounts: cash and margin in both books, the demo cash funded with the virtual balance (idempotent). */
export type AccountOpening = (uid: number) => Promise<void>;

/** Account opening needs only the ledger: identity calls it at registration, before trading and options exist. */
export function createAccountOpening(deps: { ledger: Ledger; demoBalance: Units }): AccountOpening {
  return async (uid) => {
    await deps.ledger.openAccounts(uid);
    await deps.ledger.fundDemo(uid, deps.demoBalance);
  };
}

/**
 * A user's accounts: balances and the profile, and the demo reset (which ends the demo
 * book's open orders and running options first: the trading and options services).
 */
export function createAccountService(deps: {
  db: Kysely<Database>;
  ledger: Ledger;
  /** The profile is identity's. */
  users: Pick<IdentityService, 'profile'>;
  open: AccountOpening;
  demoBalance: Units;
  trading: Pick<TradingService, 'endDemoOrdersIn'>;
  options: Pick<OptionsService, 'endDemoOptionsIn' | 'heldIn'>;
  /** The full identity verification's status (0 none, 1 authenticating, 2 authenticated, 3 failed). */
  verifiedStatus: (uid: number) => Promise<number>;
  /** 1 for a self-owned wallet (the deposits module's own addresses), else 0. */
  walletType: (uid: number) => Promise<0 | 1>;
}) {
  const { ledger, open } = deps;

  async function balance(uid: number, book: Book): Promise<AccountBalance> {
    await open(uid);
    return accountBalanceView(await ledger.tradingBalances(uid, book));
  }

  return {
    open,
    balance,

    async info(uid: number, virtualStatus: number): Promise<UserInfo> {
      const user = await deps.users.profile(uid);
      if (!user) throw new AppError(ErrorCode.USER_NOT_FOUND);
      return {
        nick: user.nick,
        uid: user.uid,
        avator: user.avatar_file_id ? ownFileUrl(user.avatar_file_id) : '',
        email: user.email ?? '',
        inviteCode: user.invite_code,
        registerType: user.register_type,
        walletType: await deps.walletType(uid),
        verifiedStatus: await deps.verifiedStatus(uid),
        account: await balance(uid, bookOf({ virtualStatus })),
      };
    },

    /**
     * Demo only, in one transaction: running options end (their rows locked before the
     * accounts, as settlement locks them), then every demo account of the user is locked,
     * open orders end, and one journal sets the cash to the virtual balance and empties the
     * rest (margin, escrow). Parallel resets and orders placed meanwhile serialize on the
     * lock; none can leave money or orders behind.
     */
    async resetDemo(uid: number, virtualStatus: number) {
      if (bookOf({ virtualStatus }) !== 'demo') throw new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, 'not a demo session');
      await open(uid);
      const tell = await deps.db.transaction().execute(async (trx) => {
        const afterOptions = await deps.options.endDemoOptionsIn(trx, uid);
        await ledger.lockOwnerAccounts(trx, uid, 'demo');
        const afterOrders = await deps.trading.endDemoOrdersIn(trx, uid);
        // An option placed after the options were ended but before the accounts were locked
        // is still running: its escrow stays (nothing can be placed now, under the lock).
        const held = await deps.options.heldIn(trx, uid, 'demo');
        await ledger.resetDemo(trx, { uid, demoBalance: deps.demoBalance, held });
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
