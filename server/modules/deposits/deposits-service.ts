import type { Transaction } from 'kysely';
import type { DepositOverMaximum } from '../../../src/shared/api/deposit';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { fallbackLanguage, isLanguageCode, type LanguageCode } from '../../../src/shared/i18n/languages';
import { depositAmountProblem, depositAmountProblemKeys, depositAmountUnits, minimumDepositUsd, PayState } from '../../../src/shared/money/deposit-rules';
import { fitsMoney, formatMoney, minMoney, money, multiplyMoney, type Units } from '../../../src/shared/money/money';
import { isValidDestinationAddress } from '../../../src/shared/money/destination-address';
import { fourEyesWindowMs } from '../../../src/shared/staff/review-rules';
import { codedNoticeActionType, NoticeCode } from '../../../src/shared/notices/notice-codes';
import type { Database } from '../../db/schema';
import { AppError } from '../../http/app-error';
import type { UploadedFile } from '../../http/multipart';
import { translate } from '../../i18n/messages';
import type { NoticesService } from '../notices/notices-service';
import type { ReviewEffectContext, ReviewsService, SubmittedReview } from '../reviews';
import type { UploadsService } from '../uploads';
import type { PreparedImage } from '../uploads/uploads-service';
import type { DepositRow, DepositsRepository } from './deposits-repository';

/** A coin network a customer can pay into, as the wallet module describes it. */
export interface DepositCoinNetwork {
  id: number;
  currencyId: number;
  /** USDT, BTC, ETH… */
  currency: string;
  /** TRC20, ERC20, Bitcoin… */
  network: string;
  enabled: boolean;
}

/** What deposits need of the wallet module (its coin networks, its USD rates) and of the ledger (the credit). */
export interface DepositMoney {
  coinNetwork(coinId: number): Promise<DepositCoinNetwork | null>;
  /** One unit of the currency in USD, exact; throws when the price is stale (no deposit is valued on it). */
  usdRate(currencyId: number): Promise<Units>;
  /** The ledger's creditWalletDeposit: house deposits → the customer's wallet, in the decision's transaction, once per key. */
  creditWalletDeposit(trx: Transaction<Database>, credit: { uid: number; currency: string; amount: Units; key: string }): Promise<unknown>;
}

export interface DepositRequest {
  uid: number;
  meta: { coinId: number; amt: string; said: string; locale: string };
  proof: UploadedFile | undefined;
}

/** A deposit that passed every check, ready to record. */
export interface CheckedDeposit {
  uid: number;
  coin: DepositCoinNetwork;
  amount: Units;
  amountUsd: Units;
  /** Re-encoded before the transaction (uploads' image pool): the transaction only keeps it. */
  proof: PreparedImage;
  said: string;
  locale: string;
}

/** Notification code of a rejected deposit (specification: 629006, shows paymentPrice). */
export const depositRejectedAlarm = NoticeCode.depositRejected;

const refused = (code: ErrorCode, key: string, params: Record<string, string | number> = {}) => new AppError(code, key, 200, null, { key, params });

const languageOf = (locale: string): LanguageCode => (isLanguageCode(locale.toLowerCase()) ? (locale.toLowerCase() as LanguageCode) : fallbackLanguage);

/** A deposit's id back from its review item (submitted as its subject). */
function depositIdOf(item: SubmittedReview): number {
  const id = Number(item.subjectRef);
  if (!Number.isSafeInteger(id)) throw new Error(`deposit review ${item.id} names no deposit: ${item.subjectRef}`);
  return id;
}

/**
 * Deposits: a customer's claim with its proof image, recorded with its review item in one
 * transaction; finance decides it in the review queue, and the 'deposit' kind's effect
 * (registered here) credits the wallet once or records the refusal, with a notice.
 */
export function createDepositsService(deps: {
  repository: DepositsRepository;
  money: DepositMoney;
  uploads: UploadsService;
  reviews: ReviewsService;
  notices: NoticesService;
  depositsEnabled: boolean;
  /** DEPOSIT_MAX_USD: no single deposit is worth more, whatever the customer's level. */
  depositMaxUsd: string;
  /** The customer's level's largest single deposit in USD (config/limits). */
  depositCapUsd: (uid: number) => Promise<string>;
  nowMs?: (() => number) | undefined;
}) {
  const { repository, uploads, reviews, notices } = deps;

  async function enabledFor(uid: number): Promise<boolean> {
    return deps.depositsEnabled && !(await repository.isBlocked(uid));
  }

  async function approve(trx: Transaction<Database>, deposit: DepositRow) {
    await repository.decide(trx, deposit.id, PayState.success, null);
    const amount = money(String(deposit.amount));
    await deps.money.creditWalletDeposit(trx, { uid: deposit.uid, currency: deposit.currency, amount, key: `deposit:${deposit.id}` });
    const language = languageOf(deposit.locale);
    const params = { amount: formatMoney(amount), currency: deposit.currency };
    // A "new message" whose event the app words in the reader's language; the stored text is its fallback.
    await notices.send(trx, {
      uid: deposit.uid,
      actionType: codedNoticeActionType,
      alarmType: NoticeCode.newMessage,
      title: translate('deposit.notice_approved_title', params, language),
      content: translate('deposit.notice_approved_content', params, language),
      paymentPrice: formatMoney(amount),
      params: { currency: deposit.currency, event: 'depositApproved' },
    });
  }

  async function reject(trx: Transaction<Database>, deposit: DepositRow, reason: string) {
    await repository.decide(trx, deposit.id, PayState.fail, reason);
    const amount = formatMoney(money(String(deposit.amount)));
    const language = languageOf(deposit.locale);
    const params = { amount, currency: deposit.currency, reason };
    await notices.send(trx, {
      uid: deposit.uid,
      actionType: codedNoticeActionType,
      alarmType: depositRejectedAlarm,
      title: translate('deposit.notice_rejected_title', params, language),
      content: translate('deposit.notice_rejected_content', params, language),
      remark: reason,
      paymentPrice: amount,
      params: { currency: deposit.currency },
    });
  }

  reviews.registerKind('deposit', {
    async effect(trx, item, outcome, context: ReviewEffectContext) {
      // The decision holds the review item's lock; the deposit is locked after it (the documented order).
      const deposit = await repository.lockWaiting(trx, depositIdOf(item));
      if (!deposit) throw new Error(`deposit ${item.subjectRef} of review ${item.id} is not waiting`);
      if (outcome === 'approved') await approve(trx, deposit);
      // A rejection always carries a reason (the review rules refuse one without).
      else await reject(trx, deposit, context.reason ?? '');
    },
  });

  return {
    async status(uid: number): Promise<{ enabled: boolean }> {
      return { enabled: await enabledFor(uid) };
    },

    /** Why finance blocked a customer's deposits; null when they are not blocked. */
    blockReason: (uid: number): Promise<string | null> => repository.blockReason(uid),

    /**
     * Blocks or unblocks a customer's deposits (finance) in the caller's transaction, with
     * the reason; `deposit/status` answers it from the next call. Before and after for the audit.
     */
    ownAddresses: (uid: number) => repository.ownAddresses(uid),

    /**
     * A customer's own deposit address as staff set it ('' removes it), checked before the
     * staff call's transaction (the network exists, the address is of its format, 1073).
     */
    async checkOwnAddress(input: { coinId: number; address: string }): Promise<{ coinNetworkId: number; address: string | null }> {
      const coin = await deps.money.coinNetwork(input.coinId);
      if (!coin) throw new AppError(ErrorCode.CURRENCY_NOT_FOUND, `no coin network ${input.coinId}`);
      const address = input.address.trim();
      if (address !== '' && !isValidDestinationAddress(coin.network, address)) throw new AppError(ErrorCode.DESTINATION_ADDRESS_INVALID, `not an address of ${coin.network}`);
      return { coinNetworkId: coin.id, address: address === '' ? null : address };
    },

    /** Stores a checked own address in the caller's transaction; answers the audit's before and after. */
    async setOwnAddress(trx: Transaction<Database>, uid: number, checked: { coinNetworkId: number; address: string | null }) {
      const before = await repository.setOwnAddress(trx, { uid, ...checked });
      return { before: { coinId: checked.coinNetworkId, address: before }, after: { coinId: checked.coinNetworkId, address: checked.address } };
    },

    async setBlocked(trx: Transaction<Database>, uid: number, blocked: boolean, reason: string) {
      const beforeReason = await repository.blockReason(uid, trx);
      await repository.setBlock(trx, uid, blocked ? reason : null);
      return { before: { blocked: beforeReason !== null, reason: beforeReason }, after: { blocked, reason } };
    },

    /**
     * Checks a deposit before anything is written (reading the coin network and its live
     * USD rate outside any transaction): refused when deposits are off for the customer, the
     * amount breaks the form's rules, the proof is missing, the network takes no deposits or
     * the worth is below the minimum of the customer's language. Every refusal changes nothing.
     */
    async check(request: DepositRequest): Promise<CheckedDeposit> {
      const { uid, meta, proof } = request;
      if (!(await enabledFor(uid))) throw refused(ErrorCode.WALLET_DEPOSIT_ERROR, 'deposit.disabled');
      const problem = depositAmountProblem(meta.amt);
      if (problem) throw refused(ErrorCode.INCORRECT_PARAMETER_CONTENT, depositAmountProblemKeys[problem]);
      if (!proof) throw refused(ErrorCode.INCORRECT_PARAMETER_CONTENT, 'deposit.upload_proof');
      const coin = await deps.money.coinNetwork(meta.coinId);
      if (!coin?.enabled) throw new AppError(ErrorCode.CURRENCY_NOT_FOUND, `no coin network ${meta.coinId} takes deposits`);
      // A self-owned wallet (walletType 1) deposits to the customer's own address on the network, named as `said`.
      const own = await repository.ownAddresses(uid);
      if (own.size > 0 && own.get(coin.id) !== meta.said.trim()) throw refused(ErrorCode.INCORRECT_PARAMETER_CONTENT, 'deposit.not_own_address');
      const amount = depositAmountUnits(meta.amt);
      const amountUsd = multiplyMoney(amount, await deps.money.usdRate(coin.currencyId));
      // A worth beyond the one decimal rule cannot be stored or shown: refused, not a fault.
      if (!fitsMoney(amountUsd)) throw refused(ErrorCode.INCORRECT_PARAMETER_VALUE, 'deposit.amount_too_large');
      const minimum = minimumDepositUsd(meta.locale);
      if (amountUsd < money(minimum)) throw refused(ErrorCode.INCORRECT_PARAMETER_VALUE, 'deposit.minimum', { amount: minimum });
      const maximum = minMoney(money(deps.depositMaxUsd), money(await deps.depositCapUsd(uid)));
      if (amountUsd > maximum) {
        // The data names the maximum for the form to show beside the amount (depositOverMaximum).
        const maxUsd = formatMoney(maximum);
        throw new AppError(ErrorCode.DEPOSIT_OVER_MAXIMUM, 'deposit.over_maximum', 200, { maxUsd } satisfies DepositOverMaximum, { key: 'deposit.over_maximum', params: { amount: maxUsd } });
      }
      const prepared = await uploads.prepareImage({ uid, purpose: 'depositProof', bytes: proof.bytes, filename: proof.filename });
      return { uid, coin, amount, amountUsd, proof: prepared, said: meta.said, locale: meta.locale };
    },

    /**
     * Records a checked deposit in the caller's transaction (the Idempotency-Key's, so a
     * replay records nothing): the proof stored, the deposit row, and its review item for
     * finance with the facts and the proof.
     */
    async record(trx: Transaction<Database>, deposit: CheckedDeposit): Promise<null> {
      const { uid, coin, amount, amountUsd } = deposit;
      // Four-eyes judges the customer's claims over the last 24 hours, this one included: splitting a large claim does not avoid a second approver.
      await repository.lockCustomer(trx, uid);
      const windowUsd = (await repository.claimedUsdSince(trx, uid, new Date((deps.nowMs ?? Date.now)() - fourEyesWindowMs))) + amountUsd;
      const proofFileId = await uploads.storeImage(trx, deposit.proof);
      const id = await repository.insert(trx, {
        uid,
        coinId: coin.id,
        currency: coin.currency,
        network: coin.network,
        amount: formatMoney(amount, 0),
        amountUsd: formatMoney(amountUsd, 0),
        proofFileId,
        locale: deposit.locale,
      });
      await reviews.submit(trx, {
        kind: 'deposit',
        uid,
        subjectRef: String(id),
        facts: {
          currency: coin.currency,
          network: coin.network,
          amount: formatMoney(amount),
          amountUsd: formatMoney(amountUsd),
          paidTo: deposit.said,
          locale: deposit.locale,
          last24hUsd: formatMoney(windowUsd),
        },
        amountUsd: formatMoney(amountUsd, 0),
        windowUsd: formatMoney(windowUsd, 0),
        files: [{ fileId: proofFileId, name: 'depositProof.jpg' }],
      });
      return null;
    },

    /** The customer's deposits as `fund/records` rows (the records module unions them with withdrawals). */
    recordSource: (uid: number) => repository.recordSource(uid),
  };
}

export type DepositsService = ReturnType<typeof createDepositsService>;
