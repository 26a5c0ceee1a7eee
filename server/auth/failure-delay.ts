/**
 * The growing delay after failed sign-ins and code checks (pure). The first
 * `freeFailures` failures cost nothing; from then on each failure makes the next try
 * wait, twice as long as the one before, up to `maxDelaySeconds`. A success or a quiet
 * day forgets them. A delay, never a lock: an attacker can slow a victim down, not lock
 * the victim out.
 */
export interface FailureDelayPolicy {
  freeFailures: number;
  maxDelaySeconds: number;
}

/** Failures older than this (no failure since) are forgotten. */
export const failureMemoryMs = 24 * 60 * 60_000;

/** Seconds the next try must wait after the `failures`-th failure in a row. */
export function failureDelaySeconds(failures: number, policy: FailureDelayPolicy): number {
  if (failures < policy.freeFailures) return 0;
  return Math.min(policy.maxDelaySeconds, 2 ** Math.min(failures - policy.freeFailures, 30));
}

/**
 * The delays after the 1st, 2nd, … failure, up to the first that reaches the cap (every
 * later one is the cap): the table the database indexes, so the rule is written once.
 */
export function failureDelaySchedule(policy: FailureDelayPolicy): number[] {
  const schedule: number[] = [];
  for (let failures = 1; ; failures += 1) {
    const delay = failureDelaySeconds(failures, policy);
    schedule.push(delay);
    if (delay >= policy.maxDelaySeconds) return schedule;
  }
}
