import { createDataCipher, loadDataKey } from '../../auth/data-key';
import type { DatabaseHandle } from '../../db/database';
import type { SignedInRoutes } from '../../http/signed-in';
import type { Settings } from '../../settings';
import type { NoticesService } from '../notices';
import type { ReviewsService } from '../reviews';
import type { SiteService } from '../site/site-service';
import type { StaffRoutes } from '../staff';
import type { VerificationLevelName } from '../../../src/shared/money/withdrawal-limits';
import { createSavedDestinations } from './saved-destinations';
import { createSavedDestinationsRepository } from './saved-destinations-repository';
import { createSealedFields } from './sealed-fields';
import type { ProposalsService } from '../config-proposals/proposals-service';
import { registerLimitsConfigRoutes } from './limits-config-routes';
import type { WithdrawalLimits } from './withdrawal-limits';
import type { WithdrawalsRepository } from './withdrawals-repository';
import { registerWithdrawalsRoutes, type Idempotent } from './withdrawals-routes';
import { createWithdrawalsService, type WithdrawalLedger, type WithdrawalWallet, type WithdrawalsService } from './withdrawals-service';

export { createWithdrawalsRepository, type WithdrawalsRepository } from './withdrawals-repository';
export { withdrawalLedger, withdrawalWallet } from './module-adapters';
export type { WithdrawalsService } from './withdrawals-service';
export { createWithdrawalLimits, type WithdrawalLimits } from './withdrawal-limits';

/**
 * Withdrawals (issue 16): saved crypto addresses and bank cards (personal fields sealed with
 * the data key), the fee quote, the submission with its hold and its 'withdrawal' review
 * item, the review's effect (paid or released, with a notice) and the customer's cancel;
 * the money controls of issue 31: limits by verification level (config/limits), the
 * cooling-off hold, payment only to saved destinations, the second factor.
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
  /** The customer's verification level (none, junior, full): their limits, and whether they may withdraw at all. */
  verificationLevel: (uid: number) => Promise<VerificationLevelName>;
  idempotent: Idempotent;
  signedIn: SignedInRoutes;
  /** The limits by level (made before deposits, which read the deposit cap), and the admin's routes for them. */
  limits: WithdrawalLimits;
  staffRoutes: StaffRoutes;
  /** Dual control: a change of the limits waits for a second admin. */
  proposals: Pick<ProposalsService, 'registerKind' | 'propose'>;
  /** Refuses (1040, p_bind_email_first) a phone account without an e-mail while binding is on: identity's rule. */
  requireEmail: (uid: number) => Promise<void>;
  /** Identity's: when the password, second factor or e-mail last changed, and the second factor asked before a money action. */
  securityChangedAt: (uid: number) => Promise<Date | null>;
  confirmSecondFactor: (uid: number, code: string | undefined, client: string, requestTag: string | null) => Promise<void>;
  nowMs?: (() => number) | undefined;
}): Promise<WithdrawalsService> {
  const cipher = createDataCipher(await loadDataKey({ dataKeySetting: deps.settings.dataEncryptionKey, dataDir: deps.dataDir }));
  const sealed = createSealedFields(cipher);
  const saved = createSavedDestinations({
    repository: createSavedDestinationsRepository(deps.database.db),
    sealed,
    coinNetworks: () => deps.wallet.coinNetworks(),
  });
  const { limits } = deps;
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
    verificationLevel: deps.verificationLevel,
    minLevel: deps.settings.withdrawMinVerification,
    limits,
    securityChangedAt: deps.securityChangedAt,
    holdMs: deps.settings.withdrawalHoldSeconds * 1000,
    ...(deps.nowMs ? { nowMs: deps.nowMs } : {}),
  });
  await registerWithdrawalsRoutes(deps.signedIn, {
    saved,
    withdrawals,
    idempotent: deps.idempotent,
    requireEmail: deps.requireEmail,
    confirmSecondFactor: deps.confirmSecondFactor,
  });
  registerLimitsConfigRoutes(deps.staffRoutes, { limits, proposals: deps.proposals, settings: deps.settings });
  return withdrawals;
}
