import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testBackends, type TestServer } from './harness';
import { createMessageDelivery, type MessageDelivery } from '../../server/messaging/delivery';
import { call, lastCode, loginByEmail, outbox, password, registerByEmail } from './identity-support';

let clock = Date.now();
const nowMs = () => clock;
let mailbox = 0;
const newEmail = () => `limits${Date.now().toString(36)}${(mailbox += 1)}@example.com`;

/** A call as a given connection would make it: its own address, and any headers it chooses to send. */
async function from(server: TestServer, path: string, body: unknown, options: { remoteAddress?: string; forwardedFor?: string } = {}) {
  const response = await server.app.inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/json', ...(options.forwardedFor ? { 'x-forwarded-for': options.forwardedFor } : {}) },
    payload: JSON.stringify(body),
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
  });
  return { status: response.statusCode, ...(response.json() as { code: number; msg: string; data: unknown }) };
}

const address = (index: number) => `198.51.${Math.floor(index / 250)}.${(index % 250) + 1}`;

describe.each(testBackends())('rate limits on $name', (backend) => {
  describe('with the default settings (no trusted proxy)', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(backend, { CODE_CHECKS_PER_10_MIN: '1000', CODES_SENT_PER_10_MIN: '1000' }, { nowMs });
    });
    afterAll(async () => {
      await server?.close();
    });

    it('ignores X-Forwarded-For: 200 wrong passwords from "200 addresses" are limited, and the right one after them waits', async () => {
      const email = newEmail();
      await registerByEmail(server, email);
      const answers = [];
      for (let index = 0; index < 200; index += 1) {
        answers.push((await from(server, '/v1/wa-na/login', { username: email, password: 'wrong password', type: 'E' }, { forwardedFor: address(index) })).code);
      }
      expect(answers.filter((code) => code === 1003).length).toBeLessThanOrEqual(5);
      expect(answers.filter((code) => code === 1033).length).toBeGreaterThanOrEqual(195);
      const right = await from(server, '/v1/wa-na/login', { username: email, password, type: 'E' }, { forwardedFor: address(201) });
      expect(right.status).toBe(429);
      expect(right.code).toBe(1033);
    });

    it('ignores X-Forwarded-For for the per-address limits too (captcha images)', async () => {
      const answers = [];
      for (let index = 0; index < 40; index += 1) answers.push((await from(server, '/v1/wa-na/getImageCode', {}, { remoteAddress: '192.0.2.7', forwardedFor: address(index) })).code);
      expect(answers.filter((code) => code === 0)).toHaveLength(30);
      expect(answers.slice(30).every((code) => code === 1033)).toBe(true);
    });

    it('limits sign-in per account whatever the real address, with a growing delay that a success ends', async () => {
      const email = newEmail();
      await registerByEmail(server, email);
      const answers = [];
      for (let index = 0; index < 200; index += 1) {
        answers.push(await from(server, '/v1/wa-na/login', { username: email, password: 'wrong password', type: 'E' }, { remoteAddress: address(index) }));
      }
      // LOGIN_FAILURES_BEFORE_DELAY (5) are evaluated; the fifth makes the next wait 1 s.
      expect(answers.map((answer) => answer.code).slice(0, 5)).toEqual([1003, 1003, 1003, 1003, 1003]);
      expect(answers.slice(5).every((answer) => answer.code === 1033 && answer.status === 429)).toBe(true);
      expect(answers[5]?.data).toEqual({ retryAfterSeconds: 1 });
      const right = await from(server, '/v1/wa-na/login', { username: email, password, type: 'E' }, { remoteAddress: address(300) });
      expect(right.code).toBe(1033);
      expect(right.data).toEqual({ retryAfterSeconds: 1 });

      // Each further failure doubles the wait.
      for (const wait of [1, 2, 4, 8]) {
        clock += wait * 1000;
        expect((await from(server, '/v1/wa-na/login', { username: email, password: 'wrong password', type: 'E' }, { remoteAddress: address(400 + wait) })).code).toBe(1003);
        const refused = await from(server, '/v1/wa-na/login', { username: email, password, type: 'E' }, { remoteAddress: address(500 + wait) });
        expect(refused.data).toEqual({ retryAfterSeconds: wait * 2 });
      }
      clock += 16_000;
      expect((await from(server, '/v1/wa-na/login', { username: email, password, type: 'E' }, { remoteAddress: address(600) })).code).toBe(0);
      // The success forgot the failures: a typo costs nothing again.
      expect((await from(server, '/v1/wa-na/login', { username: email, password: 'wrong password', type: 'E' }, { remoteAddress: address(601) })).code).toBe(1003);
      expect((await from(server, '/v1/wa-na/login', { username: email, password, type: 'E' }, { remoteAddress: address(602) })).code).toBe(0);
    });

    it('delays an unknown account exactly as a known one (no enumeration through the limit)', async () => {
      const stranger = newEmail();
      const answers = [];
      for (let index = 0; index < 7; index += 1) answers.push((await from(server, '/v1/wa-na/login', { username: stranger, password: 'wrong password', type: 'E' }, { remoteAddress: address(index) })).code);
      expect(answers).toEqual([1003, 1003, 1003, 1003, 1003, 1033, 1033]);
    });

    it('limits code checks per destination whatever the address', async () => {
      const email = newEmail();
      expect((await call(server, '/v1/wa-na/sendMail', { email, type: '1', locale: 'en' })).code).toBe(0);
      const answers = [];
      for (let index = 0; index < 30; index += 1) {
        answers.push((await from(server, '/v1/wa-na/register', { username: email, password, type: 'E', code: String(100000 + index), locale: 'en' }, { remoteAddress: address(index) })).code);
      }
      // CODE_FAILURES_BEFORE_DELAY (10) checks, then the growing wait.
      expect(answers.slice(0, 10).every((code) => code === 1020)).toBe(true);
      expect(answers.slice(10).every((code) => code === 1033)).toBe(true);
    });
  });

  describe('the five tries of a code, under parallel guesses', () => {
    let server: TestServer;
    beforeAll(async () => {
      // The per-destination delay is put out of the way: this is about the code's own lock.
      server = await startTestServer(backend, { CODE_FAILURES_BEFORE_DELAY: '1000', CODE_CHECKS_PER_10_MIN: '1000', CODES_SENT_PER_10_MIN: '1000' }, { nowMs });
    });
    afterAll(async () => {
      await server?.close();
    });

    const codeRow = (email: string) =>
      server.database.db.selectFrom('verification_code').select(['attempts', 'consumed_at']).where('destination', '=', email).orderBy('id', 'desc').executeTakeFirstOrThrow();
    const guess = (email: string, code: string) => call(server, '/v1/wa-na/register', { username: email, password, type: 'E', code, locale: 'en' });

    it('50 parallel wrong guesses are counted to exactly 5, and the right code afterwards is refused (1020)', async () => {
      const email = newEmail();
      expect((await call(server, '/v1/wa-na/sendMail', { email, type: '1', locale: 'en' })).code).toBe(0);
      const code = await lastCode(server, email);
      const wrong = code === '000000' ? '111111' : '000000';
      const answers = await Promise.all(Array.from({ length: 50 }, () => guess(email, wrong)));
      expect(answers.every((answer) => answer.code === 1020)).toBe(true);
      expect((await codeRow(email)).attempts).toBe(5);
      expect((await guess(email, code)).code).toBe(1020);
      expect((await codeRow(email)).attempts).toBe(5);
    });

    it('the right code among 20 wrong ones in parallel is accepted only if it was among the 5 evaluated', async () => {
      for (let round = 0; round < 3; round += 1) {
        const email = newEmail();
        expect((await call(server, '/v1/wa-na/sendMail', { email, type: '1', locale: 'en' })).code).toBe(0);
        const code = await lastCode(server, email);
        const guesses = Array.from({ length: 20 }, (_, index) => String((Number(code) + 1 + index) % 1_000_000).padStart(6, '0'));
        guesses.splice((round * 7) % 21, 0, code);
        const answers = await Promise.all(guesses.map((given) => guess(email, given)));
        const row = await codeRow(email);
        const accepted = answers.filter((answer) => answer.code === 0).length;
        // Never more than 5 guesses evaluated, whatever order they arrived in.
        expect(row.attempts).toBeLessThanOrEqual(5);
        expect(answers.filter((answer) => answer.code !== 0).every((answer) => answer.code === 1020)).toBe(true);
        if (row.consumed_at) {
          expect(accepted).toBe(1);
        } else {
          expect(accepted).toBe(0);
          expect(row.attempts).toBe(5);
        }
      }
    });
  });

  describe('code requests answer alike whether or not the address has an account', () => {
    let server: TestServer;
    /** While set, every message waits for it: a delivery that does not resolve. */
    let gate: Promise<void> | null = null;
    let failing = false;
    beforeAll(async () => {
      const inner = createMessageDelivery({ smtpUrl: null, mailFrom: 'test@tradeweb.example', dataDir: null, nowMs });
      const delivery: MessageDelivery = {
        async send(message) {
          if (gate) await gate;
          if (failing) throw new Error('SMTP is down');
          await inner.send(message);
        },
        outboxFor: (to) => inner.outboxFor(to),
        outboxFile: inner.outboxFile,
      };
      server = await startTestServer(backend, { SWITCHES: 'PHONE_REGISTER=1,PHONE_REGISTER_SMS_VERIFICATION=1', CODE_CHECKS_PER_10_MIN: '1000', CODES_SENT_PER_10_MIN: '1000' }, { nowMs, delivery });
    });
    afterAll(async () => {
      await server?.close();
    });

    let phones = 0;
    const newPhone = () => `1415557${String((Date.now() + (phones += 1)) % 10000).padStart(4, '0')}`;

    /** Two requests 20 s apart: what a caller sees. */
    async function twoSends(path: '/v1/wa-na/sendMail' | '/v1/wa-na/sendPhone', to: string, type: '1' | '2') {
      const body = path === '/v1/wa-na/sendMail' ? { email: to, type, locale: 'en' } : { phone: to, type, locale: 'en' };
      const first = await call(server, path, body);
      clock += 20_000;
      const second = await call(server, path, body);
      return [first, second];
    }

    it('e-mail: reset and sign-up code requests answer the same for a known and an unknown address', async () => {
      const known = newEmail();
      await registerByEmail(server, known);
      clock += 61_000;
      const forgotKnown = await twoSends('/v1/wa-na/sendMail', known, '2');
      const forgotUnknown = await twoSends('/v1/wa-na/sendMail', newEmail(), '2');
      expect(forgotKnown.map((answer) => answer.code)).toEqual([0, 1033]);
      expect(forgotUnknown).toEqual(forgotKnown);
      expect(forgotKnown[1]).toMatchObject({ status: 429, data: { retryAfterSeconds: 40 } });

      clock += 61_000;
      const signUpKnown = await twoSends('/v1/wa-na/sendMail', known, '1');
      const signUpUnknown = await twoSends('/v1/wa-na/sendMail', newEmail(), '1');
      expect(signUpKnown.map((answer) => answer.code)).toEqual([0, 1033]);
      expect(signUpUnknown).toEqual(signUpKnown);
    });

    it('phone: reset and sign-up code requests answer the same for a known and an unknown number', async () => {
      const known = newPhone();
      expect((await call(server, '/v1/wa-na/sendPhone', { phone: known, type: '1', locale: 'en' })).code).toBe(0);
      const code = await lastCode(server, known);
      expect((await call(server, '/v1/wa-na/register', { username: known, password, type: 'P', code, locale: 'en' })).code).toBe(0);
      clock += 61_000;
      const forgotKnown = await twoSends('/v1/wa-na/sendPhone', known, '2');
      const forgotUnknown = await twoSends('/v1/wa-na/sendPhone', newPhone(), '2');
      expect(forgotKnown.map((answer) => answer.code)).toEqual([0, 1033]);
      expect(forgotUnknown).toEqual(forgotKnown);

      clock += 61_000;
      const signUpKnown = await twoSends('/v1/wa-na/sendPhone', known, '1');
      const signUpUnknown = await twoSends('/v1/wa-na/sendPhone', newPhone(), '1');
      expect(signUpKnown.map((answer) => answer.code)).toEqual([0, 1033]);
      expect(signUpUnknown).toEqual(signUpKnown);
    });

    it('answers without waiting for the delivery, which still happens (or fails quietly) afterwards', async () => {
      const known = newEmail();
      await registerByEmail(server, known);
      clock += 61_000;
      let open = () => {};
      gate = new Promise<void>((resolve) => (open = resolve));
      const stranger = newEmail();
      try {
        expect((await call(server, '/v1/wa-na/sendMail', { email: known, type: '2', locale: 'en' })).code).toBe(0);
        expect((await call(server, '/v1/wa-na/sendMail', { email: stranger, type: '1', locale: 'en' })).code).toBe(0);
        expect((await call(server, '/v1/wa-na/sendMail', { email: newEmail(), type: '2', locale: 'en' })).code).toBe(0);
      } finally {
        gate = null;
        open();
      }
      expect(await lastCode(server, known)).toMatch(/^\d{6}$/);
      expect(await lastCode(server, stranger)).toMatch(/^\d{6}$/);

      failing = true;
      try {
        const unlucky = newEmail();
        expect((await call(server, '/v1/wa-na/sendMail', { email: unlucky, type: '1', locale: 'en' })).code).toBe(0);
        expect(await outbox(server, unlucky)).toEqual([]);
      } finally {
        failing = false;
      }
    });

    it('parallel requests for one destination send exactly one code', async () => {
      // Open the pool's connections first, so that the requests really do run side by side.
      await Promise.all(Array.from({ length: 10 }, () => sql`select 1`.execute(server.database.db)));
      for (let round = 0; round < 3; round += 1) {
        const email = newEmail();
        const answers = await Promise.all(Array.from({ length: 10 }, () => call(server, '/v1/wa-na/sendMail', { email, type: '1', locale: 'en' })));
        expect(answers.filter((answer) => answer.code === 0)).toHaveLength(1);
        expect(answers.filter((answer) => answer.code === 1033)).toHaveLength(9);
        expect((await outbox(server, email)).filter((message) => message.code)).toHaveLength(1);
        const rows = await server.database.db.selectFrom('verification_code').select('id').where('destination', '=', email).execute();
        expect(rows).toHaveLength(1);
      }
    });
  });

  describe('demo trading once (VIRTUAL_TRADING_ONCE, on by default), under parallel switches', () => {
    let server: TestServer;
    beforeAll(async () => {
      // No VIRTUAL_TRADING_ONCE: the spec's rule holds unless a brand turns it off.
      server = await startTestServer(backend, { SWITCHES: 'VIRTUAL_CURRENCY_TRADE=1' }, { nowMs });
    });
    afterAll(async () => {
      await server?.close();
    });

    it('lets only one of several parallel first switches to demo through (701 for the others)', async () => {
      await Promise.all(Array.from({ length: 5 }, () => sql`select 1`.execute(server.database.db)));
      const email = newEmail();
      await registerByEmail(server, email);
      const sessions = [];
      for (let index = 0; index < 5; index += 1) sessions.push(await loginByEmail(server, email));
      const answers = await Promise.all(sessions.map((session) => call(server, '/v1/waa/user/switch', {}, session.token)));
      expect(answers.filter((answer) => answer.code === 0)).toHaveLength(1);
      expect(answers.filter((answer) => answer.code === 701)).toHaveLength(4);
    });

    it('answers 701 to a second switch to demo after going back to real, and the real session goes on', async () => {
      const email = newEmail();
      await registerByEmail(server, email);
      const real = await loginByEmail(server, email);
      const toDemo = await call(server, '/v1/waa/user/switch', {}, real.token);
      expect(toDemo.code).toBe(0);
      const back = await call(server, '/v1/waa/user/switch', {}, (toDemo.data as { token: string }).token);
      expect(back.code).toBe(0);
      const realAgain = (back.data as { token: string }).token;
      const secondTry = await call(server, '/v1/waa/user/switch', {}, realAgain);
      expect(secondTry.code).toBe(701);
      expect(secondTry.data).toBeNull();
      // Refused, nothing changed: the real account's token still works.
      expect((await call(server, '/v1/waa/user/balance', {}, realAgain)).code).toBe(0);
    });

    it('lets a user back to demo as often as they like when the brand sets VIRTUAL_TRADING_ONCE=0', async () => {
      const often = await startTestServer(backend, { VIRTUAL_TRADING_ONCE: '0', SWITCHES: 'VIRTUAL_CURRENCY_TRADE=1' }, { nowMs });
      try {
        const email = newEmail();
        await registerByEmail(often, email);
        let token = (await loginByEmail(often, email)).token;
        for (const book of ['demo', 'real', 'demo', 'real', 'demo']) {
          const switched = await call(often, '/v1/waa/user/switch', {}, token);
          expect(switched.code, book).toBe(0);
          token = (switched.data as { token: string }).token;
        }
      } finally {
        await often.close();
      }
    });
  });

  describe('behind a trusted proxy (TRUST_PROXY)', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(backend, { TRUST_PROXY: '127.0.0.1' }, { nowMs });
    });
    afterAll(async () => {
      await server?.close();
    });

    it("keys the per-address limits on the proxy's X-Forwarded-For", async () => {
      const spread = [];
      for (let index = 0; index < 40; index += 1) spread.push((await from(server, '/v1/wa-na/getImageCode', {}, { forwardedFor: address(index) })).code);
      expect(spread.every((code) => code === 0)).toBe(true);
      const one = [];
      for (let index = 0; index < 31; index += 1) one.push((await from(server, '/v1/wa-na/getImageCode', {}, { forwardedFor: '203.0.113.9' })).code);
      expect(one.slice(0, 30).every((code) => code === 0)).toBe(true);
      expect(one[30]).toBe(1033);
      // A connection that is not the proxy cannot choose its address.
      const direct = [];
      for (let index = 0; index < 31; index += 1) direct.push((await from(server, '/v1/wa-na/getImageCode', {}, { remoteAddress: '192.0.2.8', forwardedFor: address(index) })).code);
      expect(direct[30]).toBe(1033);
    });
  });
});
