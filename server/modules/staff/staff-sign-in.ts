import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { verifyAgainstNothing, verifyPassword } from '../../auth/passwords';
import { generateTotpSecret, matchTotpStep } from '../../auth/totp';
import { AppError } from '../../http/app-error';
import type { StaffContext, StaffDependencies } from './staff-context';
import { storedRoles } from './staff-repository';
import type { StaffSessions } from './staff-sessions';

/** What an unknown e-mail's code is checked against, so that the check costs the same. */
const secretOfNobody = generateTotpSecret();

/**
 * Staff sign-in: e-mail, password and always the second factor. A wrong e-mail, a wrong
 * password, a wrong or replayed code and a disabled account all answer the same 1003 after
 * the same work (a password hash checked, a code matched), so the answer tells nothing
 * about which was wrong or whether the account exists.
 */
export function createStaffSignIn(deps: StaffDependencies, context: StaffContext, sessions: StaffSessions) {
  const { repository, cipher, limits } = deps;
  const { limit, claim, nowMs } = context;

  return {
    async login(input: { email: string; password: string; code: string }, address: string) {
      await limit(limits.signInPerAddress, address);
      // Per account whatever the address: counted before the password is checked, so even the right one waits while the delay runs.
      const accountKey = await claim(limits.signInPerAccount, `staff-login:${input.email}`);
      const member = await repository.findByEmail(input.email);
      // An invited member who has not confirmed their authenticator yet is no account to sign in to: the same work, the same 1003.
      const passwordOk = member?.password_hash ? await verifyPassword(member.password_hash, input.password) : await verifyAgainstNothing(input.password);
      const secret = member?.totp_secret ? cipher.decrypt(member.totp_secret) : null;
      const step = matchTotpStep(secret ?? secretOfNobody, input.code, nowMs());
      const usable = member !== undefined && member.disabled_at === null && member.enrolled_at !== null && passwordOk && secret !== null && step !== null;
      // The step is spent only on an otherwise good sign-in, in one statement: a code works once.
      if (!usable || !(await repository.useTotpStep(member.id, step))) throw new AppError(ErrorCode.INCORRECT_ACCOUNT_OR_PASSWORD);
      await limits.signInPerAddress.reset(address);
      await limits.signInPerAccount.reset(accountKey);
      await repository.markSignedIn(member.id, context.now());
      const pair = await sessions.startSession(member.id);
      return { ...pair, roles: storedRoles(member.roles), mustChangePassword: member.must_change_password };
    },
  };
}
