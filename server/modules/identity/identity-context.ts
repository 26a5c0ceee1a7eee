import type { ContactType } from '../../../src/shared/api/auth';
import { isValidApiPhone } from '../../../src/shared/auth/phone';
import { isValidEmail } from '../../../src/shared/auth/validation';
import type { Switches } from '../../../src/shared/config/switches';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import type { DataCipher } from '../../auth/data-key';
import type { FailureThrottle } from '../../auth/failure-throttle';
import type { RateLimiter } from '../../auth/rate-limiter';
import type { SignInGuard } from '../../auth/sign-in-guard';
import type { TokenService } from '../../auth/tokens';
import { matchTotpStep } from '../../auth/totp';
import type { DomainEvents } from '../../events/domain-events';
import { AppError } from '../../http/app-error';
import { claimTry, enforceLimit } from '../../auth/limit-checks';
import type { Settings } from '../../settings';
import type { Executor } from '../../db/after-commit';
import type { OutgoingMessage } from '../../messaging/delivery';
import type { OutboxTask } from '../../messaging/outbox';
import type { IdentityRepository } from './identity-repository';

export interface IdentityLimits {
  /** Per client address and account: sign-in attempts of untrusted clients (no device cookie of the account). */
  login: RateLimiter;
  /** Per client address: codes sent (per destination: `code_request`, see codes.ts). */
  codeSending: RateLimiter;
  /** Per client address: codes checked (register, forgot, second factor). */
  codeChecking: RateLimiter;
  /** Per client address: captcha images. */
  captcha: RateLimiter;
  /** Per account, whatever the address: untrusted clients' sign-in tries (second factor included), with a growing delay. */
  accountSignIn: FailureThrottle;
  /** Per destination (register, reset) and per user (second-factor set-up): code checks, with a growing delay. */
  codeFailures: FailureThrottle;
}

/** The settings identity reads. */
export type IdentitySettings = Pick<
  Settings,
  | 'refreshTokenTtlSeconds'
  | 'siteName'
  | 'virtualTradingOnce'
  | 'codesSentPer10Min'
  | 'codeTtlMs'
  | 'codeMaxAttempts'
  | 'codeResendMs'
  | 'codeWindowMs'
  | 'captchaTtlMs'
  | 'signInCodeTtlMs'
>;

export interface IdentityDependencies {
  repository: IdentityRepository;
  tokens: TokenService;
  cipher: DataCipher;
  /** Mail and SMS: each written to the outbox (its own transaction) and delivered afterwards, with retries. */
  messages: {
    send(message: OutgoingMessage): Promise<void>;
    /** A task written in the caller's transaction, done by the outbox's sender at least once (a code made and sent). */
    enqueueTask(executor: Executor, task: OutboxTask): Promise<void>;
    handle(task: string, handler: (payload: Record<string, unknown>) => Promise<void>): void;
    /** Resolves once the sender has no pass running or asked for (server close, tests). */
    settled(): Promise<void>;
  };
  limits: IdentityLimits;
  /** Who sign-in holds back: device cookies, sign-in codes and the limits of untrusted clients (built on `limits`). */
  signInGuard: SignInGuard;
  settings: IdentitySettings;
  switches: () => Promise<Switches>;
  /** New users (their accounts are opened) and ended sessions (their sockets close). */
  events: Pick<DomainEvents, 'userRegistered' | 'sessionsEnded'>;
  /** Failures of work done off the request (sending codes). */
  log: (message: string, error: unknown) => void;
  nowMs?: () => number;
}

/** What every identity use case shares: the clock, the limits, contact and second-factor checks. */
export function createIdentityContext(deps: IdentityDependencies) {
  const { repository, cipher } = deps;
  const nowMs = deps.nowMs ?? Date.now;
  return {
    nowMs,
    now: () => new Date(nowMs()),

    limit: enforceLimit,

    /** Claims a try against a shared failure count (see claimTry). */
    claim: (throttle: FailureThrottle, key: string) => claimTry(throttle, cipher, key),

    /**
     * A second-factor code is right and its step not spent before (checked and spent in one
     * statement), or spent by this same idempotent `request` (its retry).
     */
    async spendTotp(uid: number, secret: string, code: string, request: string | null = null): Promise<boolean> {
      const step = matchTotpStep(secret, code, nowMs());
      return step !== null && (await repository.useTotpStep(uid, step, request));
    },

    /** The account a device cookie and a sign-in code are bound to. */
    signInAccount: (type: ContactType, username: string) => `customer:${type}|${username.toLowerCase()}`,

    normalizeContact(type: ContactType, username: string): string {
      if (type === 'E') {
        if (!isValidEmail(username)) throw new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, 'e-mail');
        return username.toLowerCase();
      }
      if (!isValidApiPhone(username)) throw new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, 'phone');
      return username;
    },
  };
}

export type IdentityContext = ReturnType<typeof createIdentityContext>;
