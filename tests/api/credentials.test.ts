import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testBackends, type TestServer } from './harness';
import { call, lastCode, loginByEmail, outbox, password, registerByEmail, setSwitch } from './identity-support';

const { WebSocket } = createRequire(import.meta.url)('ws') as {
  WebSocket: new (url: string) => { on(event: 'close', listener: (code: number) => void): void; on(event: 'message' | 'error', listener: () => void): void; close(): void };
};

let clock = Date.now();
const nowMs = () => clock;
let serial = 0;
const newEmail = (prefix = 'cred') => `${prefix}${Date.now().toString(36)}${(serial += 1)}@example.com`;
/** A Chinese mobile number (valid for libphonenumber), different each call. */
const newPhone = () => `861380013${String((Date.now() + (serial += 1)) % 10_000).padStart(4, '0')}`;

describe.each(testBackends())('password change and e-mail binding on $name', (backend) => {
  let server: TestServer;
  let socketBase = '';

  beforeAll(async () => {
    server = await startTestServer(
      backend,
      { SWITCHES: 'PHONE_REGISTER=1,PHONE_REGISTER_SMS_VERIFICATION=1', CODES_SENT_PER_10_MIN: '1000', CODE_CHECKS_PER_10_MIN: '1000' },
      { nowMs },
    );
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    socketBase = `ws://127.0.0.1:${(server.app.server.address() as AddressInfo).port}/exchange/ws`;
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A customer signed up and signed in by e-mail. */
  async function emailCustomer() {
    const email = newEmail();
    await registerByEmail(server, email);
    return { email, ...(await loginByEmail(server, email)) };
  }

  /** A customer signed up and signed in by phone (an SMS code), without an e-mail. */
  async function phoneCustomer() {
    const phone = newPhone();
    expect((await call(server, '/v1/wa-na/sendPhone', { phone, type: '1', locale: 'en' })).code).toBe(0);
    const code = await lastCode(server, phone);
    expect((await call(server, '/v1/wa-na/register', { username: phone, password, type: 'P', code, locale: 'en' })).code).toBe(0);
    const login = await call(server, '/v1/wa-na/login', { username: phone, password, type: 'P' });
    expect(login.code, login.msg).toBe(0);
    return { phone, ...(login.data as { token: string; refreshToken: string }) };
  }

  const signIn = (username: string, pass: string, type: 'E' | 'P' = 'E') => call(server, '/v1/wa-na/login', { username, password: pass, type });

  describe('user/passwordSubmit', () => {
    it('refuses a wrong old password (1003), a short new one (1001) and the same one (2007), changing nothing', async () => {
      const user = await emailCustomer();
      expect((await call(server, '/v1/waa/user/passwordSubmit', { oldPassword: 'not my password', newPassword: 'brand new pass' }, user.token)).code).toBe(1003);
      expect((await call(server, '/v1/waa/user/passwordSubmit', { oldPassword: password, newPassword: '123456' }, user.token)).code).toBe(1001);
      expect((await call(server, '/v1/waa/user/passwordSubmit', { oldPassword: password, newPassword: password }, user.token)).code).toBe(2007);
      expect((await call(server, '/v1/waa/user/passwordSubmit', { oldPassword: password }, user.token)).code).toBe(1001);
      // Nothing changed: the session lives and the old password still signs in.
      expect((await call(server, '/v1/waa/user/info', {}, user.token)).code).toBe(0);
      expect((await signIn(user.email, password)).code).toBe(0);
    });

    it('on success ends every session of the user (23519 at their next call, refresh refused, the exchange socket closed); the new password signs in, the old one no more', async () => {
      const user = await emailCustomer();
      const otherDevice = await loginByEmail(server, user.email);
      const bystander = await emailCustomer();
      const socket = new WebSocket(`${socketBase}?token=${encodeURIComponent(otherDevice.token)}`);
      socket.on('message', () => undefined);
      socket.on('error', () => undefined);
      const closed = new Promise<number>((resolve) => socket.on('close', resolve));
      await new Promise((resolve) => setTimeout(resolve, 200));

      const changed = await call(server, '/v1/waa/user/passwordSubmit', { oldPassword: password, newPassword: 'seven plus chars' }, user.token);
      expect(changed.code, changed.msg).toBe(0);
      expect((await call(server, '/v1/waa/user/info', {}, user.token)).code).toBe(23519);
      expect((await call(server, '/v1/waa/user/info', {}, otherDevice.token)).code).toBe(23519);
      expect((await call(server, '/v1/wa-na/refresh', { refreshToken: otherDevice.refreshToken })).code).toBe(23519);
      expect(await closed).toBeGreaterThan(0);
      // Another customer's session is untouched.
      expect((await call(server, '/v1/waa/user/info', {}, bystander.token)).code).toBe(0);

      expect((await signIn(user.email, password)).code).toBe(1003);
      const fresh = await signIn(user.email, 'seven plus chars');
      expect(fresh.code).toBe(0);
      expect((await call(server, '/v1/waa/user/info', {}, (fresh.data as { token: string }).token)).code).toBe(0);
    });

    it('two parallel changes with the old password: exactly one succeeds, and only its new password signs in', async () => {
      const user = await emailCustomer();
      const second = await loginByEmail(server, user.email);
      const answers = await Promise.all([
        call(server, '/v1/waa/user/passwordSubmit', { oldPassword: password, newPassword: 'first new password' }, user.token),
        call(server, '/v1/waa/user/passwordSubmit', { oldPassword: password, newPassword: 'second new password' }, second.token),
      ]);
      const codes = answers.map((answer) => answer.code);
      expect(codes.filter((code) => code === 0)).toHaveLength(1);
      expect([1003, 23519]).toContain(codes.find((code) => code !== 0));
      const winner = codes[0] === 0 ? 'first new password' : 'second new password';
      const loser = codes[0] === 0 ? 'second new password' : 'first new password';
      expect((await signIn(user.email, loser)).code).toBe(1003);
      expect((await signIn(user.email, password)).code).toBe(1003);
      expect((await signIn(user.email, winner)).code).toBe(0);
    });

    it('counts wrong old passwords against the account: after five, even the right one waits (1033) until the delay passes', async () => {
      const user = await emailCustomer();
      const answers = [];
      for (let index = 0; index < 7; index += 1) {
        answers.push((await call(server, '/v1/waa/user/passwordSubmit', { oldPassword: `guess number ${index}`, newPassword: 'another password' }, user.token)).code);
      }
      expect(answers.slice(0, 5)).toEqual([1003, 1003, 1003, 1003, 1003]);
      expect(answers.slice(5)).toEqual([1033, 1033]);
      const waiting = await call(server, '/v1/waa/user/passwordSubmit', { oldPassword: password, newPassword: 'another password' }, user.token);
      expect(waiting.status).toBe(429);
      expect(waiting.code).toBe(1033);
      clock += 5_000;
      expect((await call(server, '/v1/waa/user/passwordSubmit', { oldPassword: password, newPassword: 'another password' }, user.token)).code).toBe(0);
    });
  });

  describe('user/bindEmail', () => {
    const sendCode = (token: string, email: string) => call(server, '/v1/waa/user/bindEmail/sendCode', { email, locale: 'en' }, token);
    const bind = (token: string, email: string, code: string) => call(server, '/v1/waa/user/bindEmail', { email, code }, token);

    it('binds an address to a phone account with the code sent to it; the address then signs in and user/info shows it', async () => {
      const user = await phoneCustomer();
      const email = newEmail('Bind');
      expect((await sendCode(user.token, 'not-an-address')).code).toBe(1001);
      expect((await sendCode(user.token, email)).code).toBe(0);
      const code = await lastCode(server, email.toLowerCase());
      const wrong = code === '000000' ? '111111' : '000000';
      expect((await bind(user.token, email, wrong)).code).toBe(1020);
      const bound = await bind(user.token, email, code);
      expect(bound.code, bound.msg).toBe(0);
      expect((await call(server, '/v1/waa/user/info', {}, user.token)).data).toMatchObject({ email: email.toLowerCase(), registerType: 'P' });
      expect((await signIn(email, password)).code).toBe(0);
      expect((await signIn(user.phone, password, 'P')).code).toBe(0);
      // Bound once: a replay of the same code, or another address, is refused.
      expect((await bind(user.token, email, code)).code).toBe(1041);
      expect((await sendCode(user.token, newEmail())).code).toBe(1041);
    });

    it('refuses an e-mail account (1041), and every account while the switch is off', async () => {
      const emailUser = await emailCustomer();
      expect((await sendCode(emailUser.token, newEmail())).code).toBe(1041);
      expect((await bind(emailUser.token, newEmail(), '123456')).code).toBe(1041);
      const phoneUser = await phoneCustomer();
      const email = newEmail();
      expect((await sendCode(phoneUser.token, email)).code).toBe(0);
      const code = await lastCode(server, email);
      await setSwitch(server, 'user/bindEmail', false);
      try {
        expect((await sendCode(phoneUser.token, newEmail())).code).toBe(1041);
        expect((await bind(phoneUser.token, email, code)).code).toBe(1041);
      } finally {
        await setSwitch(server, 'user/bindEmail', true);
      }
      expect((await bind(phoneUser.token, email, code)).code).toBe(0);
    });

    it('a code is spent once: two parallel binds with it, one succeeds and the other is 1020; another user cannot spend it', async () => {
      const owner = await phoneCustomer();
      const intruder = await phoneCustomer();
      const email = newEmail();
      expect((await sendCode(owner.token, email)).code).toBe(0);
      const code = await lastCode(server, email);
      // The code belongs to the user it was sent for.
      expect((await bind(intruder.token, email, code)).code).toBe(1020);
      const ownerSecond = ((await signIn(owner.phone, password, 'P')).data as { token: string }).token;
      const answers = (await Promise.all([bind(owner.token, email, code), bind(ownerSecond, email, code)])).map((answer) => answer.code).sort();
      expect(answers[0]).toBe(0);
      expect([1020, 1041]).toContain(answers[1]);
      expect((await call(server, '/v1/waa/user/info', {}, intruder.token)).data).toMatchObject({ email: '' });
    });

    it('a phone account without an e-mail is told to bind one first (1040) when it withdraws; bound, the rule no longer stops it', async () => {
      const user = await phoneCustomer();
      const crypto = { num: '100', practicalNum: '99', currencyId: 1, coinId: 1, paymentAddress: 'c29tZSBhZGRyZXNz', locale: 'en' };
      const bank = { num: '100', practicalNum: '99', userBankId: 1, withdrawType: 1, locale: 'en' };
      expect((await call(server, '/v1/waa/withdraw/submit', crypto, user.token)).code).toBe(1040);
      expect((await call(server, '/v1/waa/withdraw/bankSubmit', bank, user.token)).code).toBe(1040);
      const email = newEmail();
      expect((await sendCode(user.token, email)).code).toBe(0);
      expect((await bind(user.token, email, await lastCode(server, email))).code).toBe(0);
      expect((await call(server, '/v1/waa/withdraw/submit', crypto, user.token)).code).not.toBe(1040);
      expect((await call(server, '/v1/waa/withdraw/bankSubmit', bank, user.token)).code).not.toBe(1040);
      // An e-mail account never hears it.
      const emailUser = await emailCustomer();
      expect((await call(server, '/v1/waa/withdraw/submit', crypto, emailUser.token)).code).not.toBe(1040);
    });

    it('an address of another account: the code request answers alike (its owner is told, no code sent); a code for an address taken meanwhile is 1006', async () => {
      const taken = await emailCustomer();
      const user = await phoneCustomer();
      expect((await sendCode(user.token, taken.email)).code).toBe(0);
      const mails = await outbox(server, taken.email);
      expect(mails.at(-1)?.subject).toMatch(/binding attempt/);
      expect(mails.at(-1)?.code).toBeUndefined();
      expect((await bind(user.token, taken.email, '123456')).code).toBe(1020);

      // A free address gets a code; someone else signs up with it before the bind.
      const email = newEmail();
      expect((await sendCode(user.token, email)).code).toBe(0);
      const code = await lastCode(server, email);
      await registerByEmail(server, email);
      expect((await bind(user.token, email, code)).code).toBe(1006);
      expect((await call(server, '/v1/waa/user/info', {}, user.token)).data).toMatchObject({ email: '' });
    });
  });
});
