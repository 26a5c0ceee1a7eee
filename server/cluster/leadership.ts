import { performance } from 'node:perf_hooks';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** The roles that run in one process at a time. */
export type LeadRole = 'market' | 'jobs';

export interface Leadership {
  readonly role: LeadRole;
  /** Whether this process may act now: it holds the lease, and the lease has not run out by its own clock. */
  leading(): boolean;
  /** Called with true when this process takes the role, false when it loses or gives it up. */
  onChange(listener: (leading: boolean) => void): void;
  /** Starts trying to take the role (once every listener is known). */
  start(): void;
  /** Gives the role up (the next holder takes it at once) and stops trying. */
  stop(): Promise<void>;
}

/** One process holding every role (`SERVER_ROLES=all`, or embedded PGlite): it always leads. */
export function soleLeadership(role: LeadRole): Leadership {
  return { role, leading: () => true, onChange: () => undefined, start: () => undefined, stop: async () => undefined };
}

/** A process without the role: it never leads it. */
export function noLeadership(role: LeadRole): Leadership {
  return { role, leading: () => false, onChange: () => undefined, start: () => undefined, stop: async () => undefined };
}

/**
 * Leadership of a role through a lease row (`leader_lease`): the holder renews it every
 * third of the lease; another process takes a row whose lease has run out (the database's
 * clock decides, in one conditional upsert, so two can never both win). A holder that cannot
 * renew stops acting when its lease could have run out by its own clock, before anyone else
 * may take over; a dead one is replaced within one lease and one renewal interval.
 */
export function leaseLeadership(deps: {
  db: Kysely<Database>;
  role: LeadRole;
  /** Unique per process (host, pid, random): who holds the row. */
  holder: string;
  leaseMs: number;
  log?: (details: object, message: string) => void;
}): Leadership {
  const { db, role, holder, leaseMs } = deps;
  const listeners: ((leading: boolean) => void)[] = [];
  let held = false;
  /** performance.now() until which the lease is ours, measured from before the renewal was sent. */
  let validUntil = 0;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let attempt: Promise<void> = Promise.resolve();

  function set(next: boolean) {
    if (next === held) return;
    held = next;
    deps.log?.({ role, holder }, next ? 'leadership taken' : 'leadership lost');
    for (const listener of listeners) listener(next);
  }

  async function tryHold() {
    const sentAt = performance.now();
    try {
      const result = await sql<{ holder: string }>`
        insert into leader_lease (role, holder, expires_at, acquired_at)
        values (${role}, ${holder}, now() + ${leaseMs} * interval '1 millisecond', now())
        on conflict (role) do update
          set holder = excluded.holder,
              expires_at = excluded.expires_at,
              acquired_at = case when leader_lease.holder = excluded.holder then leader_lease.acquired_at else now() end
          where leader_lease.holder = excluded.holder or leader_lease.expires_at < now()
        returning holder`.execute(db);
      if (stopped) return;
      if (result.rows.length > 0) {
        validUntil = sentAt + leaseMs;
        set(true);
      } else {
        validUntil = 0;
        set(false);
      }
    } catch (error) {
      // The lease may still be ours until validUntil; leading() stops trusting it then.
      deps.log?.({ role, holder, err: error }, 'leadership renewal failed');
      if (performance.now() >= validUntil) set(false);
    }
  }

  function loop() {
    if (stopped) return;
    // A holder that could not renew in time hands over what it runs before anyone may take the row.
    if (held && performance.now() >= validUntil) set(false);
    attempt = tryHold();
    void attempt.finally(() => {
      if (stopped) return;
      timer = setTimeout(loop, Math.max(50, Math.floor(leaseMs / 3)));
      timer.unref();
    });
  }
  let started = false;

  return {
    role,
    leading: () => held && performance.now() < validUntil,
    onChange: (listener) => void listeners.push(listener),
    start() {
      if (started || stopped) return;
      started = true;
      loop();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await attempt;
      const wasLeading = held;
      set(false);
      if (wasLeading) {
        await db
          .deleteFrom('leader_lease')
          .where('role', '=', role)
          .where('holder', '=', holder)
          .execute()
          .catch((error: unknown) => deps.log?.({ role, holder, err: error }, 'leadership release failed'));
      }
    },
  };
}
