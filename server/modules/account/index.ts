import type { DatabaseHandle } from '../../db/database';
import type { DomainEvents } from '../../events/domain-events';
import type { SignedInRoutes } from '../../http/signed-in';
import type { Settings } from '../../settings';
import type { IdentityRepository } from '../identity/identity-repository';
import type { Ledger } from '../ledger/ledger';
import type { OptionsService } from '../options/options-service';
import type { TradingService } from '../trading/trading-service';
import { registerAccountRoutes } from './account-routes';
import { createAccountService, type AccountService, type DemoHoldings } from './account-service';

/**
 * Accounts: every user's real and demo accounts, opened at sign-up, their balances and
 * profile, and the demo reset (which ends the demo orders and options first).
 */
export async function registerAccount(deps: {
  settings: Settings;
  database: DatabaseHandle;
  ledger: Ledger;
  /** The profile is read through identity's repository until the account service asks identity's service. */
  users: IdentityRepository;
  trading: TradingService;
  options: OptionsService;
  events: DomainEvents;
  signedIn: SignedInRoutes;
  nowMs?: (() => number) | undefined;
}): Promise<AccountService> {
  const { trading, options } = deps;
  const demoHoldings: DemoHoldings = {
    endOptionsIn: (trx, uid) => options.endDemoOptionsIn(trx, uid),
    endOrdersIn: (trx, uid) => trading.endDemoOrdersIn(trx, uid),
    heldIn: (trx, uid) => options.heldIn(trx, uid, 'demo'),
  };
  const accounts = createAccountService({
    db: deps.database.db,
    ledger: deps.ledger,
    users: deps.users,
    demoBalance: deps.settings.demoBalance,
    demoHoldings: () => demoHoldings,
    ...(deps.nowMs ? { nowMs: deps.nowMs } : {}),
  });
  deps.events.userRegistered.listen(({ uid }) => accounts.open(uid));
  await registerAccountRoutes(deps.signedIn, accounts);
  return accounts;
}
