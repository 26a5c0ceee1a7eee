import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  forgot,
  getImageCode,
  login,
  logout,
  refresh,
  register,
  sendMail,
  sendPhone,
  switchAccount,
  twoFactorDisable,
  twoFactorEnable,
  twoFactorSetup,
  twoFactorStatus,
} from '../../../src/shared/api/auth';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { AppError } from '../../http/app-error';
import { defineRoute } from '../../http/define-route';
import type { MessageDelivery } from './delivery';
import type { IdentityService } from './identity-service';

function signedIn(request: FastifyRequest) {
  if (!request.auth) throw new AppError(ErrorCode.NOT_LOGGED_IN, undefined, 401);
  return request.auth;
}

export function registerIdentityRoutes(app: FastifyInstance, identity: IdentityService, options: { delivery: MessageDelivery; devOutbox: boolean }) {
  defineRoute(app, sendMail, async (body, request) => identity.sendMail(body.email, Number(body.type), request.ip).then(() => null));
  defineRoute(app, sendPhone, async (body, request) => identity.sendPhone(body.phone, Number(body.type), request.ip).then(() => null));
  defineRoute(app, getImageCode, async (_body, request) => identity.imageCaptcha(request.ip));
  defineRoute(app, register, async (body, request) => identity.register(body, request.ip).then(() => null));
  defineRoute(app, login, async (body, request) => identity.login(body, request.ip));
  defineRoute(app, forgot, async (body, request) => identity.forgot(body, request.ip).then(() => null));
  defineRoute(app, refresh, async (body) => identity.refresh(body.refreshToken));

  // `user/checkToken` is answered by the sign-in check itself (code 0, or -1 when invalid).
  app.post('/v1/waa/user/checkToken', async () => ({ code: ErrorCode.SUCCESS, msg: 'success', data: null }));
  defineRoute(app, logout, async (_body, request) => identity.logout(signedIn(request)).then(() => null));
  defineRoute(app, switchAccount, async (_body, request) => identity.switchAccount(signedIn(request)));
  defineRoute(app, twoFactorStatus, async (_body, request) => identity.twoFactorStatus(signedIn(request).uid));
  defineRoute(app, twoFactorSetup, async (_body, request) => identity.twoFactorSetup(signedIn(request).uid));
  defineRoute(app, twoFactorEnable, async (body, request) => identity.twoFactorEnable(signedIn(request).uid, body.code, request.ip).then(() => null));
  defineRoute(app, twoFactorDisable, async (body, request) => identity.twoFactorDisable(signedIn(request).uid, body.code, request.ip).then(() => null));

  if (options.devOutbox) {
    // Development only (DEV_OUTBOX=1, never by default): read the codes the outbox received.
    app.get('/dev/outbox', async (request, reply) => {
      const to = (request.query as { to?: string }).to ?? '';
      if (!to) return reply.status(400).send({ error: 'to is required' });
      return options.delivery.outboxFor(to.replace(/^\+/, ''));
    });
  }
}
