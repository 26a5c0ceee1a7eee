import { resetMock, userBalance, userInfo } from '../../../src/shared/api/account';
import { bookOf } from '../../../src/shared/session/token';
import type { SignedInRoutes } from '../../http/signed-in';
import type { AccountService } from './account-service';

export async function registerAccountRoutes(signedIn: SignedInRoutes, accounts: AccountService) {
  await signedIn((scope) => {
    scope.route(userInfo, async (_body, { session }) => accounts.info(session.uid, session.virtualStatus));
    scope.route(userBalance, async (_body, { session }) => accounts.balance(session.uid, bookOf(session)));
    scope.route(resetMock, async (_body, { session }) => {
      await accounts.resetDemo(session.uid, session.virtualStatus);
      return null;
    });
  });
}
