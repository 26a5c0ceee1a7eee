import type { DataCipher } from '../../auth/data-key';
import type { FailureThrottle } from '../../auth/failure-throttle';
import type { RateLimiter } from '../../auth/rate-limiter';
import type { TokenService } from '../../auth/tokens';
import { claimTry, enforceLimit } from '../../auth/limit-checks';
import type { Settings } from '../../settings';
import type { StaffAuditTrail } from './audit';
import type { StaffRepository } from './staff-repository';

/** Staff sign-in's own limits: separate counters from customers'. */
export interface StaffLimits {
  /** Per client address: sign-in attempts (a success forgets them). */
  signInPerAddress: RateLimiter;
  /** Per staff account, whatever the address: sign-in tries, with a growing delay (the database's count, shared by every process). */
  signInPerAccount: FailureThrottle;
  /** Per staff member: wrong old passwords on a password change (a stolen session must not guess its way on). */
  passwordChecks: FailureThrottle;
}

export type StaffSettings = Pick<Settings, 'refreshTokenTtlSeconds' | 'siteName'>;

export interface StaffDependencies {
  repository: StaffRepository;
  audit: StaffAuditTrail;
  tokens: TokenService;
  cipher: DataCipher;
  limits: StaffLimits;
  settings: StaffSettings;
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
