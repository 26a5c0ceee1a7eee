import { PGlite } from '@electric-sql/pglite';
import { Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { PgliteDialect } from '../../../../server/db/pglite-dialect';

describe('the embedded database connection', () => {
  it('says where a holder took the connection when it keeps it while others wait (a transaction waiting on a statement outside it)', async () => {
    const client = new PGlite();
    const reports: { waiting: number; acquiredAt: string }[] = [];
    const db = new Kysely<Record<string, never>>({
      dialect: new PgliteDialect(client, { longHoldMs: 100, onLongHold: (_heldMs, waiting, acquiredAt) => reports.push({ waiting, acquiredAt }) }),
    });
    await sql`select 1`.execute(db);
    // The deadlock the report is for: inside the transaction, a statement on `db` instead of `trx`.
    void db.transaction().execute(async () => {
      await sql`select 2`.execute(db);
    });
    await expect.poll(() => reports.length, { timeout: 2_000 }).toBe(1);
    expect(reports[0]?.waiting).toBe(1);
    expect(reports[0]?.acquiredAt).toContain('the embedded database connection was taken here');
    await client.close();
  });

  it('reports nothing for statements and transactions that take turns', async () => {
    const client = new PGlite();
    const reports: unknown[] = [];
    const db = new Kysely<Record<string, never>>({ dialect: new PgliteDialect(client, { longHoldMs: 50, onLongHold: () => reports.push(1) }) });
    await Promise.all([
      db.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        await new Promise((resolve) => setTimeout(resolve, 30));
      }),
      sql`select 2`.execute(db),
      sql`select 3`.execute(db),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(reports).toEqual([]);
    await db.destroy();
  });
});
