import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';

export type RateVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Expired windows are deleted after this many hits of one limiter (an indexed delete, off the hot path's every call). */
const sweepEveryHits = 500;

/**
 * Fixed-window counters per key, kept in the database (`rate_limit`) so that every server
 * process counts against the same window. `hit` counts an attempt and says whether it may
 * go ahead, or how many seconds until it may: counted and checked in one statement, so
 * parallel attempts through any process never pass the limit together. Keys are stored
 * as a keyed hash (`keyOf`), never as the address or account they name.
 */
export function createRateLimiter(options: {
  db: Kysely<Database>;
  /** Names the limit, so two limits never share a counter for the same key. */
  name: string;
  limit: number;
  windowMs: number;
  keyOf: (value: string) => string;
  nowMs?: (() => number) | undefined;
}) {
  const { db, limit, windowMs } = options;
  const nowMs = options.nowMs ?? Date.now;
  const stored = (key: string) => options.keyOf(`rate:${options.name}:${key}`);
  let hitsSinceSweep = 0;

  return {
    /** Counts one attempt. */
    async hit(key: string): Promise<RateVerdict> {
      const now = new Date(nowMs());
      const ends = new Date(now.getTime() + windowMs);
      const id = stored(key);
      const counted = await sql<{ hits: number }>`
        insert into rate_limit as r (key, window_start, hits, expires_at)
        values (${id}, ${now}, 1, ${ends})
        on conflict (key) do update set
          window_start = case when r.expires_at <= ${now} then ${now} else r.window_start end,
          hits = case when r.expires_at <= ${now} then 1 else r.hits + 1 end,
          expires_at = case when r.expires_at <= ${now} then ${ends} else r.expires_at end
        where r.expires_at <= ${now} or r.hits < ${limit}
        returning hits`.execute(db);
      if ((hitsSinceSweep += 1) >= sweepEveryHits) {
        hitsSinceSweep = 0;
        await db.deleteFrom('rate_limit').where('expires_at', '<=', now).execute();
      }
      if (counted.rows.length === 1) return { allowed: true };
      const row = await db.selectFrom('rate_limit').select('expires_at').where('key', '=', id).executeTakeFirst();
      const waitMs = row ? new Date(row.expires_at).getTime() - now.getTime() : 0;
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
    },
    /** A success: the attempts of `key` are forgotten. */
    async reset(key: string): Promise<void> {
      await db.deleteFrom('rate_limit').where('key', '=', stored(key)).execute();
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
