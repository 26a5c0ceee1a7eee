import crypto from 'node:crypto';

/**
 * Runs a bench part on PostgreSQL (BENCH_DATABASE_URL, else TEST_DATABASE_URL) in a schema
 * of its own, dropped afterwards; nothing when neither is set.
 */
export async function onBenchPostgres<T>(run: (target: { kind: 'postgres'; url: string; schema: string; label: string }) => Promise<T>): Promise<T | null> {
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!url) return null;
  const schema = `bench_${crypto.randomBytes(4).toString('hex')}`;
  try {
    return await run({ kind: 'postgres', url, schema, label: 'PostgreSQL' });
  } finally {
    const pg = await import('pg');
    const client = new pg.default.Client({ connectionString: url });
    await client.connect();
    await client.query(`drop schema if exists "${schema}" cascade`);
    await client.end();
  }
}
