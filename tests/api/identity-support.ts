import { expect } from 'vitest';
import { post, type TestServer } from './harness';

export const password = 'correct horse 7';

/** The last code the outbox holds for an address or phone. */
export async function lastCode(server: TestServer, to: string): Promise<string> {
  const messages = await server.delivery.outboxFor(to);
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
