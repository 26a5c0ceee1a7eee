import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { leaseLeadership, LeaseLostError, type Leadership } from '../../server/cluster/leadership';
import type { DatabaseHandle } from '../../server/db/database';
import { testBackends, useTestDatabase } from './harness';

const WAIT = { timeout: 5_000, interval: 20 };

describe.each(testBackends())('leadership through the lease row ($name)', (backend) => {
  const database = useTestDatabase(backend);
  const leaderships: Leadership[] = [];

  afterEach(async () => {
    for (const leadership of leaderships.splice(0)) await leadership.stop();
    await database().db.deleteFrom('leader_lease').execute();
  });
  const open = async () => database();

  const leaseMs = 600;
  function candidate(db: DatabaseHandle, holder: string, changes: boolean[] = [], mayLead?: () => boolean) {
    const leadership = leaseLeadership({ db: db.db, role: 'jobs', holder, leaseMs, ...(mayLead ? { mayLead } : {}) });
    leadership.onChange((leading) => changes.push(leading));
    leaderships.push(leadership);
    leadership.start();
    return leadership;
  }

  it('lets one process lead; a graceful stop hands the role over at the next try', async () => {
    const db = await open();
    const first = candidate(db, 'first');
    await expect.poll(() => first.leading(), WAIT).toBe(true);
    const secondChanges: boolean[] = [];
    const second = candidate(db, 'second', secondChanges);
    // Several renewals later the holder is still the first and the second never acted.
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(first.leading()).toBe(true);
    expect(second.leading()).toBe(false);
    expect(secondChanges).toEqual([]);

    await first.stop();
    expect(first.leading()).toBe(false);
    await expect.poll(() => second.leading(), WAIT).toBe(true);
    expect(secondChanges).toEqual([true]);
    const rows = await db.db.selectFrom('leader_lease').select(['role', 'holder']).execute();
    expect(rows).toEqual([{ role: 'jobs', holder: 'second' }]);
  });

  it('a holder that can no longer do the work (its broker link down) gives the role up at its next renewal; one that cannot never takes it', async () => {
    const db = await open();
    let firstLinked = true;
    const first = candidate(db, 'first', [], () => firstLinked);
    await expect.poll(() => first.leading(), WAIT).toBe(true);
    let secondLinked = false;
    const second = candidate(db, 'second', [], () => secondLinked);
    firstLinked = false;
    await expect.poll(() => first.leading(), WAIT).toBe(false);
    // The row was let run out, yet the second, cut off too, does not take it.
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(second.leading()).toBe(false);
    secondLinked = true;
    await expect.poll(() => second.leading(), WAIT).toBe(true);
    // Far sooner than the lease running out would allow after a renewal: the first let it go.
    const rows = await db.db.selectFrom('leader_lease').select(['holder']).where('role', '=', 'jobs').execute();
    expect(rows).toEqual([{ holder: 'second' }]);
    firstLinked = true;
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(first.leading()).toBe(false);
  });

  it('takes the role of a holder that stopped renewing once its lease ran out, not before', async () => {
    const db = await open();
    // A holder that died (kill -9): its row stays until the lease runs out.
    await sql`insert into leader_lease (role, holder, expires_at) values ('jobs', 'dead', now() + interval '400 milliseconds')`.execute(db.db);
    const startedAt = Date.now();
    const heir = candidate(db, 'heir');
    await expect.poll(() => heir.leading(), WAIT).toBe(true);
    const tookMs = Date.now() - startedAt;
    expect(tookMs).toBeGreaterThanOrEqual(350);
  });

  it('numbers each take-over with an epoch that renewals keep and a handover raises, the row kept so it never goes back', async () => {
    const db = await open();
    const first = candidate(db, 'first');
    await expect.poll(() => first.epoch(), WAIT).toBe(1);
    // Several renewals: the same term.
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(first.epoch()).toBe(1);
    const second = candidate(db, 'second');
    await first.stop();
    expect(first.epoch()).toBeNull();
    await expect.poll(() => second.epoch(), WAIT).toBe(2);
    await second.stop();
    const third = candidate(db, 'third');
    await expect.poll(() => third.epoch(), WAIT).toBe(3);
    const rows = await db.db.selectFrom('leader_lease').select(['holder', 'epoch']).execute();
    expect(rows.map((row) => ({ holder: row.holder, epoch: Number(row.epoch) }))).toEqual([{ holder: 'third', epoch: 3 }]);
  });

  it('says when its term began: renewals keep the time, a take-over (even of its own run-out row) starts a new one', async () => {
    const db = await open();
    const holder = candidate(db, 'holder');
    await expect.poll(() => holder.epoch(), WAIT).toBe(1);
    const firstTerm = holder.termStartedAtMs()!;
    expect(Math.abs(firstTerm - Date.now())).toBeLessThan(2_000);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(holder.termStartedAtMs()).toBe(firstTerm);
    // Its own row run out (it paused past its lease): taking it again is a new term, later.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await sql`update leader_lease set expires_at = now() - interval '1 millisecond' where role = 'jobs'`.execute(db.db);
    await expect.poll(() => holder.epoch(), WAIT).toBe(2);
    expect(holder.termStartedAtMs()!).toBeGreaterThan(firstTerm);
    await holder.stop();
    expect(holder.termStartedAtMs()).toBeNull();
  });

  it("raises the epoch when it takes a dead holder's row", async () => {
    const db = await open();
    await sql`insert into leader_lease (role, holder, expires_at, epoch) values ('jobs', 'dead', now() - interval '1 millisecond', 7)`.execute(db.db);
    const heir = candidate(db, 'heir');
    await expect.poll(() => heir.epoch(), WAIT).toBe(8);
  });

  it('stops acting within half its lease when a renewal hangs, before the lease could run out, and takes the role again afterwards', async () => {
    const db = await open();
    const changes: boolean[] = [];
    const holder = candidate(db, 'holder', changes);
    await expect.poll(() => holder.leading(), WAIT).toBe(true);
    const epoch = holder.epoch();
    let stoppedAt = 0;
    let leaseEndsAt = 0;
    let blockedAt = 0;
    // The row locked by someone else (on PGlite: the one connection busy): every renewal waits.
    await db.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('leader_lease').select('expires_at').where('role', '=', 'jobs').forUpdate().executeTakeFirstOrThrow();
      blockedAt = Date.now();
      leaseEndsAt = new Date(row.expires_at).getTime();
      await expect.poll(() => changes.at(-1), WAIT).toBe(false);
      stoppedAt = Date.now();
    });
    expect(holder.leading()).toBe(false);
    expect(holder.epoch()).toBeNull();
    // The last renewal sent at most a renewal interval before the block: acting ends half a lease after it.
    expect(stoppedAt - blockedAt).toBeLessThanOrEqual(leaseMs / 2 + 100);
    expect(stoppedAt).toBeLessThan(leaseEndsAt);
    // The hanging renewal goes through once the row is free: the holder leads again (its lease had not run out: the same term).
    await expect.poll(() => holder.leading(), WAIT).toBe(true);
    expect(holder.epoch()).toBeGreaterThanOrEqual(epoch!);
    expect(changes).toEqual([true, false, true]);
  });

  it("refuses a write fenced by a lease someone else took over, in the writer's own transaction", async () => {
    const db = await open();
    const stale = candidate(db, 'stale');
    await expect.poll(() => stale.leading(), WAIT).toBe(true);
    await db.db.transaction().execute((trx) => stale.fenceIn(trx));
    // Another process takes the row over (as if this one's lease had run out unseen) before the stale holder's next renewal.
    await sql`update leader_lease set holder = 'usurper', epoch = epoch + 1, expires_at = now() + interval '1 minute' where role = 'jobs'`.execute(db.db);
    expect(stale.leading()).toBe(true);
    await expect(db.db.transaction().execute((trx) => stale.fenceIn(trx))).rejects.toBeInstanceOf(LeaseLostError);
    await expect.poll(() => stale.leading(), WAIT).toBe(false);
    await expect(db.db.transaction().execute((trx) => stale.fenceIn(trx))).rejects.toBeInstanceOf(LeaseLostError);
  });
});
