import { createCodes } from './codes';
import { createIdentityContext, type IdentityDependencies } from './identity-context';
import { createSessions } from './sessions';
import { createSignIn } from './sign-in';
import { createSignUp } from './sign-up';
import { createTwoFactor } from './two-factor';

export { CodePurpose } from './codes';
export type { IdentityDependencies, IdentityLimits, IdentitySettings } from './identity-context';

/**
 * Sign-up, sign-in (with a second factor), password reset, codes and captchas, and the
 * session families that refresh tokens rotate within, one file per use case. Errors never
 * tell whether an account exists, except where the product says so (register: 1004).
 */
export function createIdentityService(deps: IdentityDependencies) {
  const context = createIdentityContext(deps);
  const codes = createCodes(deps, context);
  const sessions = createSessions(deps, context);
  const signUp = createSignUp(deps, context, codes);
  const signIn = createSignIn(deps, context, codes, sessions);
  const twoFactor = createTwoFactor(deps, context);
  return {
    /** Waits for the codes and notices still being sent (server close, tests). */
    settled: codes.settled,
    sendMail: codes.sendMail,
    sendPhone: codes.sendPhone,
    imageCaptcha: codes.imageCaptcha,
    register: signUp.register,
    login: signIn.login,
    forgot: signIn.forgot,
    refresh: sessions.refresh,
    sessionAlive: sessions.sessionAlive,
    logout: sessions.logout,
    switchAccount: sessions.switchAccount,
    twoFactorStatus: twoFactor.twoFactorStatus,
    twoFactorSetup: twoFactor.twoFactorSetup,
    twoFactorEnable: twoFactor.twoFactorEnable,
    twoFactorDisable: twoFactor.twoFactorDisable,

    /** Whether a user exists (the development funding route asks before crediting). */
    async userExists(uid: number): Promise<boolean> {
      return (await deps.repository.findUserByUid(uid)) !== undefined;
    },

    /** The user's profile row (the account area's `user/info`), or undefined for an unknown uid. */
    profile(uid: number) {
      return deps.repository.findUserByUid(uid);
    },

    /** Whether the back office bars the user from trading; an unknown user may not trade. */
    async tradeProhibited(uid: number): Promise<boolean> {
      const user = await deps.repository.findUserByUid(uid);
      return !user || user.trade_prohibited;
    },
  };
}

export type IdentityService = ReturnType<typeof createIdentityService>;
