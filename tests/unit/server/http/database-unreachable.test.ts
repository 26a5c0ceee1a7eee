import net from 'node:net';
import Fastify from 'fastify';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnreachable } from '../../../../server/db/database-errors';
import { registerErrorHandler } from '../../../../server/http/error-handler';

/** A port nothing listens on: taken from the system, then let go. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A listener that accepts a connection and hangs up at once: a database going away mid-connection. */
function hangingUp(): Promise<{ port: number; close: () => Promise<void> }> {
  const server = net.createServer((socket) => socket.destroy());
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ port: (server.address() as net.AddressInfo).port, close: () => new Promise((done) => server.close(() => done())) })),
  );
}

/** What node-postgres throws for a statement while the database at `port` cannot be reached. */
async function failureAt(port: number): Promise<unknown> {
  const pool = new pg.Pool({ host: '127.0.0.1', port, user: 'postgres', database: 'test', connectionTimeoutMillis: 2000 });
  pool.on('error', () => undefined);
  try {
    await pool.query('select 1');
    return null;
  } catch (error) {
    return error;
  } finally {
    await pool.end().catch(() => undefined);
  }
}

describe('a database that cannot be reached', () => {
  let refused: unknown;
  let hungUp: unknown;
  beforeAll(async () => {
    refused = await failureAt(await closedPort());
    const peer = await hangingUp();
    hungUp = await failureAt(peer.port);
    await peer.close();
  });

  it('is told from a refusal of what was asked: connection refused and a connection ended are unreachable, a constraint or a syntax error is not', () => {
    expect(refused).toBeInstanceOf(Error);
    expect(isDatabaseUnreachable(refused)).toBe(true);
    expect(hungUp).toBeInstanceOf(Error);
    expect(isDatabaseUnreachable(hungUp)).toBe(true);
    // The server shutting down (57P01), a connection exception (08006), and the cause of a wrapped error.
    expect(isDatabaseUnreachable(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(true);
    expect(isDatabaseUnreachable(Object.assign(new Error('connection failure'), { code: '08006' }))).toBe(true);
    expect(isDatabaseUnreachable(new Error('the transaction failed', { cause: refused }))).toBe(true);
    expect(isDatabaseUnreachable(Object.assign(new Error('duplicate key value'), { code: '23505' }))).toBe(false);
    expect(isDatabaseUnreachable(Object.assign(new Error('syntax error'), { code: '42601' }))).toBe(false);
    expect(isDatabaseUnreachable(new Error('something else'))).toBe(false);
  });

  it('answers 503 with Retry-After and code 1033 in the reader’s language, not "Unknown error" (1000)', async () => {
    const app = Fastify({ logger: false });
    registerErrorHandler(app);
    app.post('/v1/waa/test/statement', async () => {
      throw refused;
    });
    app.post('/v1/waa/test/bug', async () => {
      throw new TypeError('a bug');
    });
    const german = await app.inject({ method: 'POST', url: '/v1/waa/test/statement', payload: {}, headers: { 'accept-language': 'de' } });
    expect(german.statusCode).toBe(503);
    expect(german.headers['retry-after']).toBe('5');
    expect(german.headers['content-language']).toBe('de');
    expect(german.json()).toEqual({ code: 1033, msg: 'Der Dienst ist kurz nicht verfügbar. Bitte versuchen Sie es gleich noch einmal. (1033)', data: null });
    // No detail of the connection (host, port) in the answer.
    expect(german.body).not.toMatch(/127\.0\.0\.1|ECONNREFUSED/);
    // A fault of the code itself is still a 500 "Unknown error".
    const bug = await app.inject({ method: 'POST', url: '/v1/waa/test/bug', payload: {} });
    expect(bug.statusCode).toBe(500);
    expect(bug.json().code).toBe(1000);
    await app.close();
  });
});
