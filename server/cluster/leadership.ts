import { performance } from 'node:perf_hooks';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { actingDeadline, mayStillAct } from './fencing';

/** The roles that run in one process at a time. */
export type LeadRole = 'market' | 'jobs';

/** A leader's write refused in its own transaction: another process took the role over, or this one no longer leads. */
export class LeaseLostError extends Error {
  constructor(readonly role: LeadRole) {
    super(`the ${role} lease is no longer held under this process's epoch`);
    this.name = 'LeaseLostError';
  }
}

export interface Leadership {
  readonly role: LeadRole;
  /** Whether this process may act now: it holds the lease, and acts within its margin since the last renewal (fencing.ts). */
  leading(): boolean;
  /** The epoch this process leads under while `leading()` (0 for a process alone), else null: what its publications are stamped with. */
  epoch(): number | null;
  /** When (wall clock, ms; the database's) the term of `epoch()` began, while leading; else null. Stamped beside the epoch. */
  termStartedAtMs(): number | null;
  /**
   * Fences the caller's transaction: locks the lease row as held by this process under its
   * current epoch (a take-over waits for the transaction to end), or throws LeaseLostError,
   * rolling back whatever the transaction wrote.
   */
  fenceIn(trx: Kysely<Database>): Promise<void>;
  /** Called with true when this process takes the role, false when it loses or gives it up. */
  onChange(listener: (leading: boolean) => void): void;
  /** Starts trying to take the role (once every listener is known). */
  start(): void;
  /** Gives the role up (the next holder takes it at once) and stops trying. */
  stop(): Promise<void>;
}

/** One process holding every role (`SERVER_ROLES=all`, or embedded PGlite): it always leads, and nobody else exists to fence. */
export function soleLeadership(role: LeadRole): Leadership {
  return { role, leading: () => true, epoch: () => 0, termStartedAtMs: () => null, fenceIn: async () => undefined, onChange: () => undefined, start: () => undefined, stop: async () => undefined };
}

/** A process without the role: it never leads it. */
export function noLeadership(role: LeadRole): Leadership {
  return {
    role,
    leading: () => false,
    epoch: () => null,
    termStartedAtMs: () => null,
    fenceIn: () => Promise.reject(new LeaseLostError(role)),
    onChange: () => undefined,
    start: () => undefined,
    stop: async () => undefined,
  };
}

/**
 * Leadership of a role through a lease row (`leader_lease`): the holder renews it every
 * third of the lease; another process takes a row whose lease has run out (the database's
 * clock decides, in one conditional upsert, so two can never both win), and that same
 * statement raises the row's epoch: renewals keep it. A holder acts only until half its
 * lease has passed since its last successful renewal was sent (a timer stops it then even
 * while the renewal still hangs), so it has stopped before anyone else may take over, and
 * it keeps trying to take the role again; a dead one is replaced within one lease and one
 * renewal interval.
 */
export function leaseLeadership(deps: {
  db: Kysely<Database>;
  role: LeadRole;
  /** Unique per process (host, pid, random): who holds the row. */
  holder: string;
  leaseMs: number;
  log?: (details: object, message: string) => void;
  /** The monotonic clock the acting margin is measured on (tests may bring their own). */
  nowMs?: () => number;
  /**
   * Whether this process can do the role's work now (the market: its link to the broker is
   * up, or its ticks reach nobody). One that cannot does not take the role, and a holder that
   * cannot gives it up at its next renewal, so that a candidate that can takes over.
   */
  mayLead?: () => boolean;
}): Leadership {
  const { db, role, holder, leaseMs } = deps;
  const nowMs = deps.nowMs ?? (() => performance.now());
  const listeners: ((leading: boolean) => void)[] = [];
  let held = false;
  /** The epoch of the lease last taken or renewed; trusted only while held and within the margin. */
  let heldEpoch: number | null = null;
  /** When the held epoch's term began (the row's acquired_at, ms). */
  let termStartedAt: number | null = null;
  /** When (nowMs) the last successful renewal was sent: the acting margin runs from there. */
  let renewalSentAt: number | null = null;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let deadline: ReturnType<typeof setTimeout> | null = null;
  let attempt: Promise<void> = Promise.resolve();

  const acting = () => held && mayStillAct(renewalSentAt, nowMs(), leaseMs);

  function set(next: boolean) {
    if (next === held) return;
    held = next;
    deps.log?.({ role, holder, epoch: heldEpoch }, next ? 'leadership taken' : 'leadership lost');
    for (const listener of listeners) listener(next);
  }

  /** Hands over at the acting deadline unless a renewal moved it: a hanging renewal must not keep a leader publishing. */
  function armDeadline() {
    if (deadline) clearTimeout(deadline);
    deadline = null;
    if (!held || renewalSentAt === null) return;
    deadline = setTimeout(() => {
      deadline = null;
      if (held && !acting()) {
        deps.log?.({ role, holder, epoch: heldEpoch }, 'lease not renewed in time: stopped acting');
        set(false);
      } else armDeadline();
    }, Math.max(0, Math.ceil(actingDeadline(renewalSentAt, leaseMs) - nowMs())));
    deadline.unref();
  }

  /** Lets the row run out now (not deleted: the next holder takes it at once, and its epoch counts on from this one). */
  async function release() {
    await db
      .updateTable('leader_lease')
      .set({ expires_at: sql<Date>`now() - interval '1 millisecond'` })
      .where('role', '=', role)
      .where('holder', '=', holder)
      .execute()
      .catch((error: unknown) => deps.log?.({ role, holder, err: error }, 'leadership release failed'));
  }

  async function tryHold() {
    const sentAt = nowMs();
    if (deps.mayLead && !deps.mayLead()) {
      renewalSentAt = null;
      if (held) {
        deps.log?.({ role, holder, epoch: heldEpoch }, 'leadership given up: this process cannot do the work now');
        set(false);
        await release();
      }
      return;
    }
    try {
      // A renewal is the same holder's row not yet run out: it keeps the epoch. Anything else
      // that wins the row (a free row, one run out, even this holder's own run out) is a take-over.
      const result = await sql<{ epoch: string | number; acquired_ms: string | number }>`
        insert into leader_lease (role, holder, expires_at, acquired_at, epoch)
        values (${role}, ${holder}, now() + ${leaseMs} * interval '1 millisecond', now(), 1)
        on conflict (role) do update
          set holder = excluded.holder,
              expires_at = excluded.expires_at,
              -- The term's start, as the epoch: a holder taking its own run-out row begins a new term.
              acquired_at = case when leader_lease.holder = excluded.holder and leader_lease.expires_at >= now()
                              then leader_lease.acquired_at else now() end,
              epoch = case when leader_lease.holder = excluded.holder and leader_lease.expires_at >= now()
                        then leader_lease.epoch else leader_lease.epoch + 1 end
          where leader_lease.holder = excluded.holder or leader_lease.expires_at < now()
        returning epoch, floor(extract(epoch from acquired_at) * 1000) as acquired_ms`.execute(db);
      if (stopped) return;
      const row = result.rows[0];
      if (!row) {
        renewalSentAt = null;
        set(false);
        return;
      }
      const epoch = Number(row.epoch);
      // A new term: whatever ran under the old one stops before the new one starts.
      if (held && heldEpoch !== epoch) set(false);
      heldEpoch = epoch;
      termStartedAt = Number(row.acquired_ms);
      renewalSentAt = sentAt;
      if (mayStillAct(sentAt, nowMs(), leaseMs)) {
        set(true);
        armDeadline();
      } else {
        // Answered too late to act on: the next renewal may do better.
        set(false);
      }
    } catch (error) {
      // The lease may still be ours within the margin; the deadline timer hands over after it.
      deps.log?.({ role, holder, err: error }, 'leadership renewal failed');
      if (!acting()) set(false);
    }
  }

  function loop() {
    if (stopped) return;
    // A holder that could not renew in time hands over what it runs before anyone may take the row.
    if (held && !acting()) set(false);
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
    leading: acting,
    epoch: () => (acting() ? heldEpoch : null),
    termStartedAtMs: () => (acting() ? termStartedAt : null),
    async fenceIn(trx) {
      const epoch = acting() ? heldEpoch : null;
      if (epoch === null) throw new LeaseLostError(role);
      const row = await trx
        .selectFrom('leader_lease')
        .select('epoch')
        .where('role', '=', role)
        .where('holder', '=', holder)
        .where('epoch', '=', epoch)
        .where('expires_at', '>', sql<Date>`now()`)
        .forShare()
        .executeTakeFirst();
      if (!row) throw new LeaseLostError(role);
    },
    onChange: (listener) => void listeners.push(listener),
    start() {
      if (started || stopped) return;
      started = true;
      loop();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      if (deadline) clearTimeout(deadline);
      await attempt;
      const wasLeading = held;
      set(false);
      if (wasLeading) await release();
    },
  };
}
