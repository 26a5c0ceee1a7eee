import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { failureDelaySchedule, failureMemoryMs, type FailureDelayPolicy } from './failure-delay';

export type ThrottleVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * The growing delay of `failure-delay.ts`, kept in the database so that every server
 * process sees the same count. A try is counted as a failure before it is evaluated (so
 * parallel tries cannot all slip in before the first failure is written); a success
 * forgets the count.
 */
export function createFailureThrottle(db: Kysely<Database>, policy: FailureDelayPolicy, nowMs: () => number = Date.now) {
  const schedule = failureDelaySchedule(policy);
  return {
    /**
     * Claims one try for `key`: refused while the wait of the last failure runs; else
     * counted, and the next try must wait as long as this failure says. One statement:
     * two processes never both pass on the same count.
     */
    async attempt(key: string): Promise<ThrottleVerdict> {
      const now = new Date(nowMs());
      const forgetBefore = new Date(now.getTime() - failureMemoryMs);
      const count = sql<number>`case when t.last_failure_at <= ${forgetBefore} then 1 else t.failures + 1 end`;
      const delaySeconds = sql<number>`(${schedule}::int[])[least(${count}, ${schedule.length})]`;
      // A free failure (no delay) blocks nothing: it keeps the earlier bound rather than set
      // "now", since a parallel try whose clock read came a moment earlier (another process,
      // the same one a millisecond before) would otherwise be refused for a wait of 0.
      const firstDelayMs = (schedule[0] ?? 0) * 1000;
      const claimed = await sql<{ failures: number }>`
        insert into auth_throttle as t (key, failures, blocked_until, last_failure_at)
        values (${key}, 1, ${firstDelayMs > 0 ? new Date(now.getTime() + firstDelayMs) : new Date(0)}, ${now})
        on conflict (key) do update set
          failures = ${count},
          blocked_until = case when ${delaySeconds} > 0 then ${now}::timestamptz + make_interval(secs => ${delaySeconds}) else t.blocked_until end,
          last_failure_at = ${now}
        where t.blocked_until <= ${now}
        returning failures`.execute(db);
      if (claimed.rows.length === 1) return { allowed: true };
      const row = await db.selectFrom('auth_throttle').select('blocked_until').where('key', '=', key).executeTakeFirst();
      const waitMs = row ? new Date(row.blocked_until).getTime() - now.getTime() : 0;
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
    },
    /** A success: the failures of `key` are forgotten. */
    async reset(key: string) {
      await db.deleteFrom('auth_throttle').where('key', '=', key).execute();
    },
  };
}

export type FailureThrottle = ReturnType<typeof createFailureThrottle>;
