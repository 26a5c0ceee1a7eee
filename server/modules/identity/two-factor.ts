import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { generateTotpSecret, otpauthUrl } from '../../auth/totp';
import { AppError } from '../../http/app-error';
import type { IdentityContext, IdentityDependencies } from './identity-context';

/** The second factor: an authenticator app's codes, set up, turned on and off with a code. */
export function createTwoFactor(deps: IdentityDependencies, context: IdentityContext) {
  const { repository, cipher, limits, settings } = deps;
  const { limit, claim, spendTotp } = context;

  return {
    async twoFactorStatus(uid: number): Promise<{ enabled: boolean }> {
      const user = await repository.findUserByUid(uid);
      return { enabled: Boolean(user?.totp_enabled) };
    },

    /** A new secret (not yet active) and its otpauth URL for an authenticator app. */
    async twoFactorSetup(uid: number): Promise<{ otpauthUrl: string; secret: string }> {
      const user = await repository.findUserByUid(uid);
      if (!user) throw new AppError(ErrorCode.USER_NOT_FOUND);
      if (user.totp_enabled) throw new AppError(ErrorCode.STATUS_UNCHANGED);
      const secret = generateTotpSecret();
      // Conditional on the factor being off at the write, not at the read above: an enable running meanwhile wins.
      if (!(await repository.startTotpSetup(uid, cipher.encrypt(secret)))) throw new AppError(ErrorCode.STATUS_UNCHANGED);
      return { otpauthUrl: otpauthUrl(settings.siteName, user.email ?? `+${user.phone ?? uid}`, secret), secret };
    },

    async twoFactorEnable(uid: number, code: string, client: string) {
      await limit(limits.codeChecking, client);
      const throttleKey = await claim(limits.codeFailures, `totp:${uid}`);
      const user = await repository.findUserByUid(uid);
      if (!user?.totp_secret) throw new AppError(ErrorCode.QR_KEY_MISSING);
      if (user.totp_enabled) throw new AppError(ErrorCode.STATUS_UNCHANGED);
      const secret = cipher.decrypt(user.totp_secret);
      if (!secret || !(await spendTotp(uid, secret, code))) throw new AppError(ErrorCode.INVALID_VERIFICATION_CODE);
      // Only the secret the code was checked against is turned on: a set-up that replaced it meanwhile must be scanned and confirmed again.
      if (!(await repository.enableTotp(uid, user.totp_secret))) throw new AppError(ErrorCode.QR_KEY_MISSING);
      await limits.codeFailures.reset(throttleKey);
    },

    async twoFactorDisable(uid: number, code: string, client: string) {
      await limit(limits.codeChecking, client);
      // A stolen session must not be able to guess its way past the second factor.
      const throttleKey = await claim(limits.codeFailures, `totp:${uid}`);
      const user = await repository.findUserByUid(uid);
      if (!user?.totp_enabled || !user.totp_secret) throw new AppError(ErrorCode.STATUS_UNCHANGED);
      const secret = cipher.decrypt(user.totp_secret);
      if (!secret || !(await spendTotp(uid, secret, code))) throw new AppError(ErrorCode.INVALID_VERIFICATION_CODE);
      await repository.setTotp(uid, null, false);
      await limits.codeFailures.reset(throttleKey);
    },
  };
}
