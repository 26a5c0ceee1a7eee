import { isValidEmail, isValidNewPassword, isValidVerificationCode } from '../../../src/shared/auth/validation';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { afterCommit } from '../../db/after-commit';
import { isUniqueViolation } from '../../db/database-errors';
import { hashPassword, verifyPassword } from '../../auth/passwords';
import { AppError } from '../../http/app-error';
import { bindEmailCodeKey, CodePurpose, type Codes } from './codes';
import type { IdentityContext, IdentityDependencies } from './identity-context';

/** The user row as the e-mail binding rule reads it. */
interface BindingCandidate {
  register_type: 'E' | 'P';
  email: string | null;
}

/** The specification's rule: the switch on, a phone-registered user, no e-mail yet. */
export function mayBindEmail(user: BindingCandidate, switchOn: boolean): boolean {
  return switchOn && user.register_type === 'P' && user.email === null;
}

/**
 * A signed-in customer's credentials: the password change (the old one checked under the
 * account's failure throttle; every session ends on success) and binding an e-mail to a
 * phone-registered account with a code sent to the address.
 */
export function createCredentials(deps: IdentityDependencies, context: IdentityContext, codes: Codes) {
  const { repository, limits, events } = deps;
  const { claim, now } = context;

  async function bindingSwitchOn(): Promise<boolean> {
    return (await deps.switches())['user/bindEmail'];
  }

  /** The address of a bind request, checked and in lower case; refused (1041) when this user may not bind one. */
  async function bindableAddress(uid: number, email: string): Promise<string> {
    const user = await repository.findUserByUid(uid);
    if (!user || !mayBindEmail(user, await bindingSwitchOn())) throw new AppError(ErrorCode.EMAIL_BINDING_UNAVAILABLE);
    if (!isValidEmail(email)) throw new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, 'e-mail');
    return email.toLowerCase();
  }

  return {
    /**
     * Changes the password of a signed-in user. The try is counted against the account's
     * failure throttle before the old password is checked (so it cannot be guessed here
     * faster than at sign-in); the check, the new hash and the end of every session of the
     * user happen in one transaction under the user's row lock, so of two parallel changes
     * with the same old password only the first succeeds. The sockets close after the commit.
     */
    async changePassword(session: { uid: number; fid?: string | undefined }, input: { oldPassword: string; newPassword: string }) {
      if (!isValidNewPassword(input.newPassword)) throw new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, 'newPassword');
      const throttleKey = await claim(limits.accountSignIn, `password-change:${session.uid}`);
      const newHash = await hashPassword(input.newPassword);
      await repository.inTransaction(async (trx) => {
        const user = await repository.lockUser(trx, session.uid);
        if (!user) throw new AppError(ErrorCode.SESSION_ENDED);
        // A change that waited for the lock behind one that ended this session changes nothing.
        const family = session.fid ? await trx.selectFrom('session_family').select('revoked_at').where('id', '=', session.fid).executeTakeFirst() : undefined;
        if (!family || family.revoked_at) throw new AppError(ErrorCode.SESSION_ENDED);
        if (!(await verifyPassword(user.password_hash, input.oldPassword))) throw new AppError(ErrorCode.INCORRECT_ACCOUNT_OR_PASSWORD);
        if (input.oldPassword === input.newPassword) throw new AppError(ErrorCode.PASSWORD_UNCHANGED);
        await repository.updatePassword(user.uid, newHash, trx);
        await repository.revokeFamiliesOfUser(user.uid, 'password-change', now(), trx);
        afterCommit(trx, () => events.sessionsEnded.announce({ uid: user.uid }));
      });
      await limits.accountSignIn.reset(throttleKey);
    },

    /** Step 1 of binding: a code to the address (the answer is the same whether or not another account has it). */
    async sendBindEmailCode(uid: number, email: string, client: string) {
      await codes.sendBindEmailCode(uid, await bindableAddress(uid, email), client);
    },

    /**
     * Step 2: the code sent for this user and this address (spent once: a replay is 1020),
     * then the address set in the user's row under its lock; an address another account
     * took meanwhile is 1006. Afterwards the address signs in too.
     */
    async bindEmail(uid: number, input: { email: string; code: string }, client: string) {
      const email = await bindableAddress(uid, input.email);
      if (!isValidVerificationCode(input.code)) throw new AppError(ErrorCode.INVALID_VERIFICATION_CODE);
      await codes.checkCode(bindEmailCodeKey(uid, email), CodePurpose.bindEmail, input.code, client);
      try {
        await repository.inTransaction(async (trx) => {
          const user = await repository.lockUser(trx, uid);
          if (!user || !mayBindEmail(user, await bindingSwitchOn())) throw new AppError(ErrorCode.EMAIL_BINDING_UNAVAILABLE);
          if (!(await repository.bindEmail(trx, uid, email))) throw new AppError(ErrorCode.EMAIL_BINDING_UNAVAILABLE);
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError(ErrorCode.CONTACT_DUPLICATED);
        throw error;
      }
    },

    /**
     * Refuses (1040, p_bind_email_first) a phone-registered user without an e-mail while
     * binding is on: what a feature that needs an e-mail asks before it acts.
     */
    async requireEmail(uid: number) {
      const user = await repository.findUserByUid(uid);
      if (user && mayBindEmail(user, await bindingSwitchOn())) throw new AppError(ErrorCode.BIND_EMAIL_FIRST);
    },
  };
}
