import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { leaseLeadership, type Leadership } from '../../server/cluster/leadership';
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

  function candidate(db: DatabaseHandle, holder: string, changes: boolean[] = []) {
    const leadership = leaseLeadership({ db: db.db, role: 'jobs', holder, leaseMs: 600 });
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
});
