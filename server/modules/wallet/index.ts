import type { SignedInRoutes } from '../../http/signed-in';
import type { MoneyModuleBase } from '../module-base';
import { createWalletRepository } from './wallet-repository';
import { registerWalletRoutes } from './wallet-routes';
import { createWalletService, type WalletService } from './wallet-service';

export type { Currency, CoinNetwork } from './wallet-repository';
export type { UsdRate, WalletService } from './wallet-service';

/**
 * Wallets (issue 16): the currencies and their networks (`currency`, `coin_network`), each
 * real account's wallet per currency in the ledger, valued at the market's live prices,
 * and transfers between a wallet and the trading cash. Later money modules (deposits,
 * withdrawals) receive the service: `currencies()`, `coinNetworks()`, `usdRate(id)`,
 * `balances(uid)`.
 */
export async function registerWallet(
  deps: MoneyModuleBase & { signedIn: SignedInRoutes; cashChanged: (uid: number) => void },
): Promise<WalletService> {
  const nowMs = deps.nowMs ?? Date.now;
  const wallet = createWalletService({
    db: deps.database.db,
    repository: createWalletRepository(deps.database.db),
    ledger: deps.ledger,
    market: deps.market,
    stalePriceMs: deps.settings.stalePriceMs,
    nowMs,
  });
  await registerWalletRoutes({ signedIn: deps.signedIn, db: deps.database.db, wallet, cashChanged: deps.cashChanged, nowMs });
  return wallet;
}
