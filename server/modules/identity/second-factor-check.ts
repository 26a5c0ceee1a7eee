import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { AppError } from '../../http/app-error';
import type { IdentityContext, IdentityDependencies } from './identity-context';

/**
 * The second factor asked before a money action (a withdrawal, a new destination): with
 * the authenticator on, the code is required (1076 without one) and checked as at sign-in,
 * against the account's failure throttle (a stolen session cannot guess it here faster) and
 * spent once (1020 when wrong or replayed by another request; a retry of the same
 * idempotent request is not a replay). Without it, nothing is asked.
 */
export function createSecondFactorCheck(deps: IdentityDependencies, context: IdentityContext) {
  const { repository, cipher, limits } = deps;
  const { limit, claim, spendTotp } = context;

  return {
    /** `request`: the idempotent request's tag, so that its retry with the same code is not a replay. */
    async confirmSecondFactor(uid: number, code: string | undefined, client: string, request: string | null = null): Promise<void> {
      const user = await repository.findUserByUid(uid);
      if (!user?.totp_enabled || !user.totp_secret) return;
      if (code === undefined || code.trim() === '') throw new AppError(ErrorCode.SECOND_FACTOR_REQUIRED);
      await limit(limits.codeChecking, client);
      const throttleKey = await claim(limits.codeFailures, `totp:${uid}`);
      const secret = cipher.decrypt(user.totp_secret);
      if (!secret || !(await spendTotp(uid, secret, code.trim(), request))) throw new AppError(ErrorCode.INVALID_VERIFICATION_CODE);
      await limits.codeFailures.reset(throttleKey);
    },
  };
}
