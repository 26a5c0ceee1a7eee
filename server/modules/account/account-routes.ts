import type { FastifyInstance, FastifyRequest } from 'fastify';
import { resetMock, userBalance, userInfo } from '../../../src/shared/api/account';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { AppError } from '../../http/app-error';
import { defineRoute } from '../../http/define-route';
import { bookOf } from '../../../src/shared/session/token';
import type { AccountService } from './account-service';

function signedIn(request: FastifyRequest) {
  if (!request.auth) throw new AppError(ErrorCode.NOT_LOGGED_IN, undefined, 401);
  return request.auth;
}

export function registerAccountRoutes(app: FastifyInstance, accounts: AccountService) {
  defineRoute(app, userInfo, async (_body, request) => {
    const auth = signedIn(request);
    return accounts.info(auth.uid, auth.virtualStatus);
  });
  defineRoute(app, userBalance, async (_body, request) => {
    const auth = signedIn(request);
    return accounts.balance(auth.uid, bookOf(auth));
  });
  defineRoute(app, resetMock, async (_body, request) => {
    const auth = signedIn(request);
    await accounts.resetDemo(auth.uid, auth.virtualStatus);
    return null;
  });
}
