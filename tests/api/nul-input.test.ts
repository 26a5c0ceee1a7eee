import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MarketDataSource, RawTick } from '../../server/modules/market/sources/market-data-source';
import { post, startTestServer, testBackends, type TestServer } from './harness';
import { call, lastCode, password } from './identity-support';
import { fundedTrader } from './funding-support';

interface ClientSocket {
  on(event: 'unexpected-response', listener: (request: unknown, response: { statusCode: number; on(event: 'data', listener: (chunk: Buffer) => void): void; on(event: 'end', listener: () => void): void }) => void): void;
  on(event: 'open', listener: () => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
  close(): void;
}
const { WebSocket } = createRequire(import.meta.url)('ws') as { WebSocket: new (url: string) => ClientSocket };

const nul = '\u0000';
const clock = Date.parse('2026-01-13T12:00:00Z');

/** A NUL byte in any string that would reach SQL is bad input (1001, HTTP 200), never a 500. */
describe.each(testBackends())('NUL bytes in input on $name', (backend) => {
  let server: TestServer;
  let emit: ((ticks: RawTick[]) => void) | null = null;
  const source: MarketDataSource = { name: 'scripted', start: (onTicks) => void (emit = onTicks), stop: () => void (emit = null) };

  beforeAll(async () => {
    server = await startTestServer(backend, { FOREX_MIN_DEPOSIT: '0' }, { marketSource: source, nowMs: () => clock });
    emit?.([{ symbol: 'EURUSD', timeMs: clock, bid: 108500, ask: 108512, volume: 1 }]);
  });
  afterAll(async () => {
    await server?.close();
  });

  const refused = (answer: { status: number; code: number; msg: string }) => {
    expect(answer.status).toBe(200);
    expect(answer.code).toBe(1001);
    expect(answer.msg).not.toBe('');
  };

  it('refuses it in anonymous calls: login, sendMail, and sign-up without spending the code', async () => {
    refused(await call(server, '/v1/wa-na/login', { username: `a${nul}@example.com`, password, type: 'E' }));
    refused(await call(server, '/v1/wa-na/login', { username: 'a@example.com', password: `pass${nul}word 7`, type: 'E' }));
    refused(await call(server, '/v1/wa-na/sendMail', { email: `b${nul}@example.com`, type: '1', locale: 'en' }));
    refused(await call(server, '/v1/wa-na/sendMail', { email: 'b@example.com', type: '1', locale: `en${nul}` }));

    const email = `nul${Date.now().toString(36)}@example.com`;
    expect((await call(server, '/v1/wa-na/sendMail', { email, type: '1', locale: 'en' })).code).toBe(0);
    const code = await lastCode(server, email);
    refused(await call(server, '/v1/wa-na/register', { username: email, password, type: 'E', code, locale: `en${nul}` }));
    refused(await call(server, '/v1/wa-na/register', { username: email, password, type: 'E', code, locale: 'en', inviteCode: nul }));
    // The code was not spent: the same sign-up with a clean locale succeeds.
    const clean = await call(server, '/v1/wa-na/register', { username: email, password, type: 'E', code, locale: 'en' });
    expect(clean.code, clean.msg).toBe(0);
  });

  it('refuses it in a key, in a nested value, and answers in the caller language', async () => {
    refused(await call(server, '/v1/wa-na/login', { [`user${nul}name`]: 'a@example.com', password, type: 'E' }));
    refused(await call(server, '/v1/wa-na/login', { username: 'a@example.com', password, type: 'E', extra: [{ deep: [nul] }] }));
    const english = await call(server, '/v1/wa-na/login', { username: nul, password, type: 'E' });
    const german = await post(server.app, '/v1/wa-na/login', { username: nul, password, type: 'E' }, { 'accept-language': 'de' });
    expect(german.json().code).toBe(1001);
    expect(german.json().msg).not.toBe(english.msg);
  });

  it('refuses it in the sockets\' queries before the upgrade', async () => {
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `ws://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
    for (const url of ['/exchange/ws?token=%00', '/market/stomp?x=%00']) {
      const socket = new WebSocket(`${base}${url}`);
      const answer = await new Promise<string>((resolve) => {
        socket.on('unexpected-response', (_request, response) => {
          let body = '';
          response.on('data', (chunk) => (body += chunk.toString()));
          response.on('end', () => resolve(`${response.statusCode} ${body}`));
        });
        socket.on('open', () => resolve('opened'));
        socket.on('error', () => undefined);
      });
      socket.close();
      expect(answer, url).toMatch(/^200 \{"code":1001,/);
    }
  });

  it('refuses it in the account calls of this issue (password change, e-mail binding, transaction lookup) and changes nothing', async () => {
    const trader = await fundedTrader(server, '0', 'nulaccount');
    refused(await call(server, '/v1/waa/user/passwordSubmit', { oldPassword: password, newPassword: `new pass${nul}word 7` }, trader.token));
    refused(await call(server, '/v1/waa/user/passwordSubmit', { oldPassword: `${password}${nul}`, newPassword: 'new password 7' }, trader.token));
    // The session was not ended: the password did not change.
    expect((await call(server, '/v1/waa/user/info', {}, trader.token)).code).toBe(0);
    refused(await call(server, '/v1/waa/user/bindEmail/sendCode', { email: `c${nul}@example.com`, locale: 'en' }, trader.token));
    refused(await call(server, '/v1/waa/user/bindEmail', { email: 'c@example.com', code: `12${nul}456` }, trader.token));
    refused(await call(server, '/v1/waa/order/list', { uid: `1${nul}` }, trader.token));
    // Loans: a guarantor or an amount with a NUL is refused before any rule runs.
    refused(await call(server, '/v1/waa/loan/insert', { amount: '50000', days: 7, guarantor: `1${nul}` }, trader.token));
    refused(await call(server, '/v1/waa/loan/repayment/insert', { amount: `100${nul}` }, trader.token));
  });

  it('refuses it in the staff sign-in, before any account is looked up', async () => {
    refused(await call(server, '/v1/staff/login', { email: `admin${nul}@example.com`, password, code: '000000' }));
    refused(await call(server, '/v1/staff/login', { email: 'admin@example.com', password: `pass${nul}word`, code: '000000' }));
  });

  it('refuses it in signed-in calls and in market paths and queries', async () => {
    const trader = await fundedTrader(server);
    const order = { tradePair: 'EURUSD', price: '0', orderQuantity: '0.1', multiple: 100, orderType: 0, buyPoint: 2 };
    refused(await call(server, '/exchange/addOrder', { ...order, clientOrderId: `nul-${nul}` }, trader.token));
    refused(await call(server, '/exchange/addOrder', { ...order, tradePair: `EUR${nul}USD`, clientOrderId: 'nul-2' }, trader.token));
    expect((await call(server, '/exchange/addOrder', { ...order, clientOrderId: 'nul-3' }, trader.token)).code).toBe(0);

    refused(await call(server, '/market/history', { symbol: `EURUSD${nul}`, period: '1min', limit: 10 }));
    for (const url of ['/market/thumb/EUR%00USD', '/market/status/EURUSD?x=%00', `/market/history?symbol=%00`]) {
      const response = await post(server.app, url, {});
      expect(response.statusCode, url).toBe(200);
      expect(response.json().code, url).toBe(1001);
    }
  });
});
