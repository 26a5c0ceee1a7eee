import type { DataCipher } from '../../auth/data-key';
import type { FailureThrottle } from '../../auth/failure-throttle';
import type { RateLimiter } from '../../auth/rate-limiter';
import type { SignInGuard } from '../../auth/sign-in-guard';
import type { TokenService } from '../../auth/tokens';
import { claimTry, enforceLimit } from '../../auth/limit-checks';
import type { Executor } from '../../db/after-commit';
import type { OutgoingMessage } from '../../messaging/delivery';
import type { Settings } from '../../settings';
import type { StaffAuditTrail } from './audit';
import type { StaffRepository } from './staff-repository';

/** Staff sign-in's own limits: separate counters from customers'. */
export interface StaffLimits {
  /** Per client address: untrusted clients' sign-in attempts (a success forgets them). */
  signInPerAddress: RateLimiter;
  /** Per staff account, whatever the address: untrusted clients' sign-in tries, with a growing delay (the database's count, shared by every process). */
  signInPerAccount: FailureThrottle;
  /** Per client address: sign-in codes asked for, and sign-in codes checked. */
  signInCodeRequests: RateLimiter;
  signInCodeChecks: RateLimiter;
  /** Per e-mail address, whatever the client: sign-in codes sent (no mailbox is flooded). */
  signInCodesPerAddressee: RateLimiter;
  /** Per staff member: wrong old passwords on a password change (a stolen session must not guess its way on). */
  passwordChecks: FailureThrottle;
  /** Per client address: invitation steps (staff/enrol and staff/enrol/confirm). */
  enrolPerAddress: RateLimiter;
  /** Per invitation: wrong first codes, with a growing delay. */
  enrolCodes: FailureThrottle;
}

export type StaffSettings = Pick<Settings, 'refreshTokenTtlSeconds' | 'siteName' | 'signInCodeTtlMs' | 'staffInvitationTtlMs' | 'staffDutiesPeriodMs' | 'staffConsoleUrl'>;

/** The transactional outbox, for invitations (written in the creating transaction). */
export interface StaffMessages {
  enqueue(executor: Executor, message: OutgoingMessage): Promise<void>;
}

export interface StaffDependencies {
  repository: StaffRepository;
  audit: StaffAuditTrail;
  tokens: TokenService;
  cipher: DataCipher;
  limits: StaffLimits;
  /** Who sign-in holds back: device cookies, sign-in codes and the limits of untrusted clients (built on `limits`). */
  signInGuard: SignInGuard;
  /** Mail through the outbox (sign-in codes); absent for the command line, which sends none. */
  signInMail?: { send(message: OutgoingMessage): Promise<void> } | undefined;
  /** Failures of work done off the request (sending a sign-in code). */
  log?: ((message: string, error: unknown) => void) | undefined;
  settings: StaffSettings;
  /** Absent for the command line, which creates members with credentials and sends no invitation. */
  messages?: StaffMessages | undefined;
  nowMs?: (() => number) | undefined;
}

/** What every staff use case shares: the clock and the limits. */
export function createStaffContext(deps: StaffDependencies) {
  const nowMs = deps.nowMs ?? Date.now;
  return {
    nowMs,
    now: () => new Date(nowMs()),
    limit: enforceLimit,
    /** Claims a try against a shared failure count (see claimTry). */
    claim: (throttle: FailureThrottle, key: string) => claimTry(throttle, deps.cipher, key),
  };
}

export type StaffContext = ReturnType<typeof createStaffContext>;
