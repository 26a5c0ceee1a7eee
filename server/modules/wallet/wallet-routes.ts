import { walletBalance, walletCoinNetworks, walletRecords, walletTransform, walletTransformCalculate } from '../../../src/shared/api/wallet';
import { formatMoney } from '../../../src/shared/money/money';
import type { Kysely } from 'kysely';
import { afterCommit } from '../../db/after-commit';
import type { Database } from '../../db/schema';
import { idempotencyKeyOf, runOnce } from '../../http/idempotency';
import { sessionOnBook, type SignedInRoutes } from '../../http/signed-in';
import type { WalletService } from './wallet-service';

/** Wallets exist on the real book only: a demo token is refused on every wallet call (1001). */
export async function registerWalletRoutes(deps: {
  signedIn: SignedInRoutes;
  db: Kysely<Database>;
  wallet: WalletService;
  /** The trading cash moved: the account's open sockets hear the new balance. */
  cashChanged: (uid: number) => void;
  nowMs: () => number;
}) {
  const { wallet } = deps;
  await deps.signedIn((scope) => {
    scope.route(walletBalance, async (_body, { session }) => wallet.balances(sessionOnBook(session, 'real')));
    scope.route(walletCoinNetworks, async (_body, { session }) => {
      sessionOnBook(session, 'real');
      const [currencies, networks] = await Promise.all([wallet.currencies(), wallet.coinNetworks()]);
      const byId = new Map(currencies.filter((currency) => currency.enabled).map((currency) => [currency.id, currency]));
      return {
        dtoList: networks.flatMap((network) => {
          const currency = byId.get(network.currencyId);
          if (!currency || !network.enabled) return [];
          return [
            {
              id: network.id,
              currencyId: currency.id,
              currency: currency.code,
              protocol: network.network,
              address: network.depositAddress,
              said: network.depositAddress,
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
    scope.route(walletTransformCalculate, async (body, { session }) => {
      sessionOnBook(session, 'real');
      return wallet.calculate(body);
    });
    scope.route(walletTransform, async (body, request) => {
      const uid = sessionOnBook(request.session, 'real');
      const key = idempotencyKeyOf(request);
      return runOnce(deps.db, { request, uid, path: walletTransform.path, nowMs: deps.nowMs }, async (trx) => {
        await wallet.transform(trx, uid, body, `transfer:${uid}:${key}`);
        afterCommit(trx, () => deps.cashChanged(uid));
        return null;
      });
    });
    scope.route(walletRecords, async (body, { session }) => wallet.records(sessionOnBook(session, 'real'), body));
  });
}
