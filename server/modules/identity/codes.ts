import crypto from 'node:crypto';
import type { ContactType } from '../../../src/shared/api/auth';
import { isValidApiPhone } from '../../../src/shared/auth/phone';
import { isValidEmail } from '../../../src/shared/auth/validation';
import { formatSignInCode } from '../../../src/shared/auth/sign-in-code';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { AppError, rateLimitedError } from '../../http/app-error';
import { captchaImage, captchaText } from './captcha-image';
import type { IdentityContext, IdentityDependencies } from './identity-context';

/** Code purposes (the `type` of sendMail / sendPhone). */
export const CodePurpose = { register: 1, forgot: 2, signIn: 3, registerComplete: 4, bindEmail: 5 } as const;

/** Where a code to bind `email` to user `uid` is kept: only that user can spend it, only for that address. */
export function bindEmailCodeKey(uid: number, email: string): string {
  return `bind:${uid}:${email}`;
}

/** One-time codes by mail and SMS, their checks, and image captchas. */
export function createCodes(deps: IdentityDependencies, context: IdentityContext) {
  const { repository, cipher, messages, limits, settings } = deps;
  const { limit, claim, nowMs, now } = context;
  const codeTask = 'identity.code';
  // The sender makes and sends the code of a recorded request (at least once: a retry after a crash sends a new live code, never none).
  messages.handle(codeTask, async (payload) => {
    const { channel, destination, purpose } = payload as { channel: 'email' | 'sms'; destination: string; purpose: number };
    await deliverCode(channel, destination, purpose);
  });
  const bindCodeTask = 'identity.bind-code';
  messages.handle(bindCodeTask, async (payload) => {
    const { uid, email } = payload as { uid: number; email: string };
    await deliverBindCode(uid, email);
  });

  /**
   * Answers a code request the same way, in the same time, whether or not the address has
   * an account: every request is recorded alike (the resend rule and the per-destination
   * count) with its outbox task in the same transaction, and what depends on the account
   * (a code, a notice, a welcome, or nothing) is done by that task, off the request. An
   * answered request is committed with its task: a crash after it loses no code.
   */
  async function sendCode(channel: 'email' | 'sms', destination: string, purpose: number, client: string) {
    await limit(limits.codeSending, client);
    const verdict = await repository.inTransaction(async (trx) => {
      const recorded = await repository.recordCodeRequest(cipher.digest(`send:${purpose}:${destination}`), now(), {
        resendMs: settings.codeResendMs,
        windowMs: settings.codeWindowMs,
        limit: settings.codesSentPer10Min,
      }, trx);
      if (recorded.allowed) await messages.enqueueTask(trx, { task: codeTask, channel, payload: { channel, destination, purpose } });
      return recorded;
    });
    if (!verdict.allowed) throw rateLimitedError(verdict.retryAfterSeconds);
  }

  async function deliverCode(channel: 'email' | 'sms', destination: string, purpose: number) {
    const type: ContactType = channel === 'email' ? 'E' : 'P';
    const existing = await repository.findUserByContact(type, destination);

    if (purpose === CodePurpose.registerComplete) {
      // A welcome mail after sign-up, when the brand sends one; nothing to check.
      if (existing && channel === 'email' && (await deps.switches()).sendRegisterCompleteMail) {
        await messages.send({ channel, to: destination, subject: `${settings.siteName}: welcome`, text: `Your ${settings.siteName} account is ready.` });
      }
      return;
    }
    if (purpose === CodePurpose.signIn) {
      // Only an account gets one (nobody else could use it); the caller was answered alike already.
      if (existing) await deliverSignInCode(channel, type, destination);
      return;
    }
    const code = String(crypto.randomInt(0, 1_000_000)).padStart(6, '0');
    const createdAt = now();
    // Every request leaves a live code, sent or not, so that checking one answers alike
    // (wrong, locked, expired) whether or not the address has an account.
    // The hash binds the code to its row (so a code cannot be replayed against another);
    // until it is written the row matches no code at all.
    const id = await repository.insertCode({ destination, purpose, codeHash: '-', expiresAt: new Date(nowMs() + settings.codeTtlMs), createdAt });
    await repository.setCodeHash(id, cipher.digest(`code:${id}:${code}`));

    if (purpose === CodePurpose.register && existing) {
      // Tell the owner instead of sending a code; the caller learns nothing here.
      await messages.send({ channel, to: destination, subject: `${settings.siteName}: sign-up attempt`, text: `Someone tried to sign up with this ${channel === 'email' ? 'address' : 'number'}. It already has an account; you can reset its password if needed.` });
      return;
    }
    if (purpose === CodePurpose.forgot && !existing) return; // nothing to reset: nothing sent
    const what = purpose === CodePurpose.register ? 'sign-up' : 'password reset';
    await messages.send({
      channel,
      to: destination,
      subject: `${settings.siteName}: your ${what} code`,
      text: `Your ${settings.siteName} ${what} code is ${code}. It expires in ${Math.round(settings.codeTtlMs / 60_000)} minutes. If you did not ask for it, ignore this message.`,
      code,
      purpose: what,
    });
  }

  /** A sign-in code for the account of `destination`: it lets one sign-in from a new device skip the account's delay. */
  async function deliverSignInCode(channel: 'email' | 'sms', type: ContactType, destination: string) {
    const code = formatSignInCode(await deps.signInGuard.issueCode(context.signInAccount(type, destination)));
    const minutes = Math.round(settings.signInCodeTtlMs / 60_000);
    await messages.send({
      channel,
      to: destination,
      subject: `${settings.siteName}: your sign-in code`,
      text: `Your ${settings.siteName} sign-in code is ${code}. Enter it with your password to sign in from a new device now. It expires in ${minutes} minutes. If you did not try to sign in, someone else may be trying your password: change it.`,
      code,
      purpose: 'sign-in',
    });
  }

  /**
   * A code to bind `email` to user `uid`, sent to that address. Answered alike whether or not
   * the address belongs to another account: that account's owner is told instead of a code
   * being sent, and a live code is left either way so that checking one answers alike.
   */
  async function deliverBindCode(uid: number, email: string) {
    const code = String(crypto.randomInt(0, 1_000_000)).padStart(6, '0');
    const id = await repository.insertCode({
      destination: bindEmailCodeKey(uid, email),
      purpose: CodePurpose.bindEmail,
      codeHash: '-',
      expiresAt: new Date(nowMs() + settings.codeTtlMs),
      createdAt: now(),
    });
    await repository.setCodeHash(id, cipher.digest(`code:${id}:${code}`));
    if (await repository.findUserByContact('E', email)) {
      await messages.send({ channel: 'email', to: email, subject: `${settings.siteName}: e-mail binding attempt`, text: `Someone tried to link this address to another ${settings.siteName} account. It already belongs to your account; nothing was changed.` });
      return;
    }
    await messages.send({
      channel: 'email',
      to: email,
      subject: `${settings.siteName}: your e-mail binding code`,
      text: `Your ${settings.siteName} code to link this address to your account is ${code}. It expires in ${Math.round(settings.codeTtlMs / 60_000)} minutes. If you did not ask for it, ignore this message.`,
      code,
      purpose: 'e-mail binding',
    });
  }

  return {
    /** Waits for the codes and notices still being written and for the outbox's running pass (server close, tests). */
    async settled() {
      await messages.settled();
    },

    /**
     * Sends a code to bind `email` (lower case, checked by the caller) to user `uid`: the resend rule and counts per address, as every code.
     * The request is recorded with its outbox task in one transaction, as `sendCode`'s: the answer says the code was sent, so a crash after it must not lose it.
     */
    async sendBindEmailCode(uid: number, email: string, client: string) {
      await limit(limits.codeSending, client);
      const verdict = await repository.inTransaction(async (trx) => {
        const recorded = await repository.recordCodeRequest(cipher.digest(`send:${CodePurpose.bindEmail}:${email}`), now(), {
          resendMs: settings.codeResendMs,
          windowMs: settings.codeWindowMs,
          limit: settings.codesSentPer10Min,
        }, trx);
        if (recorded.allowed) await messages.enqueueTask(trx, { task: bindCodeTask, channel: 'email', payload: { uid, email } });
        return recorded;
      });
      if (!verdict.allowed) throw rateLimitedError(verdict.retryAfterSeconds);
    },

    /** Checks the latest code for a destination; counts every try and locks after the maximum (atomically: `guessCode`). */
    async checkCode(destination: string, purpose: number, code: string, client: string) {
      await limit(limits.codeChecking, client);
      const throttleKey = await claim(limits.codeFailures, `code:${purpose}:${destination}`);
      const latest = await repository.latestCode(destination, purpose);
      if (!latest) throw new AppError(ErrorCode.INVALID_VERIFICATION_CODE);
      const outcome = await repository.guessCode(latest.id, cipher.digest(`code:${latest.id}:${code}`), settings.codeMaxAttempts, now());
      if (outcome === 'accepted') {
        await limits.codeFailures.reset(throttleKey);
        return;
      }
      // A used or locked code is just invalid; an unused one past its time says so.
      const expired = outcome === 'refused' && !latest.consumed_at && latest.attempts < settings.codeMaxAttempts && latest.expires_at.getTime() <= nowMs();
      throw new AppError(expired ? ErrorCode.VERIFICATION_CODE_EXPIRED : ErrorCode.INVALID_VERIFICATION_CODE);
    },

    async sendMail(email: string, purpose: number, client: string) {
      if (!isValidEmail(email)) throw new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, 'e-mail');
      await sendCode('email', email.toLowerCase(), purpose, client);
    },

    async sendPhone(phone: string, purpose: number, client: string) {
      if (!isValidApiPhone(phone)) throw new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, 'phone');
      const switches = await deps.switches();
      if (purpose === CodePurpose.register && (!switches.PHONE_REGISTER || !switches.PHONE_REGISTER_SMS_VERIFICATION)) {
        throw new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, 'phone sign-up codes are off');
      }
      await sendCode('sms', phone, purpose, client);
    },

    async imageCaptcha(client: string): Promise<{ image: string; uuid: string }> {
      await limit(limits.captcha, client);
      const text = captchaText();
      const uuid = crypto.randomUUID();
      await repository.insertCaptcha(uuid, cipher.digest(`captcha:${uuid}:${text.toUpperCase()}`), new Date(nowMs() + settings.captchaTtlMs));
      return { image: await captchaImage(text), uuid };
    },
  };
}

export type Codes = ReturnType<typeof createCodes>;
