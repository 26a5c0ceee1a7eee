import { loanCheck, loanInsert, loanRepaymentGet, loanRepaymentInsert } from '../../../src/shared/api/loan';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import type { DatabaseHandle } from '../../db/database';
import { isUniqueViolation } from '../../db/database-errors';
import { AppError } from '../../http/app-error';
import { idempotencyKeyOf, runOnce } from '../../http/idempotency';
import { sessionOnBook, type SignedInRoutes } from '../../http/signed-in';
import type { Ledger } from '../ledger/ledger';
import type { NoticesService } from '../notices/notices-service';
import type { ReviewsService } from '../reviews';
import type { SiteService } from '../site/site-service';
import { createLoansRepository } from './loans-repository';
import { createLoansService, type LoanLedger, type LoansService } from './loans-service';

export type { LoansService } from './loans-service';

/** What loans take of the ledger: the real book's cash and the two loan verbs. */
export function loanLedger(ledger: Ledger): LoanLedger {
  return {
    lockCash: (trx, uid) => ledger.lockCash(trx, uid, 'real'),
    cash: (trx, uid) => ledger.cashBalance(uid, 'real', trx),
    disburseLoan: (trx, loan) => ledger.disburseLoan(trx, loan),
    repayLoan: (trx, repayment) => ledger.repayLoan(trx, repayment),
  };
}

/** A parallel request the unique indexes refused (a second open loan, a second waiting repayment) as the rule's own refusal. */
async function refusingParallel<T>(code: ErrorCode, key: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(code, key, 200, null, { key, params: {} });
    throw error;
  }
}

/**
 * Loans (real book only, while the `user/loan` switch is on): `loan/check`, `loan/insert`
 * and `loan/repayment/insert` (each once per Idempotency-Key), `loan/repayment/get`; the
 * 'loan' and 'repayment' review kinds' effects.
 */
export async function registerLoans(deps: {
  database: DatabaseHandle;
  signedIn: SignedInRoutes;
  ledger: Ledger;
  reviews: ReviewsService;
  notices: NoticesService;
  site: Pick<SiteService, 'switches'>;
  /** LOAN_REPAY_AFTER_REJECTION. */
  repayAfterRejection: boolean;
  cashChanged: (uid: number) => void;
  nowMs?: (() => number) | undefined;
}): Promise<LoansService> {
  const db = deps.database.db;
  const nowMs = deps.nowMs ?? Date.now;
  const loans = createLoansService({
    repository: createLoansRepository(db),
    ledger: loanLedger(deps.ledger),
    reviews: deps.reviews,
    notices: deps.notices,
    loansEnabled: async () => (await deps.site.switches())['user/loan'],
    repayAfterRejection: deps.repayAfterRejection,
    cashChanged: deps.cashChanged,
    nowMs,
  });
  await deps.signedIn((scope) => {
    scope.route(loanCheck, async (_body, request) => loans.check(sessionOnBook(request.session, 'real')));
    scope.route(loanInsert, async (body, request) => {
      const uid = sessionOnBook(request.session, 'real');
      idempotencyKeyOf(request);
      const checked = await loans.checkRequest(uid, body);
      return refusingParallel(ErrorCode.LOAN_ALREADY_OPEN, 'loan.already_open', () =>
        runOnce(db, { request, uid, path: loanInsert.path, nowMs }, (trx) => loans.request(trx, checked)),
      );
    });
    scope.route(loanRepaymentGet, async (body, request) => loans.repayments(sessionOnBook(request.session, 'real'), body));
    scope.route(loanRepaymentInsert, async (body, request) => {
      const uid = sessionOnBook(request.session, 'real');
      idempotencyKeyOf(request);
      const checked = await loans.checkRepayment(uid, body);
      return refusingParallel(ErrorCode.REPAYMENT_WAITING, 'loan.repayment_waiting', () =>
        runOnce(db, { request, uid, path: loanRepaymentInsert.path, nowMs }, (trx) => loans.repay(trx, checked)),
      );
    });
  });
  return loans;
}
