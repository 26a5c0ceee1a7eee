import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, inject } from 'vitest';
import pg from 'pg';
import { buildServer, type ServerDependencies } from '../../server/app';
import { createTokenService, type TokenService } from '../../server/auth/tokens';
import { openDatabase, type DatabaseHandle, type DatabaseTarget } from '../../server/db/database';
import { createMessageDelivery, type MessageDelivery } from '../../server/messaging/delivery';
import type { MarketDataSource, RawTick } from '../../server/modules/market/sources/market-data-source';
import { readSettings } from '../../server/settings';

/**
 * An advisory lock of the test database: migrations hold it shared, a test schema's drop
 * exclusively. The migrator lists every table of the database, other tests' schemas
 * included, and resolves each name again (`pg_get_serial_sequence`): a schema dropped by
 * a parallel test between the two failed it with "schema … does not exist" (seen on CI).
 */
const schemaDropLockKey = 0x7e57_5c4e;

async function withSchemaDropLock<T>(url: string, mode: 'shared' | 'exclusive', run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(mode === 'shared' ? 'select pg_advisory_lock_shared($1)' : 'select pg_advisory_lock($1)', [schemaDropLockKey]);
    return await run(client);
  } finally {
    // Ending the session releases its advisory lock.
    await client.end();
  }
}

/** Opens (and migrates) a test backend's database; on PostgreSQL, never while a test schema is being dropped. */
export function openTestDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  if (target.kind !== 'postgres') return openDatabase(target);
  return withSchemaDropLock(target.url, 'shared', () => openDatabase(target));
}

let migratedPgliteBlob: Promise<Blob> | null = null;

/** The migrated embedded database the run made once (support/migrated-pglite.global.ts), read once per test file. */
function migratedPglite(): Promise<Blob> {
  migratedPgliteBlob ??= fs.readFile(inject('migratedPgliteDataDir')).then((bytes) => new Blob([bytes]));
  return migratedPgliteBlob;
}

export interface TestBackend {
  name: string;
  target: () => Promise<DatabaseTarget & { cleanup: () => Promise<void> }>;
}

/**
 * The databases every API test runs on: embedded PGlite always, PostgreSQL too when
 * TEST_DATABASE_URL is set (each run in its own schema, dropped afterwards).
 */
export function testBackends(): TestBackend[] {
  const backends: TestBackend[] = [
    { name: 'pglite', target: async () => ({ kind: 'pglite', dataDir: null, startFrom: await migratedPglite(), cleanup: async () => undefined }) },
  ];
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    backends.push({
      name: 'postgres',
      target: async () => {
        const schema = `test_${crypto.randomBytes(6).toString('hex')}`;
        return {
          kind: 'postgres',
          url,
          schema,
          cleanup: () => withSchemaDropLock(url, 'exclusive', async (client) => void (await client.query(`drop schema if exists "${schema}" cascade`))),
        };
      },
    });
  }
  return backends;
}

/**
 * A bare database of `backend` for the describe block it is called in (migrated, no server),
 * opened before its tests and closed and dropped after them: answers a getter for it.
 */
export function useTestDatabase(backend: TestBackend): () => DatabaseHandle {
  let database: DatabaseHandle | null = null;
  let cleanup: (() => Promise<void>) | null = null;
  beforeAll(async () => {
    const target = await backend.target();
    cleanup = target.cleanup;
    database = await openTestDatabase(target);
  });
  afterAll(async () => {
    await database?.close();
    await cleanup?.();
  });
  return () => {
    if (!database) throw new Error('the test database is opened in beforeAll');
    return database;
  };
}

export interface TestServer {
  app: FastifyInstance;
  tokens: TokenService;
  database: DatabaseHandle;
  /** Mail and SMS the server sent (kept in memory), or the delivery a test brought. */
  delivery: MessageDelivery;
  /** The server's clock (a test's scripted one when it brought one), for TOTP codes of staff signing in. */
  nowMs: () => number;
  close(): Promise<void>;
}

export async function startTestServer(
  backend: TestBackend,
  environment: Record<string, string> = {},
  extra: Pick<ServerDependencies, 'marketSource' | 'marketSeed' | 'nowMs' | 'delivery' | 'logger' | 'cluster'> = {},
): Promise<TestServer> {
  const target = await backend.target();
  const staticDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tradeweb-static-'));
  // Stop-out is the test's to run (`trading.checkStopOuts()`): a background pass every second would race its steps.
  const settings = readSettings({ LOG_LEVEL: 'silent', STATIC_DIR: staticDir, RISK_CHECK_MS: '3600000', ...environment });
  const database = await openTestDatabase(target);
  const tokens = createTokenService({ key: crypto.randomBytes(32), accessTokenTtlSeconds: settings.accessTokenTtlSeconds, ...(extra.nowMs ? { nowMs: extra.nowMs } : {}) });
  const delivery = extra.delivery ?? createMessageDelivery({ smtpUrl: null, mailFrom: 'test@tradeweb.example', dataDir: null, ...(extra.nowMs ? { nowMs: extra.nowMs } : {}) });
  // No live price source unless a test brings one: ticks are then the test's to give.
  const app = await buildServer({ settings, database, tokens, delivery, logger: false, marketSource: null, marketSeed: 1, ...extra });
  await app.ready();
  return {
    app,
    tokens,
    database,
    delivery,
    nowMs: extra.nowMs ?? Date.now,
    async close() {
      await app.close();
      await database.close();
      await target.cleanup();
      await fs.rm(staticDir, { recursive: true, force: true });
    },
  };
}

export function post(app: FastifyInstance, url: string, body?: unknown, headers: Record<string, string> = {}) {
  return app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
}

/** A price source the test drives: `push` hands the server ticks as a live source would. */
export function scriptedSource() {
  let emit: ((ticks: RawTick[]) => void) | null = null;
  const source: MarketDataSource = { name: 'scripted', start: (onTicks) => void (emit = onTicks), stop: () => void (emit = null) };
  return { source, push: (ticks: RawTick[]) => emit?.(ticks) };
}
