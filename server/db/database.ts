import fs from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, Migrator, PostgresDialect, type LogEvent } from 'kysely';
import pg from 'pg';
import { migrations } from './migrations/index';
import { PgliteDialect, watchTransactions } from './pglite-dialect';
import type { Database } from './schema';

export type DatabaseKind = 'pglite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DatabaseKind;
  close(): Promise<void>;
  /** An in-memory PGlite's whole data directory as a tarball, for a later `startFrom` (the API tests migrate once per run). */
  dumpDataDir?: () => Promise<Blob>;
}

export type DatabaseTarget = (
  | {
      kind: 'pglite';
      dataDir: string | null;
      /** In memory only: start from this data directory (a `dumpDataDir` tarball) instead of an empty cluster; migrations still run (and find nothing to do when it is current). */
      startFrom?: Blob;
    }
  | {
      kind: 'postgres';
      url: string;
      schema?: string;
      /** An idle pooled connection broke (PostgreSQL restarted or killed): told, never thrown; the pool drops it and the next query connects anew. */
      onConnectionLost?: (error: Error) => void;
    }
) & {
  /** Told of every statement sent (with begin and commit): the bench counts round trips per order with it. */
  onQuery?: (event: LogEvent) => void;
};

// NUMERIC and BIGINT arrive as strings so that money stays exact.
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => value);
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => value);

/** Opens the database, applies pending migrations and answers a ready handle. */
export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  let db: Kysely<Database>;
  let dumpDataDir: (() => Promise<Blob>) | undefined;
  if (target.kind === 'pglite') {
    let client: PGlite;
    if (target.dataDir) {
      const directory = path.join(target.dataDir, 'pglite');
      await fs.mkdir(directory, { recursive: true });
      client = new PGlite(directory);
    } else {
      const memoryClient = new PGlite(target.startFrom ? { loadDataDir: target.startFrom } : {});
      dumpDataDir = () => memoryClient.dumpDataDir('none');
      client = memoryClient;
    }
    db = watchTransactions(new Kysely<Database>({ dialect: new PgliteDialect(client), ...(target.onQuery ? { log: target.onQuery } : {}) }));
  } else {
    const pool = new pg.Pool({
      connectionString: target.url,
      max: 10,
      ...(target.schema ? { options: `-c search_path=${target.schema}` } : {}),
    });
    // An idle client's error is emitted on the pool, and an unhandled 'error' event ends the
    // process: a PostgreSQL restart took every server process down with it (the fault suite).
    pool.on('error', (error) => target.onConnectionLost?.(error));
    if (target.schema) {
      const client = await pool.connect();
      try {
        await client.query(`create schema if not exists "${target.schema}"`);
      } finally {
        client.release();
      }
    }
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), ...(target.onQuery ? { log: target.onQuery } : {}) });
  }

  // The bookkeeping tables live in the target schema: otherwise the migrator, seeing them
  // in any schema of the database (another run's), would skip creating this one's.
  const migrationTableSchema = target.kind === 'postgres' ? target.schema : undefined;
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, ...(migrationTableSchema ? { migrationTableSchema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    await db.destroy();
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }

  return { db, kind: target.kind, close: () => db.destroy(), ...(dumpDataDir ? { dumpDataDir } : {}) };
}
