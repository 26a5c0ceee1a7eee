import {
  bankCardDelete,
  bankCardInsert,
  bankCardList,
  bankCardOne,
  bankCardPaging,
  bankCardUpdate,
  cryptoWalletDelete,
  cryptoWalletInsert,
  cryptoWalletList,
  withdrawBankCalculate,
  withdrawBankMeta,
  withdrawBankSubmit,
  withdrawBounds,
  withdrawCancel,
  withdrawLimits,
  withdrawList,
  withdrawStatus,
  withdrawSubmit,
  withdrawWalletCalculate,
} from '../../../src/shared/api/withdraw';
import type { Transaction } from 'kysely';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { AppError } from '../../http/app-error';
import type { Database } from '../../db/schema';
import { sessionOnBook, type SignedInRequest, type SignedInRoutes } from '../../http/signed-in';
import type { SavedDestinations } from './saved-destinations';
import type { WithdrawalsService } from './withdrawals-service';

/**
 * Runs a money call once per `Idempotency-Key` of the caller: a replay answers the first
 * answer. `confirm` runs only before a first run (not for a replay), with the request's tag.
 */
export type Idempotent = <T>(
  request: SignedInRequest,
  uid: number,
  path: string,
  work: (trx: Transaction<Database>) => Promise<T>,
  confirm?: (requestTag: string) => Promise<void>,
) => Promise<T>;

/**
 * The customer's saved addresses, bank cards and withdrawals (src/shared/api/withdraw.ts):
 * real accounts only (a demo session is refused), each answering only the caller's rows.
 */
export async function registerWithdrawalsRoutes(
  signedIn: SignedInRoutes,
  deps: {
    saved: SavedDestinations;
    withdrawals: WithdrawalsService;
    idempotent: Idempotent;
    requireEmail: (uid: number) => Promise<void>;
    /**
     * With the authenticator on, a withdrawal and a new destination ask its code (1076
     * missing, 1020 wrong or spent by another request). Asked only before the idempotent
     * call's first run: a retry of the same key and body answers the first result.
     */
    confirmSecondFactor: (uid: number, code: string | undefined, client: string, requestTag: string | null) => Promise<void>;
  },
) {
  const { saved, withdrawals, idempotent, requireEmail, confirmSecondFactor } = deps;
  const real = (request: SignedInRequest) => sessionOnBook(request.session, 'real');
  await signedIn((scope) => {
    scope.route(cryptoWalletList, async (body, request) => saved.addresses(real(request), request.session.aesKey, body.pageNum, body.pageSize));
    scope.route(cryptoWalletInsert, async (body, request) => {
      const uid = real(request);
      const save = await saved.prepareAddress(request.session.aesKey, body);
      return idempotent(
        request,
        uid,
        cryptoWalletInsert.path,
        async (trx) => {
          await save(trx, uid);
          return null;
        },
        (tag) => confirmSecondFactor(uid, body.totpCode, request.ip, tag),
      );
    });
    scope.route(cryptoWalletDelete, async (body, request) => {
      await saved.deleteAddress(real(request), body.walletId);
      return null;
    });

    scope.route(bankCardList, async (body, request) => {
      const paging = bankCardPaging(body);
      if (!paging) throw new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, 'page and pageNum (or limit and pageSize) disagree');
      return saved.cards(real(request), paging.page, paging.limit);
    });
    scope.route(bankCardOne, async (body, request) => saved.card(real(request), request.session.aesKey, body.id));
    scope.route(bankCardInsert, async (body, request) => {
      const uid = real(request);
      return idempotent(
        request,
        uid,
        bankCardInsert.path,
        async (trx) => {
          await saved.addCard(trx, uid, request.session.aesKey, body);
          return null;
        },
        (tag) => confirmSecondFactor(uid, body.totpCode, request.ip, tag),
      );
    });
    // A changed card is a new destination: the second factor, and the cooling-off after it; once per Idempotency-Key like the other money calls.
    scope.route(bankCardUpdate, async (body, request) => {
      const uid = real(request);
      return idempotent(
        request,
        uid,
        bankCardUpdate.path,
        async (trx) => {
          await saved.updateCard(trx, uid, request.session.aesKey, body.id, body);
          return null;
        },
        (tag) => confirmSecondFactor(uid, body.totpCode, request.ip, tag),
      );
    });
    scope.route(bankCardDelete, async (body, request) => {
      await saved.deleteCard(real(request), body.id);
      return null;
    });

    scope.route(withdrawStatus, async (_body, request) => withdrawals.status(real(request)));
    scope.route(withdrawLimits, async (_body, request) => withdrawals.limitsLeft(real(request)));
    scope.route(withdrawBankMeta, async (_body, request) => {
      real(request);
      return withdrawals.bankMeta();
    });
    scope.route(withdrawWalletCalculate, async (body, request) => withdrawals.walletCalculate(real(request), body));
    scope.route(withdrawBankCalculate, async (body, request) => withdrawals.bankCalculate(real(request), body));
    scope.route(withdrawBounds, async (body, request) => {
      real(request);
      return withdrawals.bounds(body);
    });
    // Money leaves the account only for a customer reachable by e-mail (p_bind_email_first).
    scope.route(withdrawSubmit, async (body, request) => {
      const uid = real(request);
      await requireEmail(uid);
      const withdrawal = await withdrawals.prepareCrypto(uid, request.session.aesKey, body);
      return idempotent(
        request,
        uid,
        withdrawSubmit.path,
        async (trx) => {
          await withdrawals.place(trx, uid, withdrawal);
          return null;
        },
        (tag) => confirmSecondFactor(uid, body.totpCode, request.ip, tag),
      );
    });
    scope.route(withdrawBankSubmit, async (body, request) => {
      const uid = real(request);
      await requireEmail(uid);
      const withdrawal = await withdrawals.prepareBank(uid, body);
      return idempotent(
        request,
        uid,
        withdrawBankSubmit.path,
        async (trx) => {
          await withdrawals.place(trx, uid, withdrawal);
          return null;
        },
        (tag) => confirmSecondFactor(uid, body.totpCode, request.ip, tag),
      );
    });
    scope.route(withdrawCancel, async (body, request) => {
      await withdrawals.cancel(real(request), body.id);
      return null;
    });
    scope.route(withdrawList, async (body, request) => withdrawals.records(real(request), body.pageNum, body.pageSize));
  });
}
