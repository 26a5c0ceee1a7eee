import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../server/db/database';
import { openTestDatabase, testBackends } from './harness';

/**
 * PostgreSQL ending an idle pooled connection (a restart, a kill -9, an operator's
 * pg_terminate_backend): the pool's 'error' event is handled, so the process lives on (an
 * unhandled one ended every server process of the fault suite's cluster), it is told, and the
 * next query connects again.
 */
describe.each(testBackends().filter((backend) => backend.name === 'postgres'))('an idle PostgreSQL connection ended by the server ($name)', (backend) => {
  let database: DatabaseHandle;
  let cleanup: () => Promise<void> = async () => undefined;
  const lost: Error[] = [];
  let url = '';

  beforeAll(async () => {
    const target = await backend.target();
    cleanup = target.cleanup;
    if (target.kind !== 'postgres') throw new Error('a PostgreSQL backend');
    url = target.url;
    database = await openTestDatabase({ ...target, onConnectionLost: (error) => lost.push(error) });
  });
  afterAll(async () => {
    await database?.close();
    await cleanup();
  });

  it('is told, not thrown, and the next query succeeds on a new connection', async () => {
    const pid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(database.db)).rows[0]!.pid;
    // The connection is idle in the pool now; a connection of another client ends it, as a restart would.
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      expect((await admin.query<{ ended: boolean }>('select pg_terminate_backend($1) as ended', [pid])).rows).toEqual([{ ended: true }]);
    } finally {
      await admin.end();
    }
    await expect.poll(() => lost.length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect((await sql<{ one: number }>`select 1 as one`.execute(database.db)).rows).toEqual([{ one: 1 }]);
  });
});
