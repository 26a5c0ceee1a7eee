import crypto from 'node:crypto';
import type { ContactType, TokenPair } from '../../../src/shared/api/auth';
import { isValidApiPhone, isValidEmail, isValidNewPassword, isValidVerificationCode } from '../../../src/shared/auth/validation';
import type { Switches } from '../../../src/shared/config/switches';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import type { DataCipher } from '../../auth/data-key';
import type { FailureThrottle } from '../../auth/failure-throttle';
import { hashPassword, verifyAgainstNothing, verifyPassword } from '../../auth/passwords';
import type { RateLimiter } from '../../auth/rate-limiter';
import type { TokenService } from '../../auth/tokens';
import { generateTotpSecret, matchTotpStep, otpauthUrl } from '../../auth/totp';
import { AppError, rateLimitedError } from '../../http/app-error';
import { createBackgroundWork } from './background-work';
import { captchaImage, captchaText } from './captcha-image';
import type { MessageDelivery } from './delivery';
import { isUniqueViolation, type IdentityRepository } from './identity-repository';

export const codeTtlMs = 10 * 60_000;
export const codeMaxAttempts = 5;
export const codeResendMs = 60_000;
/** The window of the per-destination count of code requests (CODES_SENT_PER_10_MIN). */
export const codeSendingWindowMs = 10 * 60_000;
export const captchaTtlMs = 2 * 60_000;

/** Code purposes (the `type` of sendMail / sendPhone). */
export const CodePurpose = { register: 1, forgot: 2, registerComplete: 4 } as const;

export interface IdentityLimits {
  /** Per client address and account: sign-in attempts. */
  login: RateLimiter;
  /** Per client address: codes sent (per destination: `code_request`, see sendCode). */
  codeSending: RateLimiter;
  /** Per client address: codes checked (register, forgot, second factor). */
  codeChecking: RateLimiter;
  /** Per client address: captcha images. */
  captcha: RateLimiter;
  /** Per account, whatever the address: sign-in tries (second factor included), with a growing delay. */
  accountSignIn: FailureThrottle;
  /** Per destination (register, reset) and per user (second-factor set-up): code checks, with a growing delay. */
  codeFailures: FailureThrottle;
}

export interface IdentitySettings {
  refreshTokenTtlSeconds: number;
  siteName: string;
  /** Switching to the demo account is allowed once per user. */
  virtualTradingOnce: boolean;
  /** Code requests per destination and purpose in 10 minutes. */
  codesPerDestination: number;
}

function inviteCodeCandidate(): string {
  return crypto.randomBytes(5).toString('base64url').replace(/[-_]/g, 'X').toUpperCase().slice(0, 6);
}

/**
 * Sign-up, sign-in (with a second factor), password reset, codes and captchas, and the
 * session families that refresh tokens rotate within. Errors never tell whether an
 * account exists, except where the product says so (register: 1004).
 */
export function createIdentityService(deps: {
  repository: IdentityRepository;
  tokens: TokenService;
  cipher: DataCipher;
  delivery: MessageDelivery;
  limits: IdentityLimits;
  settings: IdentitySettings;
  switches: () => Promise<Switches>;
  /** After a sign-up: the new user's trading accounts are opened. */
  onRegistered?: (uid: number) => Promise<void>;
  /** Failures of work done off the request (sending codes). */
  log: (message: string, error: unknown) => void;
  /** After sessions end (logout, password reset, a reused refresh token): open sockets of them close. */
  onSessionsEnded?: (ended: { fid: string } | { uid: number }) => void;
  nowMs?: () => number;
}) {
  const { repository, tokens, cipher, delivery, limits, settings } = deps;
  const background = createBackgroundWork(deps.log);
  const nowMs = deps.nowMs ?? Date.now;
  const now = () => new Date(nowMs());

  function limit(limiter: RateLimiter, key: string) {
    const result = limiter.hit(key);
    if (!result.allowed) throw rateLimitedError(result.retryAfterSeconds);
  }

  /** Claims a try against a shared failure count; the key is hashed so no address is stored. */
  async function claim(throttle: FailureThrottle, key: string): Promise<string> {
    const hashed = cipher.digest(`throttle:${key}`);
    const verdict = await throttle.attempt(hashed);
    if (!verdict.allowed) throw rateLimitedError(verdict.retryAfterSeconds);
    return hashed;
  }

  /** A second-factor code is right and its step not spent before (checked and spent in one statement). */
  async function spendTotp(uid: number, secret: string, code: string): Promise<boolean> {
    const step = matchTotpStep(secret, code, nowMs());
    return step !== null && (await repository.useTotpStep(uid, step));
  }

  function normalizeContact(type: ContactType, username: string): string {
    if (type === 'E') {
      if (!isValidEmail(username)) throw new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, 'e-mail');
      return username.toLowerCase();
    }
    if (!isValidApiPhone(username)) throw new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, 'phone');
    return username;
  }

  async function issueSession(uid: number, virtualStatus: number, familyId: string): Promise<TokenPair> {
    const refreshToken = crypto.randomBytes(32).toString('base64url');
    await repository.insertRefreshToken({
      tokenHash: cipher.digest(`refresh:${refreshToken}`),
      familyId,
      virtualStatus,
      expiresAt: new Date(nowMs() + settings.refreshTokenTtlSeconds * 1000),
      createdAt: now(),
    });
    const { token } = await tokens.issueAccessToken({ uid, virtualStatus, aesKey: cipher.derive(`aes:${familyId}`, 16), fid: familyId });
    return { token, refreshToken };
  }

  async function startSession(uid: number): Promise<TokenPair> {
    const familyId = crypto.randomUUID();
    await repository.createFamily(familyId, uid, now());
    return issueSession(uid, 0, familyId);
  }

  /** Checks the latest code for a destination; counts every try and locks after 5 (atomically: `guessCode`). */
  async function checkCode(destination: string, purpose: number, code: string, client: string) {
    limit(limits.codeChecking, client);
    const throttleKey = await claim(limits.codeFailures, `code:${purpose}:${destination}`);
    const latest = await repository.latestCode(destination, purpose);
    if (!latest) throw new AppError(ErrorCode.INVALID_VERIFICATION_CODE);
    const outcome = await repository.guessCode(latest.id, cipher.digest(`code:${latest.id}:${code}`), codeMaxAttempts, now());
    if (outcome === 'accepted') {
      await limits.codeFailures.reset(throttleKey);
      return;
    }
    // A used or locked code is just invalid; an unused one past its time says so.
    const expired = outcome === 'refused' && !latest.consumed_at && latest.attempts < codeMaxAttempts && latest.expires_at.getTime() <= nowMs();
    throw new AppError(expired ? ErrorCode.VERIFICATION_CODE_EXPIRED : ErrorCode.INVALID_VERIFICATION_CODE);
  }

  /**
   * Answers a code request the same way, in the same time, whether or not the address has
   * an account: every request is recorded alike (the 60 s rule and the per-destination
   * count), and what depends on the account (a code, a notice, a welcome, or nothing)
   * is done afterwards, off the request.
   */
  async function sendCode(channel: 'email' | 'sms', destination: string, purpose: number, client: string) {
    limit(limits.codeSending, client);
    const verdict = await repository.recordCodeRequest(cipher.digest(`send:${purpose}:${destination}`), now(), {
      resendMs: codeResendMs,
      windowMs: codeSendingWindowMs,
      limit: settings.codesPerDestination,
    });
    if (!verdict.allowed) throw rateLimitedError(verdict.retryAfterSeconds);
    background.run(() => deliverCode(channel, destination, purpose), 'sending a code failed');
  }

  async function deliverCode(channel: 'email' | 'sms', destination: string, purpose: number) {
    const type: ContactType = channel === 'email' ? 'E' : 'P';
    const existing = await repository.findUserByContact(type, destination);

    if (purpose === CodePurpose.registerComplete) {
      // A welcome mail after sign-up, when the brand sends one; nothing to check.
      if (existing && channel === 'email' && (await deps.switches()).sendRegisterCompleteMail) {
        await delivery.send({ channel, to: destination, subject: `${settings.siteName}: welcome`, text: `Your ${settings.siteName} account is ready.` });
      }
      return;
    }
    if (purpose === CodePurpose.register && existing) {
      // Tell the owner instead of sending a code; the caller learns nothing here.
      await delivery.send({ channel, to: destination, subject: `${settings.siteName}: sign-up attempt`, text: `Someone tried to sign up with this ${channel === 'email' ? 'address' : 'number'}. It already has an account; you can reset its password if needed.` });
      return;
    }
    if (purpose === CodePurpose.forgot && !existing) return; // nothing to reset: nothing sent

    const code = String(crypto.randomInt(0, 1_000_000)).padStart(6, '0');
    const createdAt = now();
    // The hash binds the code to its row (so a code cannot be replayed against another);
    // until it is written the row matches no code at all.
    const id = await repository.insertCode({ destination, purpose, codeHash: '-', expiresAt: new Date(nowMs() + codeTtlMs), createdAt });
    await repository.setCodeHash(id, cipher.digest(`code:${id}:${code}`));
    const what = purpose === CodePurpose.register ? 'sign-up' : 'password reset';
    await delivery.send({
      channel,
      to: destination,
      subject: `${settings.siteName}: your ${what} code`,
      text: `Your ${settings.siteName} ${what} code is ${code}. It expires in 10 minutes. If you did not ask for it, ignore this message.`,
      code,
    });
  }

  return {
    /** Waits for the codes and notices still being sent (server close, tests). */
    settled: () => background.settled(),

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
      limit(limits.captcha, client);
      const text = captchaText();
      const uuid = crypto.randomUUID();
      await repository.insertCaptcha(uuid, cipher.digest(`captcha:${uuid}:${text.toUpperCase()}`), new Date(nowMs() + captchaTtlMs));
      return { image: captchaImage(text), uuid };
    },

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
        limit(limits.codeChecking, client);
        if (!input.uuid || !input.captcha) throw new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, 'captcha');
        const captcha = await repository.takeCaptcha(input.uuid, now());
        if (!captcha || captcha.expires_at.getTime() <= nowMs()) throw new AppError(ErrorCode.VERIFICATION_CODE_EXPIRED);
        if (captcha.answer_hash !== cipher.digest(`captcha:${input.uuid}:${input.captcha.toUpperCase()}`)) throw new AppError(ErrorCode.INVALID_VERIFICATION_CODE);
      } else {
        if (!isValidVerificationCode(input.code)) throw new AppError(ErrorCode.INVALID_VERIFICATION_CODE);
        await checkCode(destination, CodePurpose.register, input.code, client);
      }
      if (await repository.findUserByContact(input.type, destination)) throw new AppError(ErrorCode.ACCOUNT_EXISTS);
      const passwordHash = await hashPassword(input.password);
      for (let attempt = 0; attempt < 5; attempt += 1) {
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
          await deps.onRegistered?.(uid);
          return;
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
          // The contact was taken meanwhile, or (rarely) the invite code: check which.
          if (await repository.findUserByContact(input.type, destination)) throw new AppError(ErrorCode.ACCOUNT_EXISTS);
        }
      }
      throw new AppError(ErrorCode.UNKNOWN_ERROR);
    },

    async login(
      input: { username: string; password: string; type: ContactType; command?: 'verification' | undefined; authCode?: string | undefined },
      client: string,
    ): Promise<{ token: string; refreshToken: string; qrcodeStatus: 0 | 1 }> {
      const account = `${input.type}|${input.username.toLowerCase()}`;
      const key = `${client}|${account}`;
      limit(limits.login, key);
      // Per account whatever the address (addresses are cheap to change): counted before
      // the password is checked, so even the right one waits while the delay runs.
      const accountKey = await claim(limits.accountSignIn, `login:${account}`);
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
        if (input.command !== 'verification' || !input.authCode) return { token: '', refreshToken: '', qrcodeStatus: 0 };
        limit(limits.codeChecking, client);
        const secret = cipher.decrypt(user.totp_secret);
        if (!secret || !(await spendTotp(user.uid, secret, input.authCode.padStart(6, '0')))) throw new AppError(ErrorCode.INVALID_VERIFICATION_CODE);
      }
      limits.login.reset(key);
      await limits.accountSignIn.reset(accountKey);
      return { ...(await startSession(user.uid)), qrcodeStatus: 1 };
    },

    async forgot(input: { username: string; password: string; type: ContactType; code: string }, client: string) {
      const destination = normalizeContact(input.type, input.username);
      if (!isValidNewPassword(input.password)) throw new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, 'password');
      await checkCode(destination, CodePurpose.forgot, input.code, client);
      const user = await repository.findUserByContact(input.type, destination);
      if (!user) throw new AppError(ErrorCode.INVALID_VERIFICATION_CODE); // unreachable: no code is sent to unknown contacts
      await repository.updatePassword(user.uid, await hashPassword(input.password));
      await repository.revokeFamiliesOfUser(user.uid, 'password-reset', now());
      deps.onSessionsEnded?.({ uid: user.uid });
    },

    /** Spends a refresh token for a new pair; reusing a spent one ends the whole family. */
    async refresh(refreshToken: string): Promise<TokenPair> {
      const tokenHash = cipher.digest(`refresh:${refreshToken}`);
      const stored = await repository.findRefreshToken(tokenHash);
      if (!stored) throw new AppError(ErrorCode.SESSION_ENDED);
      const family = await repository.findFamily(stored.family_id);
      if (!family || family.revoked_at) throw new AppError(ErrorCode.SESSION_ENDED);
      if (stored.used_at) {
        await repository.revokeFamily(family.id, 'refresh-token-reuse', now());
        deps.onSessionsEnded?.({ fid: family.id });
        throw new AppError(ErrorCode.SESSION_ENDED);
      }
      if (stored.expires_at.getTime() <= nowMs()) throw new AppError(ErrorCode.SESSION_ENDED);
      const user = await repository.findUserByUid(family.uid);
      if (!user || user.blocked) throw new AppError(ErrorCode.SESSION_ENDED);
      const next = crypto.randomBytes(32).toString('base64url');
      const rotated = await repository.rotateRefreshToken(
        tokenHash,
        { tokenHash: cipher.digest(`refresh:${next}`), familyId: family.id, virtualStatus: stored.virtual_status, expiresAt: new Date(nowMs() + settings.refreshTokenTtlSeconds * 1000) },
        now(),
      );
      if (!rotated) {
        await repository.revokeFamily(family.id, 'refresh-token-reuse', now());
        deps.onSessionsEnded?.({ fid: family.id });
        throw new AppError(ErrorCode.SESSION_ENDED);
      }
      const { token } = await tokens.issueAccessToken({ uid: user.uid, virtualStatus: stored.virtual_status, aesKey: cipher.derive(`aes:${family.id}`, 16), fid: family.id });
      return { token, refreshToken: next };
    },

    /** Whether a verified access token's session is still alive (not ended server-side). */
    async sessionAlive(auth: { uid: number; fid?: string | undefined; virtualStatus: number }): Promise<boolean> {
      if (!auth.fid) return false;
      const family = await repository.findFamily(auth.fid);
      if (!family || family.revoked_at || family.uid !== auth.uid) return false;
      const user = await repository.findUserByUid(auth.uid);
      if (!user || user.blocked) return false;
      if (auth.virtualStatus !== 0 && !(await deps.switches()).VIRTUAL_CURRENCY_TRADE) return false;
      return true;
    },

    async logout(auth: { fid?: string | undefined }) {
      if (!auth.fid) return;
      await repository.revokeFamily(auth.fid, 'logout', now());
      deps.onSessionsEnded?.({ fid: auth.fid });
    },

    /** Real ⇄ demo: new tokens for the other account in the same session. */
    async switchAccount(auth: { uid: number; fid?: string | undefined; virtualStatus: number }): Promise<TokenPair> {
      if (!auth.fid) throw new AppError(ErrorCode.SESSION_ENDED);
      const toDemo = auth.virtualStatus === 0;
      const user = await repository.findUserByUid(auth.uid);
      if (!user) throw new AppError(ErrorCode.SESSION_ENDED);
      if (toDemo) {
        if (!(await deps.switches()).VIRTUAL_CURRENCY_TRADE) throw new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, 'demo trading is off');
        // Marked and checked in one statement: two parallel switches cannot both be the first.
        const first = await repository.markVirtualUsed(user.uid, now());
        if (settings.virtualTradingOnce && !first) throw new AppError(ErrorCode.VIRTUAL_TRADING_ONLY_ONCE);
      }
      await repository.spendFamilyTokens(auth.fid, now());
      return issueSession(user.uid, toDemo ? 1 : 0, auth.fid);
    },

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
      await repository.setTotp(uid, cipher.encrypt(secret), false);
      return { otpauthUrl: otpauthUrl(settings.siteName, user.email ?? `+${user.phone ?? uid}`, secret), secret };
    },

    async twoFactorEnable(uid: number, code: string, client: string) {
      limit(limits.codeChecking, client);
      const throttleKey = await claim(limits.codeFailures, `totp:${uid}`);
      const user = await repository.findUserByUid(uid);
      if (!user?.totp_secret) throw new AppError(ErrorCode.QR_KEY_MISSING);
      if (user.totp_enabled) throw new AppError(ErrorCode.STATUS_UNCHANGED);
      const secret = cipher.decrypt(user.totp_secret);
      if (!secret || !(await spendTotp(uid, secret, code))) throw new AppError(ErrorCode.INVALID_VERIFICATION_CODE);
      await repository.setTotp(uid, user.totp_secret, true);
      await limits.codeFailures.reset(throttleKey);
    },

    async twoFactorDisable(uid: number, code: string, client: string) {
      limit(limits.codeChecking, client);
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

export type IdentityService = ReturnType<typeof createIdentityService>;
