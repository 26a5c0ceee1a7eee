import { rateLimitedError } from '../http/app-error';
import type { DataCipher } from './data-key';
import type { FailureThrottle } from './failure-throttle';
import type { RateLimiter } from './rate-limiter';

/** Counts a hit against a limiter; over the limit, the call is refused with 1033 and the seconds to wait. */
export async function enforceLimit(limiter: RateLimiter, key: string): Promise<void> {
  const result = await limiter.hit(key);
  if (!result.allowed) throw rateLimitedError(result.retryAfterSeconds);
}

/**
 * Claims a try against a shared failure count (refused with 1033 while its delay runs) and
 * answers the key it counted under: hashed, so no address or e-mail is stored.
 */
export async function claimTry(throttle: FailureThrottle, cipher: DataCipher, key: string): Promise<string> {
  const hashed = cipher.digest(`throttle:${key}`);
  const verdict = await throttle.attempt(hashed);
  if (!verdict.allowed) throw rateLimitedError(verdict.retryAfterSeconds);
  return hashed;
}
