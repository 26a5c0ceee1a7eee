import type { Migration } from 'kysely';
import * as site from './0001-site';
import * as market from './0002-market';
import * as identity from './0003-identity';
import * as ledger from './0004-ledger';
import * as orders from './0005-orders';
import * as tradingRules from './0006-trading-rules';
import * as options from './0007-options';
import * as authThrottle from './0008-auth-throttle';
import * as codeRequests from './0009-code-requests';
import * as orderNumbers from './0010-order-numbers';
import * as totpLastStep from './0011-totp-last-step';
import * as staff from './0012-staff';
import * as notices from './0013-notices';
import * as reviews from './0014-reviews';
import * as wallets from './0015-wallets';
import * as uploadsDeposits from './0016-uploads-deposits';
import * as withdrawals from './0017-withdrawals';
import * as withdrawalFailureReason from './0018-withdrawal-failure-reason';
import * as identityVerification from './0019-identity-verification';
import * as profileAvatar from './0020-profile-avatar';
import * as loans from './0021-loans';
import * as noticeParams from './0022-notice-params';
import * as leaderLease from './0024-leader-lease';
import * as outboxAndLimits from './0025-outbox-and-limits';
import * as idempotencyRequestHash from './0037-idempotency-request-hash';
import * as staffEnrolment from './0030-staff-enrolment';
import * as reviewApprovalVoid from './0031-review-approval-void';
import * as configProposals from './0032-config-proposals';
import * as moneyControls from './0026-money-controls';
import * as signInTrust from './0034-sign-in-trust';
import * as verifiedDocuments from './0038-verified-documents';
import * as secondFactorRequest from './0039-second-factor-request';
import * as staffInvitationVoided from './0040-staff-invitation-voided';
import * as staffConflicts from './0041-staff-conflicts';
import * as leaseEpoch from './0042-lease-epoch';
import * as overnightFee from './0049-overnight-fee';
import * as ownDepositAddresses from './0052-own-deposit-addresses';
import * as emptyFeeType from './0053-empty-fee-type';

/** Versioned migrations, applied in key order at start. Never edit one that has shipped. */
export const migrations: Record<string, Migration> = {
  '0001-site': site,
  '0002-market': market,
  '0003-identity': identity,
  '0004-ledger': ledger,
  '0005-orders': orders,
  '0006-trading-rules': tradingRules,
  '0007-options': options,
  '0008-auth-throttle': authThrottle,
  '0009-code-requests': codeRequests,
  '0010-order-numbers': orderNumbers,
  '0011-totp-last-step': totpLastStep,
  '0012-staff': staff,
  '0013-notices': notices,
  '0014-reviews': reviews,
  '0015-wallets': wallets,
  '0016-uploads-deposits': uploadsDeposits,
  '0017-withdrawals': withdrawals,
  '0018-withdrawal-failure-reason': withdrawalFailureReason,
  '0019-identity-verification': identityVerification,
  '0020-profile-avatar': profileAvatar,
  '0021-loans': loans,
  '0022-notice-params': noticeParams,
  '0024-leader-lease': leaderLease,
  '0025-outbox-and-limits': outboxAndLimits,
  '0037-idempotency-request-hash': idempotencyRequestHash,
  '0030-staff-enrolment': staffEnrolment,
  '0031-review-approval-void': reviewApprovalVoid,
  '0032-config-proposals': configProposals,
  '0026-money-controls': moneyControls,
  '0034-sign-in-trust': signInTrust,
  '0038-verified-documents': verifiedDocuments,
  '0039-second-factor-request': secondFactorRequest,
  '0040-staff-invitation-voided': staffInvitationVoided,
  '0041-staff-conflicts': staffConflicts,
  '0042-lease-epoch': leaseEpoch,
  '0049-overnight-fee': overnightFee,
  '0052-own-deposit-addresses': ownDepositAddresses,
  '0053-empty-fee-type': emptyFeeType,
};
