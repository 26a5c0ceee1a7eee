import { depositStatus, depositSubmit } from '../../../src/shared/api/deposit';
import { walletSelfNetworks } from '../../../src/shared/api/wallet';
import { formatMoney } from '../../../src/shared/money/money';
import { uploadPartNames } from '../../../src/shared/api/uploads';
import type { DatabaseHandle } from '../../db/database';
import { idempotencyKeyOf, runOnce } from '../../http/idempotency';
import { sessionOnBook, type SignedInRoutes } from '../../http/signed-in';
import type { Settings } from '../../settings';
import type { Ledger } from '../ledger/ledger';
import type { NoticesService } from '../notices/notices-service';
import type { ReviewsService } from '../reviews';
import type { UploadsService } from '../uploads';
import type { WalletService } from '../wallet';
import { createDepositsRepository, type DepositsRepository } from './deposits-repository';
import { createDepositsService, type DepositMoney, type DepositsService } from './deposits-service';

export type { DepositCoinNetwork, DepositMoney, DepositsService } from './deposits-service';

/** What deposits take of the wallet module (its networks, its live rates) and of the ledger (the credit). */
function depositMoneyOf(wallet: WalletService, ledger: Ledger): DepositMoney {
  return {
    async coinNetwork(coinId) {
      const [networks, currencies] = await Promise.all([wallet.coinNetworks(), wallet.currencies()]);
      const network = networks.find((item) => item.id === coinId);
      const currency = currencies.find((item) => item.id === network?.currencyId);
      if (!network || !currency) return null;
      return { id: network.id, currencyId: currency.id, currency: currency.code, network: network.network, enabled: network.enabled && currency.enabled };
    },
    // A deposit is worth what the house would pay for it: the bid (as the wallet values balances).
    usdRate: async (currencyId) => (await wallet.usdRate(currencyId)).bid,
    creditWalletDeposit: (trx, credit) => ledger.creditWalletDeposit(trx, credit),
  };
}

/**
 * Deposits (real book only): `deposit/status`, `deposit/submit` (multipart, with the proof
 * image, once per Idempotency-Key) and its rows of the records list (`fund/records`, the
 * fund-records module's); registers the
 * 'deposit' review kind's effect.
 */
export async function registerDeposits(deps: {
  settings: Settings;
  database: DatabaseHandle;
  signedIn: SignedInRoutes;
  wallet: WalletService;
  ledger: Ledger;
  uploads: UploadsService;
  reviews: ReviewsService;
  notices: NoticesService;
  /** The repository when the composition made it earlier (trading reads what was deposited). */
  repository?: DepositsRepository;
  /** The customer's level's largest single deposit in USD (the withdrawals module's limits). */
  depositCapUsd: (uid: number) => Promise<string>;
  nowMs?: (() => number) | undefined;
}): Promise<DepositsService> {
  const db = deps.database.db;
  const deposits = createDepositsService({
    repository: deps.repository ?? createDepositsRepository(db),
    money: depositMoneyOf(deps.wallet, deps.ledger),
    uploads: deps.uploads,
    reviews: deps.reviews,
    notices: deps.notices,
    depositsEnabled: deps.settings.depositsEnabled,
    depositMaxUsd: deps.settings.depositMaxUsd,
    depositCapUsd: deps.depositCapUsd,
    nowMs: deps.nowMs,
  });
  await deps.signedIn((scope) => {
    scope.route(depositStatus, async (_body, request) => deposits.status(sessionOnBook(request.session, 'real')));
    // The self wallet list (walletType 1): the networks with the customer's own deposit address, as coinNetworks lists them.
    scope.route(walletSelfNetworks, async (_body, request) => {
      const uid = sessionOnBook(request.session, 'real');
      const [own, networks, currencies] = await Promise.all([deposits.ownAddresses(uid), deps.wallet.coinNetworks(), deps.wallet.currencies()]);
      const byId = new Map(currencies.filter((currency) => currency.enabled).map((currency) => [currency.id, currency]));
      return {
        dtoList: networks.flatMap((network) => {
          const currency = byId.get(network.currencyId);
          const address = own.get(network.id);
          if (!currency || !network.enabled || address === undefined) return [];
          return [
            {
              id: network.id,
              currencyId: currency.id,
              currency: currency.code,
              protocol: network.network,
              address,
              said: address,
              logoUrl: currency.icon,
              minWithdrawAmount: formatMoney(network.minWithdraw, 0),
              maxWithdrawAmount: formatMoney(network.maxWithdraw, 0),
              feeType: network.withdrawFeeType,
              feeNum: formatMoney(network.withdrawFee, 0),
            },
          ];
        }),
      };
    });
    scope.multipartRoute(depositSubmit, [uploadPartNames.depositProof], async (meta, files, request) => {
      const uid = sessionOnBook(request.session, 'real');
      // A missing or malformed key is refused before anything else is looked at.
      idempotencyKeyOf(request);
      // Checked before the key's transaction: the wallet's reads do not join it (PGlite has one connection).
      const checked = await deposits.check({ uid, meta, proof: files[uploadPartNames.depositProof] });
      return runOnce(db, { request, uid, path: depositSubmit.path, ...(deps.nowMs ? { nowMs: deps.nowMs } : {}) }, (trx) => deposits.record(trx, checked));
    });
  });
  return deposits;
}
