import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactUrl } from '../../server/http/log-redaction';
import { startTestServer, testBackends, type TestServer } from './harness';
import { call, loginByEmail, outbox, registerByEmail } from './identity-support';

interface ClientSocket {
  on(event: 'message', listener: (data: Buffer) => void): void;
  on(event: 'close', listener: (code: number) => void): void;
  close(): void;
}
const { WebSocket } = createRequire(import.meta.url)('ws') as { WebSocket: new (url: string) => ClientSocket };

describe('secret query parameters in logged URLs', () => {
  it('are replaced, other parameters and the path kept', () => {
    expect(redactUrl('/exchange/ws?token=abc.def.ghi')).toBe('/exchange/ws?token=[REDACTED]');
    expect(redactUrl('/x?symbol=EURUSD&refreshToken=r1&password=p&code=123456&Access_Token=z')).toBe(
      '/x?symbol=EURUSD&refreshToken=[REDACTED]&password=[REDACTED]&code=[REDACTED]&Access_Token=[REDACTED]',
    );
    expect(redactUrl('/x?%74oken=abc')).toBe('/x?%74oken=[REDACTED]');
    expect(redactUrl('/market/history')).toBe('/market/history');
  });
});

describe.each(testBackends())('server log on $name', (backend) => {
  let server: TestServer;
  let base = '';
  const lines: string[] = [];

  beforeAll(async () => {
    // The server's own logger, at info level, writing into memory.
    server = await startTestServer(backend, {}, { logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } } });
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    base = `ws://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('never holds an access token, from the positions socket query or a bearer header, while paths are still logged', async () => {
    const email = `log${Date.now().toString(36)}@example.com`;
    await registerByEmail(server, email);
    const session = await loginByEmail(server, email);
    expect((await call(server, '/v1/waa/user/balance', {}, session.token)).code).toBe(0);

    const socket = new WebSocket(`${base}/exchange/ws?token=${encodeURIComponent(session.token)}`);
    await new Promise<void>((resolve) => socket.on('message', () => resolve()));
    socket.close();
    await new Promise<void>((resolve) => socket.on('close', () => resolve()));

    const log = lines.join('');
    expect(log).toContain('/exchange/ws');
    expect(log).toContain('/v1/waa/user/balance');
    expect(log).not.toContain(session.token);
    // Not even the signature part alone, or the refresh token.
    expect(log).not.toContain(session.token.split('.')[2]);
    expect(log).not.toContain(session.refreshToken);
  });
});

describe.each(testBackends())('sign-up codes in the log on $name', (backend) => {
  /** Each test starts its own server (and a sign-up); a shared machine can be slow at it. */
  const serverTestTimeoutMs = 60_000;
  /** A server whose own logger writes into `lines`, on the given environment. */
  async function serverLogging(environment: Record<string, string>) {
    const lines: string[] = [];
    const server = await startTestServer(backend, environment, { logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } } });
    const entries = () => lines.map((line) => JSON.parse(line) as { msg: string; to?: string; purpose?: string; code?: string });
    return { server, entries };
  }

  it('says at start where messages go and, in development without SMTP, logs each code sent to the outbox', async () => {
    const { server, entries } = await serverLogging({});
    try {
      expect(entries().filter((entry) => entry.msg.startsWith('messages:')).map((entry) => entry.msg)).toEqual([
        'messages: e-mail and SMS to the outbox in memory (no SMTP_URL)',
      ]);
      const email = `dev${Date.now().toString(36)}@example.com`;
      await registerByEmail(server, email);
      const code = (await outbox(server, email)).find((message) => message.code)?.code;
      const logged = entries().filter((entry) => entry.code !== undefined);
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({ to: email, purpose: 'sign-up', code, msg: `development outbox: sign-up code for ${email}: ${code}` });
    } finally {
      await server.close();
    }
  }, serverTestTimeoutMs);

  it.each([
    ['when SMTP is configured', { SMTP_URL: 'smtp://mail.example:587' }],
    ['in production', { NODE_ENV: 'production' }],
  ] satisfies [string, Record<string, string>][])('never logs a code %s', async (_when, environment) => {
    const { server, entries } = await serverLogging(environment);
    try {
      const email = `quiet${Date.now().toString(36)}@example.com`;
      // The test's outbox stands in for SMTP here, so the code can be looked for.
      await registerByEmail(server, email);
      const code = (await outbox(server, email)).find((message) => message.code)?.code;
      expect(code).toMatch(/^\d{6}$/);
      expect(entries().some((entry) => entry.code !== undefined || entry.msg.includes(code!))).toBe(false);
      if ('SMTP_URL' in environment) expect(entries().some((entry) => entry.msg === 'messages: e-mail by SMTP, SMS to the outbox in memory')).toBe(true);
    } finally {
      await server.close();
    }
  }, serverTestTimeoutMs);
});
