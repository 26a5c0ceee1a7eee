import { expect } from 'vitest';
import { UserAccountKind } from '../../server/modules/ledger/ledger-kinds';
import type { Ledger } from '../../server/modules/ledger/ledger';
import { money } from '../../src/shared/money/money';
import { post, type TestServer } from './harness';
const { cash: cashKind } = UserAccountKind;

export const password = 'correct horse 7';

/** What the outbox holds for an address or phone once every code requested so far has gone out (they go out after the answer). */
export async function outbox(server: Pick<TestServer, 'app' | 'delivery'>, to: string) {
  await server.app.identity.settled();
  return server.delivery.outboxFor(to);
}

/** The last code the outbox holds for an address or phone. */
export async function lastCode(server: Pick<TestServer, 'app' | 'delivery'>, to: string): Promise<string> {
  const messages = await outbox(server, to);
  const code = messages.filter((message) => message.code).at(-1)?.code;
  expect(code, `a code sent to ${to}`).toMatch(/^\d{6}$/);
  return code!;
}

export async function call(server: TestServer, path: string, body: unknown = {}, token?: string) {
  const response = await post(server.app, path, body, token ? { authorization: `Bearer ${token}` } : {});
  return { status: response.statusCode, ...(response.json() as { code: number; msg: string; data: unknown }) };
}

/** Signs up by e-mail through the code the outbox received. */
export async function registerByEmail(server: TestServer, email: string, options: { inviteCode?: string; password?: string } = {}) {
  expect((await call(server, '/v1/wa-na/sendMail', { email, type: '1', locale: 'en' })).code).toBe(0);
  const code = await lastCode(server, email);
  const answer = await call(server, '/v1/wa-na/register', {
    username: email,
    password: options.password ?? password,
    type: 'E',
    code,
    locale: 'en',
    ...(options.inviteCode ? { inviteCode: options.inviteCode } : {}),
  });
  expect(answer.code, answer.msg).toBe(0);
}

export async function loginByEmail(server: TestServer, email: string, pass = password) {
  const answer = await call(server, '/v1/wa-na/login', { username: email, password: pass, type: 'E' });
  expect(answer.code, answer.msg).toBe(0);
  return answer.data as { token: string; refreshToken: string; qrcodeStatus: number };
}

export async function setSwitch(server: TestServer, name: string, enabled: boolean) {
  await server.database.db.updateTable('system_switch').set({ enabled }).where('name', '=', name).execute();
  // The site service caches switches for 2 s.
  await new Promise((resolve) => setTimeout(resolve, 2_100));
}

let traders = 0;

/**
 * A signed-in user whose real cash holds `deposit`, booked straight from the house's deposits
 * account. Only tests/api/trading.test.ts still uses it (its many traders need 100,000 USD for
 * the Forex minimum, which such a 'deposit' journal also counts toward). Every other test funds
 * through funding-support.ts; forex-minimum.test.ts shows approved deposits counting.
 */
export async function ledgerFundedTrader(server: Pick<TestServer, 'app' | 'delivery'>, ledger: Ledger, deposit = '1000', prefix = 'trader') {
  const email = `${prefix}${Date.now().toString(36)}${(traders += 1)}@example.com`;
  await registerByEmail(server as TestServer, email);
  const session = await loginByEmail(server as TestServer, email);
  const info = (await call(server as TestServer, '/v1/waa/user/info', {}, session.token)).data as { uid: number };
  if (deposit !== '0') {
    await ledger.post({
      idempotencyKey: `test-deposit:${info.uid}`,
      book: 'real',
      kind: 'deposit',
      uid: info.uid,
      postings: [
        { account: { owner: null, book: 'real', kind: 'deposits' }, amount: -money(deposit) },
        { account: { owner: info.uid, book: 'real', kind: cashKind }, amount: money(deposit) },
      ],
    });
  }
  return { ...session, uid: info.uid, email };
}
