import { money } from '../../../src/shared/money/money';
import type { DatabaseHandle } from '../../db/database';
import type { DomainEvents } from '../../events/domain-events';
import type { SignedInRoutes } from '../../http/signed-in';
import type { Settings } from '../../settings';
import type { IdentityService } from '../identity/identity-service';
import type { Ledger } from '../ledger/ledger';
import type { OptionsService } from '../options/options-service';
import type { TradingService } from '../trading/trading-service';
import { registerAccountRoutes } from './account-routes';
import { createAccountOpening, createAccountService, type AccountService } from './account-service';

/**
 * Accounts: every user's real and demo accounts, opened at sign-up, their balances and
 * profile, and the demo reset (which ends the demo orders and options first). The account
 * keeps no table of its own: its money is the ledger's, the profile identity's.
 */
export async function registerAccount(deps: {
  settings: Settings;
  database: DatabaseHandle;
  ledger: Ledger;
  identity: Pick<IdentityService, 'profile'>;
  trading: Pick<TradingService, 'endDemoOrdersIn'>;
  options: Pick<OptionsService, 'endDemoOptionsIn' | 'heldIn'>;
  events: DomainEvents;
  signedIn: SignedInRoutes;
  /** The full identity verification's status (the verification module's), for `user/info`. */
  verifiedStatus: (uid: number) => Promise<number>;
  /** walletType for `user/info` (the deposits module's own addresses). */
  walletType: (uid: number) => Promise<0 | 1>;
}): Promise<AccountService> {
  const { ledger } = deps;
  const demoBalance = money(deps.settings.demoBalance);
  const open = createAccountOpening({ ledger, demoBalance });
  const accounts = createAccountService({
    db: deps.database.db,
    ledger,
    users: deps.identity,
    open,
    demoBalance,
    trading: deps.trading,
    options: deps.options,
    verifiedStatus: deps.verifiedStatus,
    walletType: deps.walletType,
  });
  deps.events.userRegistered.listen(({ uid }) => open(uid));
  await registerAccountRoutes(deps.signedIn, accounts);
  return accounts;
}
