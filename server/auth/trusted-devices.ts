import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { failureMemoryMs } from './failure-delay';

/** Expired device rows are deleted after this many new ones (an indexed delete, off most sign-ins). */
const sweepEvery = 200;

/**
 * The devices that signed in to an account (`trusted_device`), each with its own count
 * of failures in a row, shared by every server process. A device at `maxFailures` is
 * trusted no more until a day without failures has passed: a stolen cookie cannot be
 * used to guess past the account's delay for long.
 */
export function createTrustedDevices(db: Kysely<Database>, policy: { maxFailures: number; lifetimeMs: number }, nowMs: () => number = Date.now) {
  let createdSinceSweep = 0;
  return {
    /** Records a device that just signed in to `account`, under its nonce's hash. */
    async trust(id: string, account: string): Promise<void> {
      const now = new Date(nowMs());
      await db.insertInto('trusted_device').values({ id, account, created_at: now, expires_at: new Date(now.getTime() + policy.lifetimeMs) }).execute();
      if ((createdSinceSweep += 1) >= sweepEvery) {
        createdSinceSweep = 0;
        await db.deleteFrom('trusted_device').where('expires_at', '<=', now).execute();
      }
    },

    /**
     * Claims one try for a device of `account`: counted as a failure before it is evaluated
     * (a success forgives it), in one statement, so parallel tries through any process never
     * pass the maximum together. False when the device is unknown, expired, another
     * account's, or at its maximum: the try is then an untrusted client's.
     */
    async claim(id: string, account: string): Promise<boolean> {
      const now = new Date(nowMs());
      const forgetBefore = new Date(now.getTime() - failureMemoryMs);
      const claimed = await sql<{ id: string }>`
        update trusted_device as d set
          failures = case when d.last_failure_at <= ${forgetBefore} then 1 else d.failures + 1 end,
          last_failure_at = ${now}
        where d.id = ${id} and d.account = ${account} and d.expires_at > ${now}
          and (d.last_failure_at <= ${forgetBefore} or d.failures < ${policy.maxFailures})
        returning d.id`.execute(db);
      return claimed.rows.length === 1;
    },

    /** A success from the device: its failures are forgiven. */
    async forgive(id: string): Promise<void> {
      await db.updateTable('trusted_device').set({ failures: 0 }).where('id', '=', id).execute();
    },
  };
}

export type TrustedDevices = ReturnType<typeof createTrustedDevices>;
