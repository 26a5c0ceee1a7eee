import { formatSignInCode } from '../../../src/shared/auth/sign-in-code';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { verifyAgainstNothing, verifyPassword } from '../../auth/passwords';
import type { SignInClient } from '../../auth/sign-in-guard';
import { generateTotpSecret, matchTotpStep } from '../../auth/totp';
import { AppError } from '../../http/app-error';
import { createBackgroundWork } from '../identity/background-work';
import type { StaffContext, StaffDependencies } from './staff-context';
import { storedRoles } from './staff-repository';
import type { StaffSessions } from './staff-sessions';

/** What an unknown e-mail's code is checked against, so that the check costs the same. */
const secretOfNobody = generateTotpSecret();

/** The account a staff member's device cookie and sign-in codes are bound to. */
const signInAccount = (email: string) => `staff:${email}`;

/**
 * Staff sign-in: e-mail, password and always the second factor. A wrong e-mail, a wrong
 * password, a wrong or replayed code and a disabled account all answer the same 1003 after
 * the same work (a password hash checked, a code matched), so the answer tells nothing
 * about which was wrong or whether the account exists. Who is held back is the sign-in
 * guard's rule (device cookies, sign-in codes), as for customers. Every try writes one
 * audit row: the sign-in, or the failure with the e-mail tried and the answer's code.
 */
export function createStaffSignIn(deps: StaffDependencies, context: StaffContext, sessions: StaffSessions) {
  const { repository, cipher, limits, signInGuard, audit, settings } = deps;
  const { limit, nowMs } = context;
  const background = createBackgroundWork(deps.log ?? (() => undefined));

  async function signIn(input: { email: string; password: string; code: string; signInCode?: string | undefined }, client: SignInClient) {
    const pass = await signInGuard.admit({
      account: signInAccount(input.email),
      delayKey: `staff-login:${input.email}`,
      addressKey: client.address,
      address: client.address,
      cookieHeader: client.cookieHeader,
      signInCode: input.signInCode,
    });
    const member = await repository.findByEmail(input.email);
    // An invited member who has not confirmed their authenticator yet is no account to sign in to: the same work, the same 1003.
    const passwordOk = member?.password_hash ? await verifyPassword(member.password_hash, input.password) : await verifyAgainstNothing(input.password);
    const secret = member?.totp_secret ? cipher.decrypt(member.totp_secret) : null;
    const step = matchTotpStep(secret ?? secretOfNobody, input.code, nowMs());
    const usable = member !== undefined && member.disabled_at === null && member.enrolled_at !== null && passwordOk && secret !== null && step !== null;
    // The step is spent only on an otherwise good sign-in, in one statement: a code works once.
    if (!usable || !(await repository.useTotpStep(member.id, step))) throw new AppError(ErrorCode.INCORRECT_ACCOUNT_OR_PASSWORD);
    const setCookie = await signInGuard.succeeded(pass, { secure: client.secure, account: signInAccount(input.email) });
    await repository.markSignedIn(member.id, context.now());
    const pair = await sessions.startSession(member.id);
    await audit.append(repository.db, { staffId: member.id, address: client.address }, {
      action: 'staff.signIn',
      targetType: 'staff',
      targetId: String(member.id),
      before: null,
      after: { via: pass.via },
    });
    return { answer: { ...pair, roles: storedRoles(member.roles), mustChangePassword: member.must_change_password }, setCookie };
  }

  return {
    /** Answers the tokens and, for a browser the account did not trust yet, the Set-Cookie header of its device cookie. */
    async login(input: { email: string; password: string; code: string; signInCode?: string | undefined }, client: SignInClient) {
      try {
        return await signIn(input, client);
      } catch (error) {
        if (error instanceof AppError) {
          // Never the password or a code: who tried which address, and what they were told.
          await audit.append(repository.db, { staffId: null, address: client.address }, {
            action: 'staff.signInFailed',
            targetType: 'staff',
            targetId: null,
            before: null,
            after: { email: input.email, code: error.code },
          });
        }
        throw error;
      }
    },

    /**
     * A sign-in code to a staff member's e-mail, for a sign-in from a new device while the
     * account's delay runs. The same answer, in the same time, for any address: the limits
     * are counted alike, and whether a member gets a code is decided off the request.
     */
    async sendSignInCode(email: string, address: string) {
      await limit(limits.signInCodeRequests, address);
      await limit(limits.signInCodesPerAddressee, email);
      background.run(async () => {
        const member = await repository.findByEmail(email);
        if (!member || member.disabled_at !== null || !deps.signInMail) return;
        const code = formatSignInCode(await signInGuard.issueCode(signInAccount(email)));
        await deps.signInMail.send({
          channel: 'email',
          to: email,
          subject: `${settings.siteName} back office: your sign-in code`,
          text: `Your ${settings.siteName} back-office sign-in code is ${code}. Enter it with your password and authenticator code to sign in from a new device now. It expires in ${Math.round(settings.signInCodeTtlMs / 60_000)} minutes. If you did not try to sign in, tell an administrator: someone may be trying your password.`,
          code,
          purpose: 'staff sign-in',
        });
      }, 'sending a staff sign-in code failed');
    },

    /** Waits for the sign-in codes still being written (server close, tests). */
    settled: () => background.settled(),
  };
}
