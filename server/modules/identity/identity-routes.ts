import type { FastifyInstance } from 'fastify';
import {
  checkToken,
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
import { bindEmail, bindEmailSendCode, passwordSubmit } from '../../../src/shared/api/credentials';
import { signInClientOf } from '../../auth/sign-in-guard';
import { defineRoute } from '../../http/define-route';
import type { SignedInRoutes } from '../../http/signed-in';
import type { IdentityService } from './identity-service';

export async function registerIdentityRoutes(app: FastifyInstance, signedIn: SignedInRoutes, identity: IdentityService, options: { behindTls: boolean }) {
  defineRoute(app, sendMail, async (body, request) => identity.sendMail(body.email, Number(body.type), request.ip).then(() => null));
  defineRoute(app, sendPhone, async (body, request) => identity.sendPhone(body.phone, Number(body.type), request.ip).then(() => null));
  defineRoute(app, getImageCode, async (_body, request) => identity.imageCaptcha(request.ip));
  defineRoute(app, register, async (body, request) => identity.register(body, request.ip).then(() => null));
  defineRoute(app, login, async (body, request, reply) => {
    const { answer, setCookie } = await identity.login(body, signInClientOf(request, options.behindTls));
    if (setCookie) void reply.header('set-cookie', setCookie);
    return answer;
  });
  defineRoute(app, forgot, async (body, request) => identity.forgot(body, request.ip).then(() => null));
  defineRoute(app, refresh, async (body) => identity.refresh(body.refreshToken));

  await signedIn((scope) => {
    // `user/checkToken` is answered by the sign-in check itself (code 0, or -1 when invalid).
    scope.answeredByTheCheck(checkToken.path);
    scope.route(logout, async (_body, { session }) => identity.logout(session).then(() => null));
    scope.route(switchAccount, async (_body, { session }) => identity.switchAccount(session));
    scope.route(twoFactorStatus, async (_body, { session }) => identity.twoFactorStatus(session.uid));
    scope.route(twoFactorSetup, async (_body, { session }) => identity.twoFactorSetup(session.uid));
    scope.route(twoFactorEnable, async (body, { session, ip }) => identity.twoFactorEnable(session.uid, body.code, ip).then(() => null));
    scope.route(twoFactorDisable, async (body, { session, ip }) => identity.twoFactorDisable(session.uid, body.code, ip).then(() => null));
    scope.route(passwordSubmit, async (body, { session }) => identity.changePassword(session, body).then(() => null));
    scope.route(bindEmailSendCode, async (body, { session, ip }) => identity.sendBindEmailCode(session.uid, body.email, ip).then(() => null));
    scope.route(bindEmail, async (body, { session, ip }) => identity.bindEmail(session.uid, body, ip).then(() => null));
  });
}
