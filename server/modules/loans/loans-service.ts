import type { Transaction } from 'kysely';
import type { LoanDto, RepaymentDto } from '../../../src/shared/api/loan';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { codedNoticeActionType, NoticeCode, type NoticeEvent } from '../../../src/shared/notices/notice-codes';
import { fallbackLanguage, isLanguageCode, type LanguageCode } from '../../../src/shared/i18n/languages';
import { LoanStatus, loanRequestProblem, RepaymentStatus, repaymentBlock, repaymentProblem } from '../../../src/shared/money/loan-rules';
import { formatMoney, money, type Units } from '../../../src/shared/money/money';
import { afterCommit } from '../../db/after-commit';
import type { Database } from '../../db/schema';
import { AppError } from '../../http/app-error';
import { translate } from '../../i18n/messages';
import type { NoticesService } from '../notices/notices-service';
import type { ReviewsService, SubmittedReview } from '../reviews';
import type { LoanRow, LoansRepository, RepaymentRow } from './loans-repository';

/** Notification code of a rejected loan (specification: 629021, with the reason). */
export const loanRejectedAlarm = NoticeCode.loanRejected;

/** What loans take of the ledger: the real cash, the disbursement and the repayment (each in the caller's transaction). */
export interface LoanLedger {
  /** Locks the customer's real accounts (the ledger's lock order) and answers the cash. */
  lockCash(trx: Transaction<Database>, uid: number): Promise<Units>;
  /** The customer's real cash, read in the caller's transaction. */
  cash(trx: Transaction<Database>, uid: number): Promise<Units>;
  disburseLoan(trx: Transaction<Database>, loan: { uid: number; loanId: number; amount: Units }): Promise<unknown>;
  repayLoan(trx: Transaction<Database>, repayment: { uid: number; loanId: number; repaymentId: number; amount: Units }): Promise<unknown>;
}

const refused = (code: ErrorCode, key: string, params: Record<string, string | number> = {}) => new AppError(code, key, 200, null, { key, params });
const languageOf = (locale: string): LanguageCode => (isLanguageCode(locale.toLowerCase()) ? (locale.toLowerCase() as LanguageCode) : fallbackLanguage);
const usd = (value: string | number) => formatMoney(money(String(value)));
/** A whole-dollar amount as the ledger's exact units. */
const wholeUsd = (value: number): Units => money(String(value));
/** Whole dollars of an exact amount (loans and repayments are whole hundreds). */
const dollarsOf = (units: Units): number => Number(units / 100_000_000n);
const toMs = (value: Date | string) => (value instanceof Date ? value : new Date(value)).getTime();

function subjectIdOf(item: SubmittedReview): number {
  const id = Number(item.subjectRef);
  if (!Number.isSafeInteger(id)) throw new Error(`${item.kind} review ${item.id} names no row: ${item.subjectRef}`);
  return id;
}

/**
 * Loans and repayments (real account, while `user/loan` is on): a request with a guarantor
 * (another customer), one open request or loan at a time; the 'loan' review kind (two
 * finance approvers, always) pays the amount into the trading cash from the house's loans,
 * or refuses it with notice 629021; each repayment (at most what is owed, one waiting at a
 * time) is a 'repayment' review item whose approval debits the cash and lowers what is owed,
 * ending the loan at zero.
 */
export function createLoansService(deps: {
  repository: LoansRepository;
  ledger: LoanLedger;
  reviews: ReviewsService;
  notices: NoticesService;
  loansEnabled: () => Promise<boolean>;
  /** LOAN_REPAY_AFTER_REJECTION: whether a rejected latest repayment may be tried again. */
  repayAfterRejection: boolean;
  /** The account's cash changed: its open sockets are told once the transaction commits. */
  cashChanged: (uid: number) => void;
  nowMs: () => number;
}) {
  const { repository, ledger, reviews, notices } = deps;

  function loanView(row: LoanRow): LoanDto {
    const overdue = row.status === LoanStatus.active && row.repayment_date !== null && toMs(row.repayment_date) < deps.nowMs();
    return {
      id: row.id,
      uid: row.uid,
      amount: usd(row.amount),
      amountOwed: usd(row.owed),
      days: row.days,
      guarantor: row.guarantor_uid,
      remark: row.remark,
      repaymentDate: row.repayment_date === null ? null : toMs(row.repayment_date),
      status: overdue ? LoanStatus.overdue : row.status,
      rejectReason: row.reject_reason,
      createTime: toMs(row.created_at),
    };
  }

  const repaymentView = (row: RepaymentRow): RepaymentDto => ({
    id: row.id,
    loanId: row.loan_id,
    amount: usd(row.amount),
    amountOwed: usd(row.amount_owed),
    status: row.status,
    rejectReason: row.reject_reason,
    createTime: toMs(row.created_at),
  });

  async function requireEnabled() {
    if (!(await deps.loansEnabled())) throw refused(ErrorCode.LOAN_UNAVAILABLE, 'loan.unavailable');
  }

  async function guarantorOf(uid: number, guarantor: number | string): Promise<number> {
    const text = String(guarantor).trim();
    if (text === '') throw refused(ErrorCode.INCORRECT_PARAMETER_CONTENT, 'loan.p_loan_guarantor');
    const id = /^\d{1,10}$/.test(text) ? Number(text) : NaN;
    if (!Number.isSafeInteger(id) || id === uid || !(await repository.customerExists(id))) throw refused(ErrorCode.LOAN_GUARANTOR_INVALID, 'loan.guarantor_invalid');
    return id;
  }

  /** The customer's loan named by a repayment call, locked; refused unless it is theirs and active. */
  async function activeLoanOf(trx: Transaction<Database>, uid: number, ref: { loanId: number; loanUid: number }): Promise<LoanRow> {
    const loan = ref.loanUid === uid ? await repository.lock(trx, ref.loanId) : undefined;
    if (!loan || loan.uid !== uid || loan.status !== LoanStatus.active) throw refused(ErrorCode.LOAN_NOT_ACTIVE, 'loan.not_active');
    return loan;
  }

  /**
   * A coded notice: 629021 for a rejected loan, else a "new message" (629012) naming its event;
   * the app words it by code in the reader's language, the stored text (the customer's language) is the fallback.
   */
  async function notify(
    trx: Transaction<Database>,
    uid: number,
    notice: { key: string; params: Record<string, string>; alarmType?: number; event?: NoticeEvent; remark?: string; amount: string },
  ) {
    const language = languageOf(await repository.localeOf(trx, uid));
    await notices.send(trx, {
      uid,
      actionType: codedNoticeActionType,
      alarmType: notice.alarmType ?? NoticeCode.newMessage,
      title: translate(`loan.notice_${notice.key}_title`, notice.params, language),
      content: translate(`loan.notice_${notice.key}_content`, notice.params, language),
      remark: notice.remark ?? null,
      paymentPrice: notice.amount,
      params: { currency: 'USD', ...(notice.event ? { event: notice.event } : {}) },
    });
  }

  reviews.registerKind('loan', {
    async effect(trx, item, outcome, context) {
      // The decision holds the item's lock; the customer's accounts next (the ledger's order), then the loan.
      if (outcome === 'approved') await ledger.lockCash(trx, item.uid);
      const loan = await repository.lock(trx, subjectIdOf(item));
      if (!loan || loan.status !== LoanStatus.waiting) throw new Error(`loan ${item.subjectRef} of review ${item.id} is not waiting`);
      const now = new Date(deps.nowMs());
      const amount = usd(loan.amount);
      if (outcome === 'approved') {
        await repository.approve(trx, loan.id, now, loan.days);
        await ledger.disburseLoan(trx, { uid: loan.uid, loanId: loan.id, amount: money(String(loan.amount)) });
        await notify(trx, loan.uid, { key: 'approved', params: { amount, days: String(loan.days) }, event: 'loanApproved', amount });
        afterCommit(trx, () => deps.cashChanged(loan.uid));
      } else {
        const reason = context.reason ?? '';
        await repository.reject(trx, loan.id, now, reason);
        await notify(trx, loan.uid, { key: 'rejected', params: { amount, reason }, alarmType: loanRejectedAlarm, remark: reason, amount });
      }
    },
  });

  reviews.registerKind('repayment', {
    async effect(trx, item, outcome, context) {
      const now = new Date(deps.nowMs());
      if (outcome === 'rejected') {
        const repayment = await repository.lockWaitingRepayment(trx, subjectIdOf(item));
        if (!repayment) throw new Error(`repayment ${item.subjectRef} of review ${item.id} is not waiting`);
        const reason = context.reason ?? '';
        await repository.decideRepayment(trx, repayment.id, RepaymentStatus.rejected, now, reason);
        const amount = usd(repayment.amount);
        await notify(trx, repayment.uid, { key: 'repayment_rejected', params: { amount, reason }, event: 'repaymentRejected', remark: reason, amount });
        return;
      }
      // Accounts first (the ledger's lock order), then the loan, then the repayment.
      const cash = await ledger.lockCash(trx, item.uid);
      const repayment = await repository.lockWaitingRepayment(trx, subjectIdOf(item));
      if (!repayment) throw new Error(`repayment ${item.subjectRef} of review ${item.id} is not waiting`);
      const loan = await repository.lock(trx, repayment.loan_id);
      if (!loan || loan.status !== LoanStatus.active) throw refused(ErrorCode.LOAN_NOT_ACTIVE, 'loan.not_active');
      const amount = money(String(repayment.amount));
      const owed = money(String(loan.owed));
      if (amount > owed) throw refused(ErrorCode.REPAYMENT_ABOVE_OWED, 'loan.repayment_above_owed', { owed: formatMoney(owed) });
      // Refused before anything is written; the ledger's write checks it again (no balance below zero).
      if (cash < amount) throw new AppError(ErrorCode.INSUFFICIENT_BALANCE, 'the cash no longer covers the repayment');
      await ledger.repayLoan(trx, { uid: loan.uid, loanId: loan.id, repaymentId: repayment.id, amount });
      const left = owed - amount;
      await repository.setOwed(trx, loan.id, formatMoney(left, 0), left === 0n, now);
      await repository.decideRepayment(trx, repayment.id, RepaymentStatus.approved, now, null, formatMoney(left, 0));
      const params = { amount: formatMoney(amount), owed: formatMoney(left) };
      await notify(trx, loan.uid, { key: left === 0n ? 'repaid' : 'repayment_approved', params, event: 'repaymentApproved', amount: formatMoney(amount) });
      afterCommit(trx, () => deps.cashChanged(loan.uid));
    },
  });

  return {
    /** `loan/check`: the customer's latest loan, or null. */
    async check(uid: number): Promise<{ dto: LoanDto | null }> {
      await requireEnabled();
      const row = await repository.latest(uid);
      return { dto: row ? loanView(row) : null };
    },

    /** Checks a request before its transaction (the guarantor's lookup reads outside it). */
    async checkRequest(uid: number, request: { amount: number; days: number; guarantor: number | string; remark: string }) {
      await requireEnabled();
      const problem = loanRequestProblem(request);
      if (problem) throw refused(ErrorCode.INCORRECT_PARAMETER_CONTENT, problem === 'amount' ? 'loan.amount_invalid' : 'loan.days_invalid');
      const guarantorUid = await guarantorOf(uid, request.guarantor);
      return { uid, amount: request.amount, days: request.days, guarantorUid, remark: request.remark };
    },

    /**
     * Records a checked request and its review item in the caller's transaction (the
     * Idempotency-Key's): refused while another request or loan is open (the unique index
     * refuses a parallel one too).
     */
    async request(trx: Transaction<Database>, checked: { uid: number; amount: number; days: number; guarantorUid: number; remark: string }): Promise<null> {
      if (await repository.lockOpen(trx, checked.uid)) throw refused(ErrorCode.LOAN_ALREADY_OPEN, 'loan.already_open');
      const amount = formatMoney(wholeUsd(checked.amount), 0);
      const id = await repository.insert(trx, { uid: checked.uid, amount, days: checked.days, guarantorUid: checked.guarantorUid, remark: checked.remark });
      await reviews.submit(trx, {
        kind: 'loan',
        uid: checked.uid,
        subjectRef: String(id),
        facts: { amount: usd(amount), days: String(checked.days), guarantor: String(checked.guarantorUid), remark: checked.remark },
        amountUsd: usd(amount),
      });
      return null;
    },

    /** `loan/repayment/get`: the repayments of the customer's own loan, newest first. */
    async repayments(uid: number, ref: { loanId: number; loanUid: number }): Promise<{ dtoList: RepaymentDto[]; repayAfterRejection: boolean }> {
      await requireEnabled();
      // Only the owner reads a loan's repayments; another's loan is refused as not theirs.
      const loan = ref.loanUid === uid ? await repository.find(ref.loanId) : undefined;
      if (!loan || loan.uid !== uid) throw refused(ErrorCode.LOAN_NOT_ACTIVE, 'loan.not_active');
      const rows = await repository.repayments(loan.id);
      return { dtoList: rows.map(repaymentView), repayAfterRejection: deps.repayAfterRejection };
    },

    async checkRepayment(uid: number, request: { loanId: number; loanUid: number; amount: number }) {
      await requireEnabled();
      if (request.amount <= 0) throw refused(ErrorCode.INCORRECT_PARAMETER_CONTENT, 'loan.p_loan_repayment_no_zero');
      if (repaymentProblem(request.amount, Number.MAX_SAFE_INTEGER) === 'step') throw refused(ErrorCode.INCORRECT_PARAMETER_CONTENT, 'loan.repayment_step');
      return { uid, ...request };
    },

    /**
     * Records a repayment and its review item in the caller's transaction: the loan must be
     * the caller's and active, the latest repayment approved (or none; a rejected one only under
     * LOAN_REPAY_AFTER_REJECTION), the amount at most what is owed
     * and covered by the cash now (checked again at approval).
     */
    async repay(trx: Transaction<Database>, request: { uid: number; loanId: number; loanUid: number; amount: number }): Promise<null> {
      const loan = await activeLoanOf(trx, request.uid, request);
      const latest = await repository.latestRepayment(trx, loan.id);
      const block = repaymentBlock(latest ? [latest] : [], { repayAfterRejection: deps.repayAfterRejection });
      if (block === 'waiting') throw refused(ErrorCode.REPAYMENT_WAITING, 'loan.repayment_waiting');
      if (block === 'rejected') throw refused(ErrorCode.INCORRECT_PARAMETER_CONTENT, 'loan.p_loan_repayment_reject');
      const owed = money(String(loan.owed));
      const problem = repaymentProblem(request.amount, dollarsOf(owed));
      if (problem === 'above') throw refused(ErrorCode.REPAYMENT_ABOVE_OWED, 'loan.repayment_above_owed', { owed: formatMoney(owed) });
      const amount = wholeUsd(request.amount);
      if ((await ledger.cash(trx, request.uid)) < amount) throw new AppError(ErrorCode.INSUFFICIENT_BALANCE, 'the cash does not cover the repayment');
      const amountOwed = formatMoney(owed - amount, 0);
      const id = await repository.insertRepayment(trx, { loanId: loan.id, uid: request.uid, amount: formatMoney(amount, 0), amountOwed });
      await reviews.submit(trx, {
        kind: 'repayment',
        uid: request.uid,
        subjectRef: String(id),
        facts: { loan: String(loan.id), amount: formatMoney(amount), owedBefore: formatMoney(owed), owedAfter: usd(amountOwed) },
        amountUsd: formatMoney(amount),
      });
      return null;
    },
  };
}

export type LoansService = ReturnType<typeof createLoansService>;
