import crypto from 'node:crypto';
import type { ContactType } from '../../../src/shared/api/auth';
import { isValidNewPassword, isValidVerificationCode } from '../../../src/shared/auth/validation';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { hashPassword } from '../../auth/passwords';
import { isUniqueViolation } from '../../db/database-errors';
import { AppError } from '../../http/app-error';
import { CodePurpose, type Codes } from './codes';
import type { IdentityContext, IdentityDependencies } from './identity-context';

/** Tries at a user row before giving up: a contact taken meanwhile ends them at once, an invite code that collides is drawn again. */
const createUserAttempts = 5;

function inviteCodeCandidate(): string {
  return crypto.randomBytes(5).toString('base64url').replace(/[-_]/g, 'X').toUpperCase().slice(0, 6);
}

/** Sign-up: by e-mail or phone, with a code (or the image captcha where phone sign-up sends no SMS). */
export function createSignUp(deps: IdentityDependencies, context: IdentityContext, codes: Codes) {
  const { repository, cipher, limits, events } = deps;
  const { limit, nowMs, now, normalizeContact } = context;

  return {
    async register(
      input: { username: string; password: string; type: ContactType; code: string; locale: string; inviteCode?: string | undefined; uuid?: string | undefined; captcha?: string | undefined },
      client: string,
    ) {
      const switches = await deps.switches();
      const destination = normalizeContact(input.type, input.username);
      if (input.type === 'P' && !switches.PHONE_REGISTER) throw new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, 'phone sign-up is off');
      if (!isValidNewPassword(input.password)) throw new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, 'password');
      let invitedBy: number | null = null;
      if (input.inviteCode && !switches.hideRegisterInviteCode) {
        const inviter = await repository.findUserByInviteCode(input.inviteCode);
        if (!inviter) throw new AppError(ErrorCode.INVALID_INVITATION_CODE);
        invitedBy = inviter.uid;
      }
      if (input.type === 'P' && !switches.PHONE_REGISTER_SMS_VERIFICATION) {
        // Phone sign-up without SMS: the image captcha stands in for the code.
        await limit(limits.codeChecking, client);
        if (!input.uuid || !input.captcha) throw new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, 'captcha');
        const captcha = await repository.takeCaptcha(input.uuid, now());
        if (!captcha || captcha.expires_at.getTime() <= nowMs()) throw new AppError(ErrorCode.VERIFICATION_CODE_EXPIRED);
        if (captcha.answer_hash !== cipher.digest(`captcha:${input.uuid}:${input.captcha.toUpperCase()}`)) throw new AppError(ErrorCode.INVALID_VERIFICATION_CODE);
      } else {
        if (!isValidVerificationCode(input.code)) throw new AppError(ErrorCode.INVALID_VERIFICATION_CODE);
        await codes.checkCode(destination, CodePurpose.register, input.code, client);
      }
      if (await repository.findUserByContact(input.type, destination)) throw new AppError(ErrorCode.ACCOUNT_EXISTS);
      const passwordHash = await hashPassword(input.password);
      for (let attempt = 0; attempt < createUserAttempts; attempt += 1) {
        try {
          const uid = await repository.createUser({
            email: input.type === 'E' ? destination : null,
            phone: input.type === 'P' ? destination : null,
            registerType: input.type,
            passwordHash,
            nick: input.type === 'E' ? (destination.split('@')[0] ?? destination).slice(0, 32) : `user${destination.slice(-4)}`,
            inviteCode: inviteCodeCandidate(),
            invitedBy,
            locale: input.locale,
          });
          await events.userRegistered.run({ uid });
          return;
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
          // The contact was taken meanwhile, or (rarely) the invite code: check which.
          if (await repository.findUserByContact(input.type, destination)) throw new AppError(ErrorCode.ACCOUNT_EXISTS);
        }
      }
      throw new AppError(ErrorCode.UNKNOWN_ERROR);
    },
  };
}
