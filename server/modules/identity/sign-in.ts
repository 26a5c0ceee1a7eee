import type { ContactType } from '../../../src/shared/api/auth';
import { isValidNewPassword } from '../../../src/shared/auth/validation';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { hashPassword, verifyAgainstNothing, verifyPassword } from '../../auth/passwords';
import type { SignInClient } from '../../auth/sign-in-guard';
import { AppError } from '../../http/app-error';
import { CodePurpose, type Codes } from './codes';
import type { IdentityContext, IdentityDependencies } from './identity-context';
import type { Sessions } from './sessions';

/** Sign-in (with a second factor when the user has one) and the password reset. */
export function createSignIn(deps: IdentityDependencies, context: IdentityContext, codes: Codes, sessions: Sessions) {
  const { repository, cipher, limits, signInGuard } = deps;
  const { limit, spendTotp, normalizeContact, signInAccount } = context;

  return {
    /**
     * Answers the tokens and, when this browser was not trusted by the account yet, the
     * Set-Cookie header of its device cookie (see server/auth/sign-in-guard.ts).
     */
    async login(
      input: { username: string; password: string; type: ContactType; command?: 'verification' | undefined; authCode?: string | undefined; signInCode?: string | undefined },
      client: SignInClient,
    ): Promise<{ answer: { token: string; refreshToken: string; qrcodeStatus: 0 | 1 }; setCookie: string | null }> {
      const account = `${input.type}|${input.username.toLowerCase()}`;
      // A known device is held back only by its own failures; any other try by the address
      // limit and by the account's delay (counted before the password is checked, so even the
      // right one waits while it runs) unless it brings a live sign-in code.
      const pass = await signInGuard.admit({
        account: signInAccount(input.type, input.username),
        delayKey: `login:${account}`,
        addressKey: `${client.address}|${account}`,
        address: client.address,
        cookieHeader: client.cookieHeader,
        signInCode: input.signInCode,
      });
      let user;
      try {
        user = await repository.findUserByContact(input.type, normalizeContact(input.type, input.username));
      } catch {
        user = undefined; // a malformed contact is just a wrong account
      }
      const passwordOk = user ? await verifyPassword(user.password_hash, input.password) : await verifyAgainstNothing(input.password);
      if (!user || !passwordOk) throw new AppError(ErrorCode.INCORRECT_ACCOUNT_OR_PASSWORD);
      if (user.blocked) throw new AppError(ErrorCode.USER_BLOCKED);
      if (user.totp_enabled && user.totp_secret) {
        if (input.command !== 'verification' || !input.authCode) return { answer: { token: '', refreshToken: '', qrcodeStatus: 0 }, setCookie: null };
        await limit(limits.codeChecking, client.address);
        const secret = cipher.decrypt(user.totp_secret);
        if (!secret || !(await spendTotp(user.uid, secret, input.authCode.padStart(6, '0')))) throw new AppError(ErrorCode.INVALID_VERIFICATION_CODE);
      }
      const setCookie = await signInGuard.succeeded(pass, { secure: client.secure, account: signInAccount(input.type, input.username) });
      return { answer: { ...(await sessions.startSession(user.uid)), qrcodeStatus: 1 }, setCookie };
    },

    async forgot(input: { username: string; password: string; type: ContactType; code: string }, client: string) {
      const destination = normalizeContact(input.type, input.username);
      if (!isValidNewPassword(input.password)) throw new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, 'password');
      await codes.checkCode(destination, CodePurpose.forgot, input.code, client);
      const user = await repository.findUserByContact(input.type, destination);
      if (!user) throw new AppError(ErrorCode.INVALID_VERIFICATION_CODE); // an unknown contact's code is never sent: only a lucky guess gets here
      await repository.updatePassword(user.uid, await hashPassword(input.password));
      await sessions.endAllSessions(user.uid, 'password-reset');
    },
  };
}
