import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 35's measurement: one process with the default SERVER_ROLES (`all`) and a second
 * with `api`, on one PostgreSQL and RabbitMQ. The second quoted a stale bar price as live
 * (0 of 20 samples agreed). `all` is every role, publishing its ticks included, so the
 * second quotes the same live prices; and what it quotes it never calls live when stale.
 */
const databaseUrl = process.env.TEST_DATABASE_URL;
const brokerUrl = process.env.TEST_RABBITMQ_WEB_STOMP_URL;
const ports = { all: 8503, api: 8504 };
const WAIT = { timeout: 30_000, interval: 100 };

interface Thumb {
  bidPrice: string;
  lastUpdate: number;
  stale: boolean;
}

describe.skipIf(!databaseUrl || !brokerUrl)('SERVER_ROLES=all beside an api process on one PostgreSQL and RabbitMQ', () => {
  const databaseName = `allrole_${crypto.randomBytes(5).toString('hex')}`;
  const clusterUrl = (() => {
    const url = new URL(databaseUrl ?? 'postgres://localhost/x');
    url.pathname = `/${databaseName}`;
    return url.toString();
  })();
  const environment: Record<string, string> = {
    DATABASE_URL: clusterUrl,
    MARKET_BROKER_URL: brokerUrl ?? '',
    JWT_SECRET: crypto.randomBytes(32).toString('base64url'),
    DATA_ENCRYPTION_KEY: crypto.randomBytes(32).toString('base64'),
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    MARKET_SEED: '23',
    LEADER_LEASE_MS: '1000',
  };
  const children: ChildProcess[] = [];
  let dataDir = '';

  async function start(roles: string, port: number) {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: { ...process.env, ...environment, SERVER_ROLES: roles, PORT: String(port), DATA_DIR: path.join(dataDir, roles), STATIC_DIR: path.join(dataDir, 'static') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    const output: string[] = [];
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    const deadline = Date.now() + 90_000;
    while (child.exitCode === null && Date.now() < deadline) {
      if (await fetch(`http://127.0.0.1:${port}/healthz`).then((answer) => answer.ok, () => false)) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`${roles} did not start:\n${output.join('').slice(-2000)}`);
  }

  const thumb = async (port: number) => {
    const answer = (await (await fetch(`http://127.0.0.1:${port}/market/thumb/BTCUSDT`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json()) as { data: Thumb };
    return answer.data;
  };
  const health = async (port: number) => (await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()) as { roles: string[]; leads: { market: boolean; jobs: boolean }; prices: { live: boolean; stale: string[] } };

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`create database "${databaseName}"`);
    await admin.end();
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tradeweb-allrole-'));
    await fs.mkdir(path.join(dataDir, 'static'));
    await start('all', ports.all);
    await start('api', ports.api);
  }, 200_000);

  afterAll(async () => {
    await Promise.all(
      children.map((child) => {
        if (child.exitCode !== null || child.signalCode !== null) return undefined;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        return exited;
      }),
    );
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`drop database if exists "${databaseName}" with (force)`);
    await admin.end();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('the all process leads the market and publishes its ticks: the api process quotes the same live price', async () => {
    await expect.poll(async () => (await health(ports.all)).leads, WAIT).toEqual({ market: true, jobs: true });
    // Both quote live BTCUSDT, and at the same tick (the api process follows the all process's feed).
    await expect
      .poll(async () => {
        const [first, second] = await Promise.all([thumb(ports.all), thumb(ports.api)]);
        return !first.stale && !second.stale && Math.abs(first.lastUpdate - second.lastUpdate) <= 1_000;
      }, WAIT)
      .toBe(true);
    expect((await health(ports.api)).prices.stale).not.toContain('BTCUSDT');
  });
});
