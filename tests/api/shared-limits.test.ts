import type { AddressInfo } from 'node:net';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { buildServer } from '../../server/app';
import { createTokenService } from '../../server/auth/tokens';
import type { DatabaseHandle } from '../../server/db/database';
import { createMessageDelivery } from '../../server/messaging/delivery';
import { readSettings } from '../../server/settings';
import { openTestDatabase, testBackends, type TestServer } from './harness';
import { call, registerByEmail } from './identity-support';

/**
 * Two server instances on one database, as two processes behind a load balancer would be
 * (on PostgreSQL each with its own connection pool; PGlite is one process's, so they share it).
 */
describe.each(testBackends())('rate limits shared by two server instances on $name', (backend) => {
  const apps: FastifyInstance[] = [];
  const databases: DatabaseHandle[] = [];
  const delivery = createMessageDelivery({ smtpUrl: null, mailFrom: 'test@tradeweb.example', dataDir: null });
  let cleanup: () => Promise<void> = async () => undefined;
  let staticDir = '';
  const attemptsPerWindow = 6;
  // The ports the system gave each instance (fixed ports collide with whatever else the machine runs).
  const ports: number[] = [];

  beforeAll(async () => {
    const target = await backend.target();
    cleanup = target.cleanup;
    staticDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tradeweb-static-'));
    // The growing per-account delay starts late here, so that what is counted is the shared window itself.
    const settings = readSettings({
      LOG_LEVEL: 'silent',
      STATIC_DIR: staticDir,
      RISK_CHECK_MS: '3600000',
      LOGIN_ATTEMPTS_PER_15_MIN: String(attemptsPerWindow),
      LOGIN_FAILURES_BEFORE_DELAY: '1000',
      MARKET_CONNECTIONS_PER_ADDRESS: '2',
      DATA_ENCRYPTION_KEY: crypto.randomBytes(32).toString('base64'),
    });
    const key = crypto.randomBytes(32);
    for (let index = 0; index < 2; index += 1) {
      const database = index === 0 || target.kind === 'pglite' ? (databases[0] ?? (await openTestDatabase(target))) : await openTestDatabase(target);
      if (!databases.includes(database)) databases.push(database);
      const tokens = createTokenService({ key, accessTokenTtlSeconds: settings.accessTokenTtlSeconds });
      const app = await buildServer({ settings, database, tokens, delivery, logger: false, marketSource: null, marketSeed: 1 });
      await app.listen({ host: '127.0.0.1', port: 0 });
      ports[index] = (app.server.address() as AddressInfo).port;
      apps.push(app);
    }
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const database of databases) await database.close();
    await cleanup();
    if (staticDir) await fs.rm(staticDir, { recursive: true, force: true });
  });

  /** Instance `index` as the identity helpers call it (they use only its app and the shared delivery). */
  const instance = (index: number) => ({ app: apps[index]!, delivery }) as unknown as TestServer;

  it('counts sign-in failures split across both instances against one per-account window', async () => {
    const email = `shared${Date.now().toString(36)}@example.com`;
    await registerByEmail(instance(0), email);
    const answers = [];
    for (let index = 0; index < attemptsPerWindow * 2; index += 1) {
      answers.push((await call(instance(index % 2), '/v1/wa-na/login', { username: email, password: 'wrong password', type: 'E' })).code);
    }
    // Each instance alone would have let 6 through: together they let 6, whichever took them.
    expect(answers.slice(0, attemptsPerWindow)).toEqual(Array(attemptsPerWindow).fill(1003));
    expect(answers.slice(attemptsPerWindow)).toEqual(Array(attemptsPerWindow).fill(1033));
  });

  it('counts captcha images from one address across both instances against one window', async () => {
    const answers = [];
    for (let index = 0; index < 40; index += 1) {
      const response = await apps[index % 2]!.inject({ method: 'POST', url: '/v1/wa-na/getImageCode', headers: { 'content-type': 'application/json' }, payload: '{}', remoteAddress: '192.0.2.77' });
      answers.push((response.json() as { code: number }).code);
    }
    expect(answers.filter((code) => code === 0)).toHaveLength(30);
    expect(answers.slice(30).every((code) => code === 1033)).toBe(true);
  });

  it('lets exactly the window through when the attempts come at once, split across both instances (count and check in one statement)', async () => {
    const email = `parallel${Date.now().toString(36)}@example.com`;
    await registerByEmail(instance(0), email);
    const signIns = await Promise.all(
      Array.from({ length: attemptsPerWindow * 4 }, (_, index) => call(instance(index % 2), '/v1/wa-na/login', { username: email, password: 'wrong password', type: 'E' })),
    );
    expect(signIns.filter((answer) => answer.code === 1003)).toHaveLength(attemptsPerWindow);
    expect(signIns.filter((answer) => answer.code === 1033)).toHaveLength(attemptsPerWindow * 3);
    // The same address behind both instances asking for captcha images in one burst: 30 a minute, no more.
    const captchas = await Promise.all(
      Array.from({ length: 60 }, (_, index) =>
        apps[index % 2]!.inject({ method: 'POST', url: '/v1/wa-na/getImageCode', headers: { 'content-type': 'application/json' }, payload: '{}', remoteAddress: '192.0.2.78' }),
      ),
    );
    const codes = captchas.map((response) => (response.json() as { code: number }).code);
    expect(codes.filter((code) => code === 0)).toHaveLength(30);
    expect(codes.filter((code) => code === 1033)).toHaveLength(30);
  });

  /** A market socket to instance `index` that sends CONNECT at once, before the server has counted it. */
  function marketSocket(index: number) {
    const socket = new WebSocket(`ws://127.0.0.1:${ports[index]}/market/stomp`, ['v12.stomp']);
    const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    const firstFrame = new Promise<string>((resolve) => socket.once('message', (data: Buffer) => resolve(data.toString())));
    socket.on('open', () => socket.send('CONNECT\naccept-version:1.2\nhost:/\n\n\0'));
    socket.on('error', () => undefined);
    return { socket, closed, firstFrame };
  }

  it('counts market sockets from one address across both instances against one limit, and frees a place when one closes', async () => {
    const first = marketSocket(0);
    const second = marketSocket(1);
    expect(await first.firstFrame).toMatch(/^CONNECTED/);
    expect(await second.firstFrame).toMatch(/^CONNECTED/);
    // The third from the same address is refused, whichever instance it reaches.
    for (const index of [0, 1]) {
      expect(await marketSocket(index).closed).toEqual({ code: 4429, reason: 'too many connections from this address' });
    }
    first.socket.close();
    await first.closed;
    await vi.waitFor(async () => expect(await databases[0]!.db.selectFrom('open_connection').select('id').execute()).toHaveLength(1));
    const again = marketSocket(1);
    expect(await again.firstFrame).toMatch(/^CONNECTED/);
    again.socket.close();
    second.socket.close();
    await Promise.all([again.closed, second.closed]);
  });
});
