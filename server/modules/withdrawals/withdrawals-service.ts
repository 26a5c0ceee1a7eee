import crypto from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { WithdrawalNeedsVerification, WithdrawalQuoteData, WithdrawalRecord, WithdrawBoundsData, WithdrawLimitsData } from '../../../src/shared/api/withdraw';
import type { Switches } from '../../../src/shared/config/switches';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { maskedTail } from '../../../src/shared/money/encoded-field';
import { formatMoney, money, multiplyMoney, parseMoney, type Units } from '../../../src/shared/money/money';
import { dailyWindowMs, holdUntilMs, meetsLevel, monthlyWindowMs, withdrawalAllowance, type LevelLimits, type VerificationLevelName } from '../../../src/shared/money/withdrawal-limits';
import { codedNoticeActionType, NoticeCode } from '../../../src/shared/notices/notice-codes';
import {
  parseWithdrawalAmount,
  typedWithdrawalBounds,
  withdrawalQuote,
  withdrawalRefusal,
  withinBounds,
  withdrawalBounds,
  type WithdrawalChannel,
  type WithdrawalRefusal,
} from '../../../src/shared/money/withdrawal-quote';
import { inTransaction } from '../../db/after-commit';
import type { Database, WithdrawalStatus } from '../../db/schema';
import { AppError } from '../../http/app-error';
import type { NoticesService } from '../notices';
import type { ReviewEffectContext, ReviewsService, SubmittedReview } from '../reviews';
import type { SavedDestinations } from './saved-destinations';
import type { SealedFields } from './sealed-fields';
import { bankChannelTerms, bankMetaView, coinChannel, type CoinNetworkTerms } from './withdrawal-channels';
import type { WithdrawalLimits } from './withdrawal-limits';
import type { WithdrawalsRepository } from './withdrawals-repository';

/** The notification code of a rejected withdrawal (spec "Notification codes"), and of any other news. */
export const withdrawalRejectedAlarm = NoticeCode.withdrawalRejected;
export const newMessageAlarm = NoticeCode.newMessage;
/** The notice's `actionType` for a withdrawal's outcome (a coded notification, not a staff text). */
const withdrawalNoticeActionType = codedNoticeActionType;

/** The ledger's withdrawal verbs (server/modules/ledger), each a balanced journal in the caller's transaction. */
export interface WithdrawalLedger {
  /** The balance check and the hold are one conditional write; INSUFFICIENT_BALANCE when it does not fit. */
  holdWithdrawal(trx: Transaction<Database>, input: { uid: number; currency: string; amount: Units; key: string }): Promise<void>;
  /** The held amount paid out, its fee to the house, exactly once per key. */
  payWithdrawal(trx: Transaction<Database>, input: { holdKey: string; fee: Units; key: string }): Promise<void>;
  /** The held amount back to the wallet, exactly once per key. */
  releaseWithdrawal(trx: Transaction<Database>, input: { holdKey: string; key: string }): Promise<void>;
  /** What the customer's wallet of a currency holds, available to withdraw. */
  walletAvailable(uid: number, currency: string): Promise<Units>;
}

/** What the wallet module tells withdrawals: its currencies, coin networks and live USD rates. */
export interface WithdrawalWallet {
  currencyCode(currencyId: number): Promise<string | null>;
  coinNetworks(): Promise<readonly CoinNetworkTerms[]>;
  /** The currency's USD value per unit (refuses a stale price). */
  usdRate(currencyId: number): Promise<Units>;
}

/** A submission checked before its transaction: what the hold and the row will record. */
export interface PreparedWithdrawal {
  channel: Channel;
  amount: Units;
  fee: Units;
  practical: Units;
  amountUsd: Units;
  destination: string;
  bankCardId: number | null;
  /** The customer's level's limits, read before the transaction. */
  limits: LevelLimits;
}

interface Channel {
  kind: 'crypto' | 'bank';
  currencyId: number;
  currency: string;
  terms: WithdrawalChannel;
  coinNetworkId: number | null;
}

/** A bank withdrawal's destination as sealed at submission: the card's details of that moment. */
const bankDestinationSeparator = ' · ';
function bankDestinationOf(card: { bankName: string; swiftCode: string; name: string; account: string }): string {
  return [`${card.bankName} ${card.swiftCode}`.trim(), card.name, card.account].join(bankDestinationSeparator).trim();
}

/**
 * What the customer's records show of where a withdrawal went, never the whole of it: a
 * card's bank with the account's last 4 digits, an address's first 6 and last 4 characters.
 */
export function maskedDestinationOf(channel: 'crypto' | 'bank', plain: string): string {
  if (channel === 'bank') {
    const parts = plain.split(bankDestinationSeparator);
    const account = parts.at(-1) ?? '';
    const bank = parts.length > 1 ? (parts[0] ?? '') : '';
    return `${bank} ${maskedTail(account)}`.trim();
  }
  return plain.length > 10 ? `${plain.slice(0, 6)}****${plain.slice(-4)}` : maskedTail(plain);
}

const toMs = (value: Date | string) => (value instanceof Date ? value : new Date(value)).getTime();
/** The locale key a submission's refusal is worded by (the range's has its own, with the bounds). */
const withdrawalRefusalKeys: Record<Exclude<WithdrawalRefusal['reason'], 'amount_range'>, string> = {
  practical_rule: 'withdraw.practicalNum_rule',
  practical_mismatch: 'withdraw.fee_changed',
  insufficient_balance: 'withdraw.insufficient_balance',
};

const payStateOf: Record<WithdrawalStatus, 0 | 1 | 2> = { pending: 0, paid: 1, rejected: 2, canceled: 2 };

/**
 * Withdrawals: the quote, the submission (hold, row and review item in one transaction),
 * the review's outcome (paid or released, with a notice) and the customer's cancel. While one
 * awaits review the customer cannot trade on the real account (406).
 */
export function createWithdrawalsService(deps: {
  db: Kysely<Database>;
  repository: WithdrawalsRepository;
  saved: SavedDestinations;
  sealed: SealedFields;
  ledger: WithdrawalLedger;
  wallet: WithdrawalWallet;
  reviews: Pick<ReviewsService, 'submit' | 'cancel' | 'registerKind'>;
  notices: Pick<NoticesService, 'send'>;
  switches: () => Promise<Switches>;
  /** The customer's verification level (none, junior, full): it names their limits and whether they may withdraw. */
  verificationLevel: (uid: number) => Promise<VerificationLevelName>;
  /** The level a withdrawal needs (WITHDRAW_MIN_VERIFICATION); the `withdrawNeedsVerification` switch raises it to full. */
  minLevel: VerificationLevelName;
  /** The limits by level (config/limits). */
  limits: Pick<WithdrawalLimits, 'read'>;
  /** When the password, the second factor or the e-mail last changed (identity's); null: never. */
  securityChangedAt: (uid: number) => Promise<Date | null>;
  /** The cooling-off after a security change or a new destination (WITHDRAWAL_HOLD_SECONDS), in ms. */
  holdMs: number;
  nowMs?: () => number;
}) {
  const { db, repository, ledger, wallet, sealed } = deps;
  const now = () => new Date((deps.nowMs ?? Date.now)());

  async function cryptoChannel(currencyId: number, coinId: number): Promise<Channel> {
    const network = (await wallet.coinNetworks()).find((item) => item.id === coinId && item.enabled);
    if (!network || network.currencyId !== currencyId) throw new AppError(ErrorCode.CURRENCY_NOT_FOUND);
    return { kind: 'crypto', currencyId, currency: network.currencyCode, terms: coinChannel(network), coinNetworkId: network.id };
  }

  async function bankChannel(): Promise<Channel> {
    const terms = await bankChannelTerms(db);
    const currency = terms ? await wallet.currencyCode(terms.currencyId) : null;
    // The specification's own words for a missing channel ("bank card meta not found.").
    if (!terms || !terms.enabled || currency === null) throw new AppError(ErrorCode.DATA_NOT_FOUND, 'bank card meta not found.');
    return { kind: 'bank', currencyId: terms.currencyId, currency, terms, coinNetworkId: null };
  }

  /**
   * 1067 when the customer's verification is below what a withdrawal needs: junior by default
   * (WITHDRAW_MIN_VERIFICATION), full while the brand's `withdrawNeedsVerification` is on.
   * Answers the customer's level.
   */
  async function assertVerifiedIfRequired(uid: number): Promise<VerificationLevelName> {
    const required = (await deps.switches()).withdrawNeedsVerification ? 'full' : deps.minLevel;
    const level = await deps.verificationLevel(uid);
    if (!meetsLevel(level, required)) throw new AppError(ErrorCode.WITHDRAWAL_NEEDS_VERIFICATION, undefined, 200, { requiredLevel: required } satisfies WithdrawalNeedsVerification);
    return level;
  }

  /** When the cooling-off ends (ms), after the latest new destination or security change; null when none runs. */
  async function holdUntil(uid: number): Promise<number | null> {
    const [destination, security] = await Promise.all([deps.saved.latestChangeAt(uid), deps.securityChangedAt(uid)]);
    return holdUntilMs([destination?.getTime() ?? null, security?.getTime() ?? null], deps.holdMs, now().getTime());
  }

  /** 1072 with the hold's end (the message in UTC; the data for the app to show in the customer's zone). */
  async function assertNoHold(uid: number) {
    const until = await holdUntil(uid);
    if (until === null) return;
    const untilText = `${new Date(until).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
    throw new AppError(ErrorCode.WITHDRAWAL_ON_HOLD, 'cooling-off hold', 200, { holdUntilTs: until }, { key: 'withdraw.on_hold', params: { until: untilText } });
  }

  /** The rolling windows' starts, as of now. */
  function windows() {
    const nowMs = now().getTime();
    return { day: new Date(nowMs - dailyWindowMs), month: new Date(nowMs - monthlyWindowMs) };
  }

  async function statusFlags() {
    const switches = await deps.switches();
    const bank = await bankChannelTerms(db);
    return {
      // NO_WALLET_WITHDRAW is the typed-address mode (the saved-wallet entry hidden), not crypto withdrawal off.
      cryptoEnabled: true,
      bankCardEnabled: switches.BANK_CARD_WITHDRAW && switches['user/bankCard'] && bank !== null && bank.enabled,
    };
  }

  async function quote(uid: number, channel: Channel, num: string): Promise<WithdrawalQuoteData> {
    const amount = parseWithdrawalAmount(num);
    if (amount === null) throw new AppError(ErrorCode.INCORRECT_PARAMETER_VALUE, 'num');
    const [usdRate, available] = await Promise.all([wallet.usdRate(channel.currencyId), ledger.walletAvailable(uid, channel.currency)]);
    const bounds = withdrawalBounds(channel.terms, usdRate);
    if (!withinBounds(amount, bounds)) throw rangeError(bounds.min, bounds.max);
    return withdrawalQuote({ amount, channel: channel.terms, usdRate, available });
  }

  function rangeError(min: Units, max: Units) {
    return new AppError(ErrorCode.INCORRECT_PARAMETER_VALUE, 'amount outside the withdrawal limits', 200, { min: formatMoney(min), max: formatMoney(max) }, {
      key: 'withdraw.amount_limit',
      params: { min: formatMoney(min), max: formatMoney(max) },
    });
  }

  /**
   * Everything a submission reads, before the idempotent call's transaction opens: the
   * method on, the amount within bounds, the practical amount the customer saw. The balance
   * is the hold's own check (inside), so a replayed key still answers its first answer.
   */
  async function prepare(
    uid: number,
    level: VerificationLevelName,
    channel: Channel,
    input: { num: string; practicalNum: string; destination: string; bankCardId: number | null },
  ): Promise<PreparedWithdrawal> {
    const enabled = await statusFlags();
    if (!(channel.kind === 'crypto' ? enabled.cryptoEnabled : enabled.bankCardEnabled)) throw new AppError(ErrorCode.WITHDRAWAL_UNAVAILABLE);
    const amount = parseWithdrawalAmount(input.num);
    const practicalSeen = parseMoney(input.practicalNum);
    if (amount === null || practicalSeen === null) throw new AppError(ErrorCode.INCORRECT_PARAMETER_VALUE, 'num');
    const usdRate = await wallet.usdRate(channel.currencyId);
    const refusal = withdrawalRefusal({ amount, practicalSeen, channel: channel.terms, usdRate, available: amount });
    if (refusal?.reason === 'amount_range') throw rangeError(money(refusal.min), money(refusal.max));
    // Each refusal in the customer's words (the code's own text is generic): what to change.
    if (refusal) throw new AppError(refusal.code, refusal.reason, 200, null, { key: withdrawalRefusalKeys[refusal.reason], params: {} });
    await assertNoHold(uid);
    const limits = (await deps.limits.read())[level];
    return { channel, amount, fee: amount - practicalSeen, practical: practicalSeen, amountUsd: multiplyMoney(amount, usdRate), destination: input.destination, bankCardId: input.bankCardId, limits };
  }

  /**
   * The withdrawal, its hold and its review item, in the idempotent call's transaction. The
   * row first: the unique index lets a customer have one awaiting review (1070), so parallel
   * placements take turns there, and what this one then sums of the customer's withdrawals
   * (itself included) is all there is: the limits (1071) and four-eyes' 24 hours cannot be
   * split across parallel calls. Any refusal rolls the whole call back.
   */
  async function place(trx: Transaction<Database>, uid: number, prepared: PreparedWithdrawal) {
    const { channel, amount, fee, amountUsd } = prepared;
    const practicalSeen = prepared.practical;
    const input = { destination: prepared.destination, bankCardId: prepared.bankCardId };
    const holdKey = `withdrawal-hold:${crypto.randomUUID()}`;
    const id = await repository.insert(trx, {
      uid,
      channel: channel.kind,
      currency_id: channel.currencyId,
      coin_network_id: channel.coinNetworkId,
      bank_card_id: input.bankCardId,
      destination_sealed: sealed.seal(input.destination),
      key_id: sealed.keyId,
      amount: formatMoney(amount),
      fee: formatMoney(fee),
      practical: formatMoney(practicalSeen),
      amount_usd: formatMoney(amountUsd),
      hold_key: holdKey,
      created_at: now(),
    });
    if (id === null) throw new AppError(ErrorCode.WITHDRAWAL_UNDER_REVIEW);
    const used = await repository.usedUsdSince(trx, uid, windows());
    const allowance = withdrawalAllowance(prepared.limits, { dayUsd: money(used.dayUsd) - amountUsd, monthUsd: money(used.monthUsd) - amountUsd });
    if (amountUsd > allowance.leftUsd) {
      const left = formatMoney(allowance.leftUsd);
      throw new AppError(ErrorCode.WITHDRAWAL_OVER_LIMIT, 'over the withdrawal limit', 200, { leftUsd: left }, {
        key: allowance.leftUsd === allowance.dailyLeftUsd ? 'withdraw.over_daily_limit' : 'withdraw.over_monthly_limit',
        params: { amount: left },
      });
    }
    // The hold: when the balance does not fit (203), nothing of this call is kept.
    await ledger.holdWithdrawal(trx, { uid, currency: channel.currency, amount, key: holdKey });
    const windowUsd = formatMoney(money(used.dayUsd));
    await deps.reviews.submit(trx, {
      kind: 'withdrawal',
      uid,
      subjectRef: String(id),
      amountUsd: formatMoney(amountUsd),
      windowUsd,
      facts: {
        channel: channel.kind === 'crypto' ? 'crypto address' : 'bank card',
        currency: channel.currency,
        amount: formatMoney(amount),
        fee: formatMoney(fee),
        practical: formatMoney(practicalSeen),
        amountUsd: formatMoney(amountUsd),
        last24hUsd: windowUsd,
        destination: input.destination,
      },
    });
  }

  /** A decided review's effect, in the decision's transaction (the item is locked; the withdrawal after it). */
  async function decided(trx: Transaction<Database>, item: SubmittedReview, outcome: 'approved' | 'rejected', context: ReviewEffectContext) {
    const row = await repository.lock(trx, Number(item.subjectRef));
    if (!row) throw new Error(`withdrawal ${item.subjectRef} of review ${item.id} does not exist`);
    // Already canceled or decided: the review item's own status guards this; a second run changes nothing.
    if (row.status !== 'pending') return;
    const currency = row.currency_code;
    const amount = formatMoney(money(String(row.amount)));
    if (outcome === 'approved') {
      await ledger.payWithdrawal(trx, { holdKey: row.hold_key, fee: money(String(row.fee)), key: `withdrawal-pay:${row.id}` });
      await repository.setStatus(trx, row.id, 'paid', now());
      await deps.notices.send(trx, {
        uid: row.uid,
        actionType: withdrawalNoticeActionType,
        alarmType: newMessageAlarm,
        title: 'Withdrawal approved',
        content: `Your withdrawal of ${amount} ${currency} was approved and paid out.`,
        paymentPrice: amount,
        // The app words it in the reader's language from the event and the currency; the text above is the fallback.
        params: { currency, event: 'withdrawalApproved' },
      });
      return;
    }
    await ledger.releaseWithdrawal(trx, { holdKey: row.hold_key, key: `withdrawal-release:${row.id}` });
    await repository.setStatus(trx, row.id, 'rejected', now(), context.reason);
    await deps.notices.send(trx, {
      uid: row.uid,
      actionType: withdrawalNoticeActionType,
      alarmType: withdrawalRejectedAlarm,
      title: 'Withdrawal rejected',
      content: `Your withdrawal of ${amount} ${currency} was rejected; the amount is back in your wallet.`,
      remark: context.reason,
      paymentPrice: amount,
      params: { currency },
    });
  }

  deps.reviews.registerKind('withdrawal', { effect: decided });

  return {
    hasPendingWithdrawal: (uid: number) => repository.hasPending(uid),

    /** `withdraw/status`: the blocked code first (1066 none offered, 1067 verification required, 1070 one awaiting review), else the flags. */
    async status(uid: number) {
      const flags = await statusFlags();
      if (!flags.cryptoEnabled && !flags.bankCardEnabled) throw new AppError(ErrorCode.WITHDRAWAL_UNAVAILABLE);
      await assertVerifiedIfRequired(uid);
      if (await repository.hasPending(uid)) throw new AppError(ErrorCode.WITHDRAWAL_UNDER_REVIEW);
      return flags;
    },

    /** `withdraw/limits`: the customer's level, what is left of the day's and the month's limits, and the hold's end. */
    async limitsLeft(uid: number): Promise<WithdrawLimitsData> {
      const [level, limits, holdUntilTs] = await Promise.all([deps.verificationLevel(uid), deps.limits.read(), holdUntil(uid)]);
      const used = await repository.usedUsdSince(db, uid, windows());
      const allowance = withdrawalAllowance(limits[level], { dayUsd: money(used.dayUsd), monthUsd: money(used.monthUsd) });
      return { level, dailyLeftUsd: formatMoney(allowance.dailyLeftUsd), monthlyLeftUsd: formatMoney(allowance.monthlyLeftUsd), holdUntilTs };
    },

    async bankMeta() {
      const channel = await bankChannel();
      const terms = await bankChannelTerms(db);
      return bankMetaView(terms!, channel.currency);
    },

    /**
     * `withdraw/walletCalculate`: the specification makes `coinId` optional. Without it the quote
     * is the currency's one enabled network's; a currency on several networks has no single fee,
     * so the quote asks for the network instead of guessing one.
     */
    async walletCalculate(uid: number, body: { currencyId: number; coinId?: number | undefined; num: string }) {
      if (body.coinId !== undefined) return quote(uid, await cryptoChannel(body.currencyId, body.coinId), body.num);
      const networks = (await wallet.coinNetworks()).filter((item) => item.currencyId === body.currencyId && item.enabled);
      if (networks.length === 0) throw new AppError(ErrorCode.CURRENCY_NOT_FOUND);
      if (networks.length > 1) throw new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, 'coinId is required: this currency is withdrawn on several networks');
      return quote(uid, await cryptoChannel(body.currencyId, networks[0]!.id), body.num);
    },

    /** `withdraw/bounds`: the coin's (with coinId) or the bank channel's bounds within the USD limits at the live rate, as amounts can be typed. */
    async bounds(body: { currencyId: number; coinId?: number | undefined }): Promise<WithdrawBoundsData> {
      const channel = body.coinId !== undefined ? await cryptoChannel(body.currencyId, body.coinId) : await bankChannel();
      if (channel.currencyId !== body.currencyId) throw new AppError(ErrorCode.CURRENCY_NOT_FOUND);
      const bounds = typedWithdrawalBounds(withdrawalBounds(channel.terms, await wallet.usdRate(channel.currencyId)));
      return { min: formatMoney(bounds.min), max: formatMoney(bounds.max) };
    },

    async bankCalculate(uid: number, body: { currencyId: number; num: string }) {
      const channel = await bankChannel();
      if (channel.currencyId !== body.currencyId) throw new AppError(ErrorCode.CURRENCY_NOT_FOUND);
      return quote(uid, channel, body.num);
    },

    place,

    /** A crypto withdrawal checked and ready to place (reads only). */
    async prepareCrypto(uid: number, aesKey: string, body: { num: string; practicalNum: string; currencyId: number; coinId: number; paymentAddress: string }) {
      const level = await assertVerifiedIfRequired(uid);
      const channel = await cryptoChannel(body.currencyId, body.coinId);
      const address = sealed.decodeFromClient(body.paymentAddress, aesKey, 'paymentAddress').trim();
      if (address === '') throw new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, 'paymentAddress is empty');
      // Money goes only to an address the customer saved for this network (and so waited out its cooling-off).
      if (!(await deps.saved.isSavedAddress(uid, channel.coinNetworkId!, address))) {
        if (!(await deps.switches()).NO_WALLET_WITHDRAW) throw new AppError(ErrorCode.DESTINATION_NOT_SAVED);
        // The typed-address mode (NO_WALLET_WITHDRAW): a new address is kept as the customer's
        // destination first (its network's format checked, 1073), so it waits out the cooling-off
        // (1072 below) exactly as a saved one does; the saved list is only not shown.
        const save = await deps.saved.prepareAddress(aesKey, { currencyId: channel.coinNetworkId!, cryptocurrencyAddress: body.paymentAddress });
        await inTransaction(db, (trx) => save(trx, uid));
      }
      return prepare(uid, level, channel, { num: body.num, practicalNum: body.practicalNum, destination: address, bankCardId: null });
    },

    /** A bank card withdrawal checked and ready to place (reads only; another user's card is not found). */
    async prepareBank(uid: number, body: { num: string; practicalNum: string; userBankId: number }) {
      const level = await assertVerifiedIfRequired(uid);
      const channel = await bankChannel();
      const card = await deps.saved.cardDetails(db, uid, body.userBankId);
      if (!card) throw new AppError(ErrorCode.DATA_NOT_FOUND);
      const destination = bankDestinationOf(card);
      return prepare(uid, level, channel, { num: body.num, practicalNum: body.practicalNum, destination, bankCardId: body.userBankId });
    },

    /**
     * The customer withdraws a withdrawal still under review: the review item closes (no
     * staff decision), the hold is released. Once staff decided, it stays decided.
     */
    async cancel(uid: number, id: number) {
      const owned = await repository.ownedPending(uid, id);
      if (!owned) throw new AppError(ErrorCode.DATA_NOT_FOUND);
      await inTransaction(db, async (trx) => {
        // The review item first (the lock order), then the withdrawal.
        const canceled = await deps.reviews.cancel(trx, { kind: 'withdrawal', subjectRef: String(id), note: 'canceled by the customer' });
        if (!canceled) throw new AppError(ErrorCode.STATUS_UNCHANGED, 'the withdrawal was already decided');
        const row = await repository.lock(trx, id);
        if (!row || row.status !== 'pending') throw new AppError(ErrorCode.STATUS_UNCHANGED, 'the withdrawal was already decided');
        await ledger.releaseWithdrawal(trx, { holdKey: row.hold_key, key: `withdrawal-release:${row.id}` });
        await repository.setStatus(trx, row.id, 'canceled', now());
      });
    },

    /** The customer's withdrawals as `fund/records` rows, for the records module's UNION ALL. */
    recordSource: (uid: number) => repository.recordSource(uid),

    /** A records row's destination, opened and masked (null for a row that is not a withdrawal). */
    recordDestination(row: { channel: string | null; destination_sealed: string | null; key_id: string | null }): string | null {
      if ((row.channel !== 'crypto' && row.channel !== 'bank') || row.destination_sealed === null || row.key_id === null) return null;
      return maskedDestinationOf(row.channel, sealed.open(row.destination_sealed, row.key_id));
    },

    /** The customer's withdrawals alone (`withdraw/list`; `fund/records` has both kinds). */
    async records(uid: number, page: number, size: number): Promise<{ list: WithdrawalRecord[]; pages: number }> {
      const { rows, total } = await repository.page(uid, page, size);
      const list: WithdrawalRecord[] = [];
      for (const row of rows) {
        list.push({
          id: row.id,
          actionType: 1,
          currency: (await wallet.currencyCode(row.currency_id)) ?? '',
          payPrice: formatMoney(money(String(row.amount))),
          withdrawUsdPrice: formatMoney(money(String(row.amount_usd))),
          fee: formatMoney(money(String(row.fee))),
          practical: formatMoney(money(String(row.practical))),
          payState: payStateOf[row.status],
          submitTimeTs: toMs(row.created_at),
        });
      }
      return { list, pages: Math.ceil(total / size) };
    },
  };
}
export type WithdrawalsService = ReturnType<typeof createWithdrawalsService>;
