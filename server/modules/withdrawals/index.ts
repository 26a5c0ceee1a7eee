import { createDataCipher, loadDataKey } from '../../auth/data-key';
import type { DatabaseHandle } from '../../db/database';
import type { SignedInRoutes } from '../../http/signed-in';
import type { Settings } from '../../settings';
import type { NoticesService } from '../notices';
import type { ReviewsService } from '../reviews';
import type { SiteService } from '../site/site-service';
import { createSavedDestinations } from './saved-destinations';
import { createSavedDestinationsRepository } from './saved-destinations-repository';
import { createSealedFields } from './sealed-fields';
import type { WithdrawalsRepository } from './withdrawals-repository';
import { registerWithdrawalsRoutes, type Idempotent } from './withdrawals-routes';
import { createWithdrawalsService, type WithdrawalLedger, type WithdrawalWallet, type WithdrawalsService } from './withdrawals-service';

export { createWithdrawalsRepository, type WithdrawalsRepository } from './withdrawals-repository';
export { withdrawalLedger, withdrawalWallet } from './module-adapters';
export type { WithdrawalsService } from './withdrawals-service';

/**
 * Withdrawals (issue 16): saved crypto addresses and bank cards (personal fields sealed with
 * the data key), the fee quote, the submission with its hold and its 'withdrawal' review
 * item, the review's effect (paid or released, with a notice) and the customer's cancel.
 * Its repository is created before trading and options, which ask it whether a withdrawal
 * awaits review (406).
 */
export async function registerWithdrawals(deps: {
  settings: Settings;
  database: DatabaseHandle;
  dataDir: string | null;
  repository: WithdrawalsRepository;
  ledger: WithdrawalLedger;
  wallet: WithdrawalWallet;
  reviews: ReviewsService;
  notices: NoticesService;
  site: Pick<SiteService, 'switches'>;
  /** The customer's full identity verification status (2 verified): the `withdrawNeedsVerification` switch asks it. */
  verifiedStatus: (uid: number) => Promise<number>;
  idempotent: Idempotent;
  signedIn: SignedInRoutes;
  /** Refuses (1040, p_bind_email_first) a phone account without an e-mail while binding is on: identity's rule. */
  requireEmail: (uid: number) => Promise<void>;
  nowMs?: (() => number) | undefined;
}): Promise<WithdrawalsService> {
  const cipher = createDataCipher(await loadDataKey({ dataKeySetting: deps.settings.dataEncryptionKey, dataDir: deps.dataDir }));
  const sealed = createSealedFields(cipher);
  const saved = createSavedDestinations({
    repository: createSavedDestinationsRepository(deps.database.db),
    sealed,
    coinNetworks: () => deps.wallet.coinNetworks(),
  });
  const withdrawals = createWithdrawalsService({
    db: deps.database.db,
    repository: deps.repository,
    saved,
    sealed,
    ledger: deps.ledger,
    wallet: deps.wallet,
    reviews: deps.reviews,
    notices: deps.notices,
    switches: () => deps.site.switches(),
    verifiedStatus: deps.verifiedStatus,
    ...(deps.nowMs ? { nowMs: deps.nowMs } : {}),
  });
  await registerWithdrawalsRoutes(deps.signedIn, { saved, withdrawals, idempotent: deps.idempotent, requireEmail: deps.requireEmail });
  return withdrawals;
}
