import crypto from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';

/**
 * Open connections per key (a client address, a user), refused over a limit: sockets are
 * long-lived, so a rate limit does not bound them; a count of the open ones does.
 */
export interface ConnectionLimit {
  /** A place for `key`, or null when it has its limit open; the returned release frees it (once). */
  acquire(key: string): Promise<(() => void) | null>;
}

/** One process's count, for a server that is alone with its sockets (the STOMP endpoint on its own, tests). */
export function createConnectionLimit(limit: number): ConnectionLimit {
  const open = new Map<string, number>();
  return {
    async acquire(key) {
      const count = open.get(key) ?? 0;
      if (count >= limit) return null;
      open.set(key, count + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (open.get(key) ?? 1) - 1;
        if (left > 0) open.set(key, left);
        else open.delete(key);
      };
    },
  };
}

/** Advisory lock class of the connection counts (the other key is the hashed scope and key). */
const connectionLockClass = 0x636f6e6e; // "conn"

/**
 * Connection counts in the database (`open_connection`), so that the limits hold across
 * every server process: one row per open socket, held under this process's lease, which a
 * timer renews; a process that dies stops renewing, and its rows stop counting once their
 * lease has run out. A place is taken under an advisory lock of its key, so two processes
 * never both take the last one. Keys are stored as keyed hashes (`keyOf`), never addresses.
 */
export function createSharedConnectionLimits(options: {
  db: Kysely<Database>;
  keyOf: (value: string) => string;
  leaseMs: number;
  nowMs?: (() => number) | undefined;
  log: (message: string, error: unknown) => void;
}) {
  const { db, leaseMs } = options;
  const nowMs = options.nowMs ?? Date.now;
  const holder = crypto.randomUUID();
  let closed = false;
  let renewal: NodeJS.Timeout | null = null;
  /** Releases on their way, waited for at close (before the database closes). */
  const releasing = new Set<Promise<unknown>>();

  function renewLater() {
    if (renewal || closed) return;
    renewal = setInterval(() => {
      db.updateTable('open_connection')
        .set({ lease_until: new Date(nowMs() + leaseMs) })
        .where('holder', '=', holder)
        .execute()
        .catch((error: unknown) => options.log('renewing the connection leases failed', error));
    }, Math.max(1_000, Math.floor(leaseMs / 3)));
    renewal.unref();
  }

  return {
    /** The limit of `limit` open connections per key of `scope` (market sockets per address, positions sockets per user…). */
    limit(scope: string, limit: number): ConnectionLimit {
      return {
        async acquire(key) {
          if (closed) return null;
          // A place this process is still giving back counts until its row is gone: a socket
          // closed and opened again at once (a reload) would otherwise find its own old place.
          if (releasing.size > 0) await Promise.all([...releasing]);
          const hashed = options.keyOf(`connections:${scope}:${key}`);
          const id = crypto.randomUUID();
          const now = new Date(nowMs());
          const taken = await db.transaction().execute(async (trx) => {
            await sql`select pg_advisory_xact_lock(${connectionLockClass}::int, hashtext(${hashed}))`.execute(trx);
            // A statement after the lock: it sees every place taken before the lock was granted.
            const inserted = await sql<{ id: string }>`
              insert into open_connection (id, key, holder, lease_until)
              select ${id}, ${hashed}, ${holder}, ${new Date(now.getTime() + leaseMs)}
              where (select count(*) from open_connection where key = ${hashed} and lease_until > ${now}) < ${limit}
              returning id`.execute(trx);
            return inserted.rows.length === 1;
          });
          if (!taken) return null;
          renewLater();
          let released = false;
          return () => {
            if (released || closed) return;
            released = true;
            const deleting = db
              .deleteFrom('open_connection')
              .where('id', '=', id)
              .execute()
              .catch((error: unknown) => options.log('releasing a connection place failed', error))
              .finally(() => releasing.delete(deleting));
            releasing.add(deleting);
          };
        },
      };
    },
    /** Frees every place this process holds (server close); later releases are no-ops. */
    async close() {
      closed = true;
      if (renewal) clearInterval(renewal);
      renewal = null;
      await Promise.all([...releasing]);
      await db.deleteFrom('open_connection').where('holder', '=', holder).execute();
      // Rows of processes that died long ago are no longer counted; they are removed here, seldom.
      await db.deleteFrom('open_connection').where('lease_until', '<', new Date(nowMs() - leaseMs)).execute();
    },
  };
}

export type SharedConnectionLimits = ReturnType<typeof createSharedConnectionLimits>;

/** Close code of a socket refused for a connection limit (the clients reconnect later with backoff). */
export const tooManyConnectionsCode = 4429;
