import { afterCommit, type Executor } from '../../db/after-commit';
import { createCodes } from './codes';
import { createCredentials } from './credentials';
import { createIdentityContext, type IdentityDependencies } from './identity-context';
import { createSessions } from './sessions';
import { createSignIn } from './sign-in';
import { createSignUp } from './sign-up';
import { createSecondFactorCheck } from './second-factor-check';
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
  const credentials = createCredentials(deps, context, codes);
  const secondFactor = createSecondFactorCheck(deps, context);
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
    liveSession: sessions.liveSession,
    logout: sessions.logout,
    switchAccount: sessions.switchAccount,
    twoFactorStatus: twoFactor.twoFactorStatus,
    twoFactorSetup: twoFactor.twoFactorSetup,
    twoFactorEnable: twoFactor.twoFactorEnable,
    twoFactorDisable: twoFactor.twoFactorDisable,
    changePassword: credentials.changePassword,
    sendBindEmailCode: credentials.sendBindEmailCode,
    bindEmail: credentials.bindEmail,
    /** Refuses (1040) a user who must bind an e-mail before a feature that needs one. */
    requireEmail: credentials.requireEmail,
    /** Asks the authenticator's code before a money action when the user has one on (1076 missing, 1020 wrong). */
    confirmSecondFactor: secondFactor.confirmSecondFactor,

    /** When the password, the second factor or the e-mail last changed (withdrawals cool off after it); null: never. */
    async securityChangedAt(uid: number): Promise<Date | null> {
      const user = await deps.repository.findUserByUid(uid);
      return user?.security_changed_at ? new Date(user.security_changed_at) : null;
    },

    /** Whether a user exists (a notice to one customer asks before sending). */
    async userExists(uid: number): Promise<boolean> {
      return (await deps.repository.findUserByUid(uid)) !== undefined;
    },

    /** The user's e-mail, or null (a phone-registered user without one), in the caller's transaction. */
    async emailOf(uid: number, executor: Executor): Promise<string | null> {
      return (await deps.repository.findUserByUid(uid, executor))?.email ?? null;
    },

    /** The user's profile row (the account area's `user/info`), or undefined for an unknown uid. */
    profile(uid: number) {
      return deps.repository.findUserByUid(uid);
    },

    // The back office: identity owns the user, so staff actions on one go through here.

    /** Customers whose uid is the query, or whose e-mail (any case) or phone starts with it. */
    searchCustomers(query: string, page: number, limit: number) {
      return deps.repository.searchUsers(query, page, limit);
    },

    /** Every customer's uid as one query (a notice to everyone inserts from it in one statement). */
    customerUidsQuery(executor: Executor) {
      return deps.repository.customerUidsQuery(executor);
    },

    /**
     * Prohibits or allows the user's trading with a reason, in the caller's transaction
     * (the user's row locked); answers the flag before and after, undefined for an unknown uid.
     * Every order path reads the flag at placement with its session check (`LiveSession`), so the next order is refused.
     */
    async setTradeProhibited(executor: Executor, uid: number, prohibited: boolean, reason: string) {
      const user = await deps.repository.lockUser(executor, uid);
      if (!user) return undefined;
      const at = new Date(context.nowMs());
      await deps.repository.setTradeProhibited(executor, uid, { prohibited, reason, at });
      return {
        before: { tradeProhibited: user.trade_prohibited, reason: user.trade_prohibited_reason },
        after: { tradeProhibited: prohibited, reason },
      };
    },

    /**
     * Ends every session of the user in the caller's transaction; after the commit the
     * user's open sockets close. Their next call answers SESSION_ENDED. Answers how many
     * live sessions ended; null for an unknown uid.
     */
    async endAllSessionsIn(executor: Executor, uid: number, reason: string): Promise<number | null> {
      const user = await deps.repository.lockUser(executor, uid);
      if (!user) return null;
      const ended = await deps.repository.revokeFamiliesOfUser(uid, reason, new Date(context.nowMs()), executor);
      afterCommit(executor, () => deps.events.sessionsEnded.announce({ uid }));
      return ended;
    },
  };
}

export type IdentityService = ReturnType<typeof createIdentityService>;
