import { PGlite } from '@electric-sql/pglite';
import { Kysely, sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PgliteDialect, watchTransactions } from '../../../../server/db/pglite-dialect';

// Each test starts a PGlite of its own: seconds of WebAssembly start on a loaded 2-core machine, over the unit project's 5 s default.
describe('the embedded database connection', { timeout: 60_000 }, () => {
  afterEach(() => vi.unstubAllEnvs());
  it('says where a holder took the connection when it keeps it while others wait (a transaction waiting on a statement outside it)', async () => {
    vi.stubEnv('PGLITE_REFUSE_NESTED', '');
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
    await expect.poll(() => reports.length, { timeout: 10_000 }).toBe(1);
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

  describe('a statement outside a transaction asked for from inside it (refused where PGLITE_REFUSE_NESTED=1, as in the tests)', () => {

    it('is refused with where it was asked, instead of waiting for ever; statements on the transaction and after it run', async () => {
      vi.stubEnv('PGLITE_REFUSE_NESTED', '1');
      const client = new PGlite();
      const db = watchTransactions(new Kysely<Record<string, never>>({ dialect: new PgliteDialect(client) }));
      await expect(
        db.transaction().execute(async (trx) => {
          await sql`select 1`.execute(trx);
          await sql`select 2`.execute(db);
        }),
      ).rejects.toThrow('a statement outside the transaction was asked for from inside it');
      await expect(db.transaction().execute(async () => db.transaction().execute(async () => 1))).rejects.toThrow('outside the transaction');
      // What runs on the transaction, and on the handle once the transaction has ended, is untouched.
      expect(await db.transaction().execute(async (trx) => (await sql<{ n: number }>`select 3 as n`.execute(trx)).rows[0]?.n)).toBe(3);
      expect((await sql<{ n: number }>`select 4 as n`.execute(db)).rows[0]?.n).toBe(4);
      await db.destroy();
    });

    it('without the setting, is named in the long-hold report beside the holder', async () => {
      // A test worker may have run the API project, whose environment sets it.
      vi.stubEnv('PGLITE_REFUSE_NESTED', '');
      const client = new PGlite();
      const reports: string[] = [];
      const db = watchTransactions(
        new Kysely<Record<string, never>>({ dialect: new PgliteDialect(client, { longHoldMs: 100, onLongHold: (_heldMs, _waiting, acquiredAt) => reports.push(acquiredAt) }) }),
      );
      // Started (a loaded machine takes seconds to start PGlite), so the wait below times the hold alone.
      await sql`select 1`.execute(db);
      void db.transaction().execute(async () => {
        await sql`select 2`.execute(db);
      });
      await expect.poll(() => reports.length, { timeout: 10_000 }).toBe(1);
      expect(reports[0]).toContain('a statement outside the transaction was asked for from inside it');
      await client.close();
    });
  });
});
