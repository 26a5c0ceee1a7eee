import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { totpCode } from '../../server/auth/totp';
import type * as captchaModule from '../../server/modules/identity/captcha-image';
import { readAccessToken } from '../../src/shared/session/token';
import { startTestServer, testBackends, type TestServer } from './harness';
import { call, lastCode, loginByEmail, outbox, password, registerByEmail, setSwitch } from './identity-support';

/** The captcha's answer is only in its pixels now: the test learns the text the server draws, as a person would read it. */
const drawnCaptchas = vi.hoisted(() => [] as string[]);
vi.mock('../../server/modules/identity/captcha-image', async (importOriginal) => {
  const original = await importOriginal<typeof captchaModule>();
  return { ...original, captchaText: () => drawnCaptchas[drawnCaptchas.push(original.captchaText()) - 1]! };
});

let clock = Date.now();
const nowMs = () => clock;
let mailbox = 0;
const newEmail = () => `user${Date.now().toString(36)}${(mailbox += 1)}@example.com`;

describe.each(testBackends())('identity on $name', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend, { LOGIN_ATTEMPTS_PER_15_MIN: '4', CODE_CHECKS_PER_10_MIN: '200', CODES_SENT_PER_10_MIN: '200' }, { nowMs });
  });
  afterAll(async () => {
    await server?.close();
  });

  describe('sign-up by e-mail', () => {
    it('sends a 6-digit code, registers with it, and signs in to a live session', async () => {
      const email = newEmail();
      await registerByEmail(server, email);
      const session = await loginByEmail(server, email);
      expect(session.qrcodeStatus).toBe(1);
      expect(session.refreshToken).toMatch(/^[\w-]{40,}$/);
      const payload = readAccessToken(session.token);
      expect(payload).toMatchObject({ virtualStatus: 0 });
      expect(payload?.uid).toBeGreaterThan(0);
      expect(payload?.aesKey).toHaveLength(16);
      expect((await call(server, '/v1/waa/user/checkToken', {}, session.token)).code).toBe(0);
    });

    it('refuses a second sign-up with 1004, and a code request for a taken address sends no code', async () => {
      const email = newEmail();
      await registerByEmail(server, email);
      const before = (await outbox(server, email)).length;
      clock += 61_000;
      expect((await call(server, '/v1/wa-na/sendMail', { email, type: '1', locale: 'en' })).code).toBe(0);
      const sent = await outbox(server, email);
      expect(sent).toHaveLength(before + 1);
      expect(sent.at(-1)?.code).toBeUndefined();
      expect(sent.at(-1)?.text).toMatch(/already has an account/);
      const again = await call(server, '/v1/wa-na/register', { username: email, password, type: 'E', code: '123456', locale: 'en' });
      expect([1004, 1020]).toContain(again.code);
    });

    it('answers a wrong code with 1020, locks the code after 5 wrong tries, and expires it after 10 minutes', async () => {
      const email = newEmail();
      await call(server, '/v1/wa-na/sendMail', { email, type: '1', locale: 'en' });
      const code = await lastCode(server, email);
      const wrong = code === '000000' ? '111111' : '000000';
      for (let attempt = 0; attempt < 5; attempt += 1) {
        const answer = await call(server, '/v1/wa-na/register', { username: email, password, type: 'E', code: wrong, locale: 'en' });
        expect(answer.code).toBe(1020);
        expect(answer.msg).toBe('Invalid verification code (1020)');
      }
      const locked = await call(server, '/v1/wa-na/register', { username: email, password, type: 'E', code, locale: 'en' });
      expect(locked.code).toBe(1020);

      clock += 61_000;
      await call(server, '/v1/wa-na/sendMail', { email, type: '1', locale: 'en' });
      const fresh = await lastCode(server, email);
      clock += 10 * 60_000 + 1;
      const expired = await call(server, '/v1/wa-na/register', { username: email, password, type: 'E', code: fresh, locale: 'en' });
      expect(expired.code).toBe(23555);
    });

    it('is single-use: the same code cannot register twice', async () => {
      const email = newEmail();
      await call(server, '/v1/wa-na/sendMail', { email, type: '1', locale: 'en' });
      const code = await lastCode(server, email);
      expect((await call(server, '/v1/wa-na/register', { username: email, password, type: 'E', code, locale: 'en' })).code).toBe(0);
      const replay = await call(server, '/v1/wa-na/register', { username: email, password, type: 'E', code, locale: 'en' });
      expect(replay.code).toBe(1020);
    });

    it('lets a code be resent only after 60 s (1033 with the seconds to wait)', async () => {
      const email = newEmail();
      expect((await call(server, '/v1/wa-na/sendMail', { email, type: '1', locale: 'en' })).code).toBe(0);
      clock += 20_000;
      const early = await call(server, '/v1/wa-na/sendMail', { email, type: '1', locale: 'en' });
      expect(early.status).toBe(429);
      expect(early.code).toBe(1033);
      expect(early.data).toEqual({ retryAfterSeconds: 40 });
      expect(early.msg).toBe('Requests are too frequent, please retry in 40 seconds (1033)');
      clock += 40_000;
      expect((await call(server, '/v1/wa-na/sendMail', { email, type: '1', locale: 'en' })).code).toBe(0);
    });

    it('checks invite codes and password length, and rejects a malformed address', async () => {
      const email = newEmail();
      await call(server, '/v1/wa-na/sendMail', { email, type: '1', locale: 'en' });
      const code = await lastCode(server, email);
      expect((await call(server, '/v1/wa-na/register', { username: email, password, type: 'E', code, locale: 'en', inviteCode: 'NOPE00' })).code).toBe(1007);
      expect((await call(server, '/v1/wa-na/register', { username: email, password: 'short', type: 'E', code, locale: 'en' })).code).toBe(1001);
      expect((await call(server, '/v1/wa-na/sendMail', { email: 'not-an-address', type: '1', locale: 'en' })).code).toBe(1001);
      expect((await call(server, '/v1/wa-na/register', { username: email, password, type: 'E', code, locale: 'en', admin: true })).code).toBe(1001);
    });

    it('records who invited whom', async () => {
      const inviter = newEmail();
      await registerByEmail(server, inviter);
      const row = await server.database.db.selectFrom('app_user').select(['uid', 'invite_code']).where('email', '=', inviter).executeTakeFirstOrThrow();
      const invitee = newEmail();
      await registerByEmail(server, invitee, { inviteCode: row.invite_code.toLowerCase() });
      const invited = await server.database.db.selectFrom('app_user').select('invited_by').where('email', '=', invitee).executeTakeFirstOrThrow();
      expect(invited.invited_by).toBe(row.uid);
    });

    it('stores the password as argon2id, never in plain text', async () => {
      const email = newEmail();
      await registerByEmail(server, email);
      const row = await server.database.db.selectFrom('app_user').select('password_hash').where('email', '=', email).executeTakeFirstOrThrow();
      // At the API tests' own cost (PASSWORD_HASH_COST=test); tests/unit/server/auth/passwords.test.ts checks OWASP's.
      expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=\d+,t=\d+,p=1\$/);
      expect(row.password_hash).not.toContain(password);
    });
  });

  describe('sign-in', () => {
    it('answers a wrong password and an unknown account alike (1003), then rate-limits with the seconds to wait', async () => {
      const email = newEmail();
      await registerByEmail(server, email);
      const wrong = await call(server, '/v1/wa-na/login', { username: email, password: 'wrong password', type: 'E' });
      const unknown = await call(server, '/v1/wa-na/login', { username: newEmail(), password: 'wrong password', type: 'E' });
      expect(wrong.code).toBe(1003);
      expect(unknown.code).toBe(1003);
      expect(unknown.msg).toBe(wrong.msg);
      for (let attempt = 0; attempt < 3; attempt += 1) await call(server, '/v1/wa-na/login', { username: email, password: 'wrong password', type: 'E' });
      const limited = await call(server, '/v1/wa-na/login', { username: email, password, type: 'E' });
      expect(limited.status).toBe(429);
      expect(limited.code).toBe(1033);
      expect((limited.data as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(800);
    });
  });

  describe('sessions', () => {
    it('rotates refresh tokens; reusing a spent one ends the whole session (23519)', async () => {
      const email = newEmail();
      await registerByEmail(server, email);
      const first = await loginByEmail(server, email);
      const second = await call(server, '/v1/wa-na/refresh', { refreshToken: first.refreshToken, token: first.token });
      expect(second.code).toBe(0);
      const pair = second.data as { token: string; refreshToken: string };
      expect(pair.refreshToken).not.toBe(first.refreshToken);
      expect((await call(server, '/v1/waa/user/checkToken', {}, pair.token)).code).toBe(0);

      const reuse = await call(server, '/v1/wa-na/refresh', { refreshToken: first.refreshToken });
      expect(reuse.code).toBe(23519);
      expect(reuse.msg).toBe('Your session has ended, please sign in again (23519)');
      // The thief's use revoked the family: the legitimate pair is dead too.
      expect((await call(server, '/v1/wa-na/refresh', { refreshToken: pair.refreshToken })).code).toBe(23519);
      expect((await call(server, '/v1/waa/user/twoFactor/status', {}, pair.token)).code).toBe(23519);
      expect((await call(server, '/v1/waa/user/checkToken', {}, pair.token)).code).toBe(-1);
    });

    it('logout ends the session; checkToken answers -1 for a dead or bad token', async () => {
      const email = newEmail();
      await registerByEmail(server, email);
      const session = await loginByEmail(server, email);
      expect((await call(server, '/v1/waa/user/logout', {}, session.token)).code).toBe(0);
      expect((await call(server, '/v1/waa/user/checkToken', {}, session.token)).code).toBe(-1);
      expect((await call(server, '/v1/wa-na/refresh', { refreshToken: session.refreshToken })).code).toBe(23519);
      const bad = await call(server, '/v1/waa/user/checkToken', {}, 'not.a.token');
      expect(bad.status).toBe(200);
      expect(bad.code).toBe(-1);
      expect((await call(server, '/v1/waa/user/logout', {}, 'not.a.token')).status).toBe(401);
    });

    it('password reset by code: unknown contacts get the same answer and nothing; the old password and other sessions end', async () => {
      const stranger = newEmail();
      expect((await call(server, '/v1/wa-na/sendMail', { email: stranger, type: '2', locale: 'en' })).code).toBe(0);
      expect(await outbox(server, stranger)).toEqual([]);

      const email = newEmail();
      await registerByEmail(server, email);
      const elsewhere = await loginByEmail(server, email);
      expect((await call(server, '/v1/wa-na/sendMail', { email, type: '2', locale: 'en' })).code).toBe(0);
      const code = await lastCode(server, email);
      expect((await call(server, '/v1/wa-na/forgot', { username: email, password: 'a new password', type: 'E', code })).code).toBe(0);
      expect((await call(server, '/v1/wa-na/login', { username: email, password, type: 'E' })).code).toBe(1003);
      await loginByEmail(server, email, 'a new password');
      expect((await call(server, '/v1/waa/user/twoFactor/status', {}, elsewhere.token)).code).toBe(23519);
      expect((await call(server, '/v1/wa-na/refresh', { refreshToken: elsewhere.refreshToken })).code).toBe(23519);
    });
  });

  describe('second factor (TOTP)', () => {
    it('sets up with an otpauth URL, enables with a code, then sign-in needs the code', async () => {
      const email = newEmail();
      await registerByEmail(server, email);
      const session = await loginByEmail(server, email);
      const setup = await call(server, '/v1/waa/user/twoFactor/setup', {}, session.token);
      const { otpauthUrl, secret } = setup.data as { otpauthUrl: string; secret: string };
      // What an authenticator app reads: the issuer and account, the secret and the RFC 6238 terms.
      const url = new URL(otpauthUrl);
      expect(`${url.protocol}//${url.host}`).toBe('otpauth://totp');
      expect(decodeURIComponent(url.pathname)).toBe(`/TradeWeb:${email}`);
      expect(Object.fromEntries(url.searchParams)).toEqual({ secret, issuer: 'TradeWeb', algorithm: 'SHA1', digits: '6', period: '30' });
      const stored = await server.database.db.selectFrom('app_user').select('totp_secret').where('email', '=', email).executeTakeFirstOrThrow();
      expect(stored.totp_secret).not.toContain(secret); // encrypted at rest
      expect((await call(server, '/v1/waa/user/twoFactor/enable', { code: '000000' === totpCode(secret, clock) ? '111111' : '000000' }, session.token)).code).toBe(1020);
      expect((await call(server, '/v1/waa/user/twoFactor/enable', { code: totpCode(secret, clock) }, session.token)).code).toBe(0);
      expect((await call(server, '/v1/waa/user/twoFactor/status', {}, session.token)).data).toEqual({ enabled: true });

      // Each code is spent once: the next one comes with the next 30-second step.
      clock += 30_000;
      const first = await call(server, '/v1/wa-na/login', { username: email, password, type: 'E' });
      expect(first.data).toEqual({ token: '', refreshToken: '', qrcodeStatus: 0 });
      const wrong = await call(server, '/v1/wa-na/login', { username: email, password, type: 'E', command: 'verification', authCode: totpCode(secret, clock + 5 * 60_000) });
      expect(wrong.code).toBe(1020);
      const done = await call(server, '/v1/wa-na/login', { username: email, password, type: 'E', command: 'verification', authCode: totpCode(secret, clock) });
      expect(done.code).toBe(0);
      expect((done.data as { qrcodeStatus: number; token: string }).token).not.toBe('');
      // Replayed (seen over a shoulder, or by a phishing page), the same code signs nobody in, nor does an older one.
      const replayed = await call(server, '/v1/wa-na/login', { username: email, password, type: 'E', command: 'verification', authCode: totpCode(secret, clock) });
      expect(replayed.code).toBe(1020);
      expect((await call(server, '/v1/wa-na/login', { username: email, password, type: 'E', command: 'verification', authCode: totpCode(secret, clock - 30_000) })).code).toBe(1020);
      // A wrong password never reaches the second factor.
      expect((await call(server, '/v1/wa-na/login', { username: email, password: 'not it at all', type: 'E' })).code).toBe(1003);

      expect((await call(server, '/v1/waa/user/twoFactor/disable', { code: totpCode(secret, clock) }, session.token)).code).toBe(1020);
      clock += 30_000;
      expect((await call(server, '/v1/waa/user/twoFactor/disable', { code: totpCode(secret, clock) }, session.token)).code).toBe(0);
      expect(((await call(server, '/v1/wa-na/login', { username: email, password, type: 'E' })).data as { qrcodeStatus: number }).qrcodeStatus).toBe(1);
    });
  });

  describe('real and demo accounts', () => {
    it('switches real ⇄ demo only while demo trading is on; demo sessions end when it is turned off', async () => {
      const email = newEmail();
      await registerByEmail(server, email);
      const real = await loginByEmail(server, email);
      // The seeded brand has demo trading on: turned off, switching is refused.
      await setSwitch(server, 'VIRTUAL_CURRENCY_TRADE', false);
      expect((await call(server, '/v1/waa/user/switch', {}, real.token)).code).toBe(1001);

      await setSwitch(server, 'VIRTUAL_CURRENCY_TRADE', true);
      const toDemo = await call(server, '/v1/waa/user/switch', {}, real.token);
      expect(toDemo.code).toBe(0);
      const demo = toDemo.data as { token: string; refreshToken: string };
      expect(readAccessToken(demo.token)?.virtualStatus).toBe(1);
      // The pair it replaced is spent: using it again ends the session, as any reuse does.
      const back = await call(server, '/v1/waa/user/switch', {}, demo.token);
      expect(readAccessToken((back.data as { token: string }).token)?.virtualStatus).toBe(0);

      // Demo trading only once (VIRTUAL_TRADING_ONCE is on by default): a second switch to demo is 701.
      expect((await call(server, '/v1/waa/user/switch', {}, (back.data as { token: string }).token)).code).toBe(701);

      const otherEmail = newEmail();
      await registerByEmail(server, otherEmail);
      const otherDemo = (await call(server, '/v1/waa/user/switch', {}, (await loginByEmail(server, otherEmail)).token)).data as { token: string };
      await setSwitch(server, 'VIRTUAL_CURRENCY_TRADE', false);
      expect((await call(server, '/v1/waa/user/twoFactor/status', {}, otherDemo.token)).code).toBe(23519);
    });
  });

  describe('sign-up by phone', () => {
    it('validates the number for its country and, without SMS verification, takes the image captcha', async () => {
      await setSwitch(server, 'PHONE_REGISTER', true);
      expect((await call(server, '/v1/wa-na/sendPhone', { phone: '1555', type: '1', locale: 'en' })).code).toBe(1001);
      const phone = `1415555${String(Date.now() % 10000).padStart(4, '0')}`;
      expect((await call(server, '/v1/wa-na/sendPhone', { phone, type: '1', locale: 'en' })).code).toBe(0);
      const code = await lastCode(server, phone);
      expect((await call(server, '/v1/wa-na/register', { username: phone, password, type: 'P', code, locale: 'en' })).code).toBe(0);
      expect((await call(server, '/v1/wa-na/login', { username: phone, password, type: 'P' })).code).toBe(0);

      await setSwitch(server, 'PHONE_REGISTER_SMS_VERIFICATION', false);
      const other = `1415556${String(Date.now() % 10000).padStart(4, '0')}`;
      const captcha = (await call(server, '/v1/wa-na/getImageCode')).data as { image: string; uuid: string };
      expect(captcha.image).toMatch(/^data:image\/png;base64,/);
      const answer = drawnCaptchas.at(-1)!;
      expect(answer).toHaveLength(5);
      expect((await call(server, '/v1/wa-na/register', { username: other, password, type: 'P', locale: 'en', uuid: captcha.uuid, captcha: 'WRONG' })).code).toBe(1020);
      // A captcha is good for one check only.
      expect((await call(server, '/v1/wa-na/register', { username: other, password, type: 'P', locale: 'en', uuid: captcha.uuid, captcha: answer })).code).toBe(23555);
      const next = (await call(server, '/v1/wa-na/getImageCode')).data as { image: string; uuid: string };
      const nextAnswer = drawnCaptchas.at(-1)!;
      expect((await call(server, '/v1/wa-na/register', { username: other, password, type: 'P', locale: 'en', uuid: next.uuid, captcha: nextAnswer.toLowerCase() })).code).toBe(0);
      await setSwitch(server, 'PHONE_REGISTER_SMS_VERIFICATION', true);
      await setSwitch(server, 'PHONE_REGISTER', false);
    });
  });
});
