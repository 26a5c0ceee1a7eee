import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import crypto from 'node:crypto';
import { createTokenService } from '../../server/auth/tokens';
import { totpCode } from '../../server/auth/totp';
import type * as captchaModule from '../../server/modules/identity/captcha-image';
import { readAccessToken } from '../../src/shared/session/token';
import { post, startTestServer, testBackends, type TestServer } from './harness';
import { call, lastCode, loginByEmail, outbox, password, registerByEmail } from './identity-support';

/**
 * What an outsider tries against identity that identity.test.ts and identity-limits.test.ts
 * do not already: races on one refresh token, one code, one second-factor code and one
 * address; forged and ended tokens; `%2F` spellings; another user's id in a body; NUL
 * bytes in the fields the other tests leave out; and what a code check tells about an
 * account.
 */
let clock = Date.now();
const nowMs = () => clock;
let mailbox = 0;
const newEmail = () => `attack${Date.now().toString(36)}${(mailbox += 1)}@example.com`;
let phones = 0;
const newPhone = () => `1415558${String((Date.now() + (phones += 1)) % 10000).padStart(4, '0')}`;
const nul = '\u0000';

/** Each captcha image the server drew with its text (the text is only in the pixels now). */
const drawnCaptchas = vi.hoisted(() => new Map<string, string>());
vi.mock('../../server/modules/identity/captcha-image', async (importOriginal) => {
  const original = await importOriginal<typeof captchaModule>();
  return {
    ...original,
    captchaImage: async (text: string) => {
      const image = await original.captchaImage(text);
      drawnCaptchas.set(image, text);
      return image;
    },
  };
});

/** The text of a captcha image: what a person reads off it. */
function captchaAnswer(image: string): string {
  return drawnCaptchas.get(image) ?? '';
}

describe.each(testBackends())('identity attacks on $name', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(
      backend,
      {
        // The per-address and per-account limits are identity-limits.test.ts's subject; here they stay out of the way.
        LOGIN_ATTEMPTS_PER_15_MIN: '1000',
        LOGIN_FAILURES_BEFORE_DELAY: '1000',
        CODE_CHECKS_PER_10_MIN: '1000',
        CODES_SENT_PER_10_MIN: '1000',
        SWITCHES: 'PHONE_REGISTER=1,PHONE_REGISTER_SMS_VERIFICATION=0',
      },
      { nowMs },
    );
    // Open the pool's connections first, so that parallel requests really do run side by side.
    await Promise.all(Array.from({ length: 10 }, () => sql`select 1`.execute(server.database.db)));
  });
  afterAll(async () => {
    await server?.close();
  });

  const signedUp = async () => {
    const email = newEmail();
    await registerByEmail(server, email);
    return email;
  };

  describe('races', () => {
    it('parallel refreshes with one refresh token: one new pair at most, and the session ends for everyone (23519)', async () => {
      const session = await loginByEmail(server, await signedUp());
      const answers = await Promise.all(Array.from({ length: 5 }, () => call(server, '/v1/wa-na/refresh', { refreshToken: session.refreshToken })));
      const won = answers.filter((answer) => answer.code === 0);
      expect(won).toHaveLength(1);
      expect(answers.filter((answer) => answer.code === 23519)).toHaveLength(4);
      // The losers' use was a reuse: the family is revoked, so even the winner's pair is dead.
      const pair = won[0]!.data as { token: string; refreshToken: string };
      expect((await call(server, '/v1/wa-na/refresh', { refreshToken: pair.refreshToken })).code).toBe(23519);
      expect((await call(server, '/v1/waa/user/info', {}, pair.token)).code).toBe(23519);
      expect((await call(server, '/v1/waa/user/info', {}, session.token)).code).toBe(23519);
    });

    it('parallel sign-ups with one code: one account, the others 1020', async () => {
      const email = newEmail();
      expect((await call(server, '/v1/wa-na/sendMail', { email, type: '1', locale: 'en' })).code).toBe(0);
      const code = await lastCode(server, email);
      const answers = await Promise.all(Array.from({ length: 5 }, () => call(server, '/v1/wa-na/register', { username: email, password, type: 'E', code, locale: 'en' })));
      expect(answers.filter((answer) => answer.code === 0)).toHaveLength(1);
      expect(answers.filter((answer) => answer.code === 1020)).toHaveLength(4);
      const rows = await server.database.db.selectFrom('app_user').select('uid').where('email', '=', email).execute();
      expect(rows).toHaveLength(1);
    });

    it('parallel sign-ups of one number, each with its own good captcha: one account, the other told 1004 (never a 500)', async () => {
      const phone = newPhone();
      const captchas = [];
      for (let index = 0; index < 3; index += 1) captchas.push((await call(server, '/v1/wa-na/getImageCode')).data as { image: string; uuid: string });
      const answers = await Promise.all(
        captchas.map((captcha) => call(server, '/v1/wa-na/register', { username: phone, password, type: 'P', locale: 'en', uuid: captcha.uuid, captcha: captchaAnswer(captcha.image) })),
      );
      expect(answers.map((answer) => answer.code).sort()).toEqual([0, 1004, 1004]);
      expect(answers.every((answer) => answer.status === 200)).toBe(true);
      const rows = await server.database.db.selectFrom('app_user').select('uid').where('phone', '=', phone).execute();
      expect(rows).toHaveLength(1);
    });

    it('parallel sign-ins with one second-factor code: one session, the others 1020', async () => {
      const email = await signedUp();
      const session = await loginByEmail(server, email);
      const { secret } = (await call(server, '/v1/waa/user/twoFactor/setup', {}, session.token)).data as { secret: string };
      expect((await call(server, '/v1/waa/user/twoFactor/enable', { code: totpCode(secret, clock) }, session.token)).code).toBe(0);
      clock += 30_000;
      const authCode = totpCode(secret, clock);
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => call(server, '/v1/wa-na/login', { username: email, password, type: 'E', command: 'verification', authCode })),
      );
      expect(answers.filter((answer) => answer.code === 0)).toHaveLength(1);
      expect(answers.filter((answer) => answer.code === 1020)).toHaveLength(4);
      const families = await server.database.db
        .selectFrom('session_family')
        .innerJoin('app_user', 'app_user.uid', 'session_family.uid')
        .select('session_family.id')
        .where('app_user.email', '=', email)
        .execute();
      expect(families).toHaveLength(2); // the set-up session and the one sign-in that won
    });
  });

  describe('replays', () => {
    it('a used password-reset code cannot reset the password again (1020)', async () => {
      const email = await signedUp();
      clock += 61_000;
      expect((await call(server, '/v1/wa-na/sendMail', { email, type: '2', locale: 'en' })).code).toBe(0);
      const code = await lastCode(server, email);
      expect((await call(server, '/v1/wa-na/forgot', { username: email, password: 'first new password', type: 'E', code })).code).toBe(0);
      expect((await call(server, '/v1/wa-na/forgot', { username: email, password: 'the thief password', type: 'E', code })).code).toBe(1020);
      expect((await call(server, '/v1/wa-na/login', { username: email, password: 'the thief password', type: 'E' })).code).toBe(1003);
      await loginByEmail(server, email, 'first new password');
    });

    it('a sign-up code cannot reset a password, nor a reset code sign up (1020)', async () => {
      const fresh = newEmail();
      expect((await call(server, '/v1/wa-na/sendMail', { email: fresh, type: '1', locale: 'en' })).code).toBe(0);
      const signUpCode = await lastCode(server, fresh);
      expect((await call(server, '/v1/wa-na/forgot', { username: fresh, password: 'a new password', type: 'E', code: signUpCode })).code).toBe(1020);

      const email = await signedUp();
      clock += 61_000;
      expect((await call(server, '/v1/wa-na/sendMail', { email, type: '2', locale: 'en' })).code).toBe(0);
      const resetCode = await lastCode(server, email);
      const other = newEmail();
      expect((await call(server, '/v1/wa-na/register', { username: other, password, type: 'E', code: resetCode, locale: 'en' })).code).toBe(1020);
    });
  });

  describe('forged and ended credentials', () => {
    it('a token signed with another key (or with none) is refused (401), even naming a live session', async () => {
      const session = await loginByEmail(server, await signedUp());
      const claims = readAccessToken(session.token)!;
      const otherKey = createTokenService({ key: crypto.randomBytes(32), accessTokenTtlSeconds: 3600, nowMs });
      const { token: foreign } = await otherKey.issueAccessToken({ uid: claims.uid, virtualStatus: claims.virtualStatus, aesKey: claims.aesKey, fid: claims.fid });
      const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${session.token.split('.')[1]}.`;
      for (const token of [foreign, unsigned]) {
        const answer = await call(server, '/v1/waa/user/info', {}, token);
        expect(answer.status).toBe(401);
        expect(answer.code).toBe(400);
        expect((await call(server, '/v1/waa/user/checkToken', {}, token)).code).toBe(-1);
      }
      expect((await call(server, '/v1/waa/user/info', {}, session.token)).code).toBe(0);
    });

    it("a logged-out session's token is refused on identity and account calls (23519); the user's other session lives", async () => {
      const email = await signedUp();
      const ended = await loginByEmail(server, email);
      const other = await loginByEmail(server, email);
      expect((await call(server, '/v1/waa/user/logout', {}, ended.token)).code).toBe(0);
      for (const path of ['/v1/waa/user/info', '/v1/waa/user/balance', '/v1/waa/user/switch', '/v1/waa/user/twoFactor/setup', '/v1/waa/user/logout']) {
        expect((await call(server, path, {}, ended.token)).code, path).toBe(23519);
      }
      expect((await call(server, '/v1/waa/user/info', {}, other.token)).code).toBe(0);
      expect((await call(server, '/v1/wa-na/refresh', { refreshToken: other.refreshToken })).code).toBe(0);
    });

    it('every %2F spelling of a signed-in path is checked: 401 without a token, never an answer', async () => {
      const spellings = [
        '/v1/waa%2Fuser%2Finfo',
        '/v1%2Fwaa%2Fuser%2Fbalance',
        '/v1/waa/user%2Finfo',
        '/v1/waa/user%2finfo',
        '/V1/WAA/USER/INFO',
        '//v1/waa/user/info',
        '/v1/waa/user/info/',
        '/v1/waa/./user/info',
        '/exchange%2FaddOrder',
        '/EXCHANGE/addOrder',
      ];
      for (const url of spellings) {
        const response = await post(server.app, url, {});
        expect(response.statusCode, url).toBe(401);
        expect(response.json(), url).toMatchObject({ code: 400, data: null });
        expect((await server.app.inject({ method: 'GET', url })).statusCode, `GET ${url}`).toBe(401);
      }
    });
  });

  describe("another user's id", () => {
    it('identity and account calls take the user from the token only: a uid in the body is refused (1001) and the other user is untouched', async () => {
      const victim = await loginByEmail(server, await signedUp());
      const victimUid = readAccessToken(victim.token)!.uid;
      const attacker = await loginByEmail(server, await signedUp());
      const calls: [string, Record<string, unknown>][] = [
        ['/v1/waa/user/info', {}],
        ['/v1/waa/user/balance', {}],
        ['/v1/waa/user/resetMock', {}],
        ['/v1/waa/user/logout', {}],
        ['/v1/waa/user/switch', {}],
        ['/v1/waa/user/twoFactor/status', {}],
        ['/v1/waa/user/twoFactor/setup', {}],
        ['/v1/waa/user/twoFactor/enable', { code: '123456' }],
        ['/v1/waa/user/twoFactor/disable', { code: '123456' }],
      ];
      for (const [path, body] of calls) {
        for (const key of ['uid', 'userId', 'fid']) {
          const answer = await call(server, path, { ...body, [key]: key === 'fid' ? readAccessToken(victim.token)!.fid : victimUid }, attacker.token);
          expect(answer.code, `${path} ${key}`).toBe(1001);
        }
      }
      expect((await call(server, '/v1/wa-na/refresh', { refreshToken: attacker.refreshToken, uid: victimUid })).code).toBe(1001);
      // Nothing reached the victim: the session lives, no second factor was set up.
      expect((await call(server, '/v1/waa/user/checkToken', {}, victim.token)).code).toBe(0);
      expect((await call(server, '/v1/waa/user/info', {}, attacker.token)).data).toMatchObject({ uid: readAccessToken(attacker.token)!.uid });
      const row = await server.database.db.selectFrom('app_user').select(['totp_secret', 'totp_enabled']).where('uid', '=', victimUid).executeTakeFirstOrThrow();
      expect(row).toEqual({ totp_secret: null, totp_enabled: false });
    });
  });

  describe('NUL bytes', () => {
    const refused = (answer: { status: number; code: number }, what: string) => {
      expect(answer.status, what).toBe(200);
      expect(answer.code, what).toBe(1001);
    };

    it('are refused (1001, never a 500) in the identity fields nul-input.test.ts leaves out, and spend no code', async () => {
      const email = await signedUp();
      const session = await loginByEmail(server, email);
      clock += 61_000;
      expect((await call(server, '/v1/wa-na/sendMail', { email, type: '2', locale: 'en' })).code).toBe(0);
      const code = await lastCode(server, email);
      const reset = { username: email, password: 'a new password', type: 'E', code };
      for (const field of ['username', 'password', 'code'] as const) {
        refused(await call(server, '/v1/wa-na/forgot', { ...reset, [field]: `${reset[field]}${nul}` }), `forgot ${field}`);
      }
      refused(await call(server, '/v1/wa-na/refresh', { refreshToken: `${session.refreshToken}${nul}` }), 'refresh token');
      refused(await call(server, '/v1/wa-na/refresh', { refreshToken: session.refreshToken, token: `${session.token}${nul}` }), 'refresh access token');
      refused(await call(server, '/v1/wa-na/sendPhone', { phone: `1415555${nul}1234`, type: '2', locale: 'en' }), 'sendPhone');
      refused(await call(server, '/v1/wa-na/register', { username: newPhone(), password, type: 'P', locale: 'en', uuid: `u${nul}`, captcha: 'ABCDE' }), 'register uuid');
      refused(await call(server, '/v1/wa-na/register', { username: newPhone(), password, type: 'P', locale: 'en', uuid: 'u', captcha: `AB${nul}` }), 'register captcha');
      refused(await call(server, '/v1/wa-na/register', { username: newEmail(), password, type: 'E', locale: 'en', code: `12345${nul}` }), 'register code');
      refused(await call(server, '/v1/wa-na/login', { username: email, password, type: 'E', command: 'verification', authCode: `1${nul}` }), 'login authCode');
      refused(await call(server, '/v1/waa/user/twoFactor/enable', { code: `12345${nul}` }, session.token), 'twoFactor enable');
      refused(await call(server, '/v1/waa/user/twoFactor/disable', { code: `12345${nul}` }, session.token), 'twoFactor disable');
      for (const url of ['/v1/wa-na/login?x=%00', '/v1/wa-na/forgot?%00=1', '/v1/wa-na/refresh?token=%00']) {
        const response = await post(server.app, url, reset);
        expect(response.statusCode, url).toBe(200);
        expect(response.json().code, url).toBe(1001);
      }
      const query = await post(server.app, '/v1/waa/user/info?uid=%00', {}, { authorization: `Bearer ${session.token}` });
      expect(query.json().code).toBe(1001);
      // A raw NUL byte (not an escape) is malformed JSON: the same refusal.
      refused(await call(server, '/v1/wa-na/login', `{"username":"${email}","password":"a\u0000b","type":"E"}`), 'raw NUL');

      // Nothing was spent: the code still resets the password.
      expect((await call(server, '/v1/wa-na/forgot', reset)).code).toBe(0);
      await loginByEmail(server, email, 'a new password');
    });
  });

  describe('what a code check tells about an account', () => {
    const answer = (reply: { status: number; code: number; msg: string; data: unknown }) => ({ status: reply.status, code: reply.code, msg: reply.msg, data: reply.data });

    it('a reset-code check answers alike for a known and an unknown address, while the code lives and after it expired', async () => {
      const known = await signedUp();
      const stranger = newEmail();
      clock += 61_000;
      for (const email of [known, stranger]) expect((await call(server, '/v1/wa-na/sendMail', { email, type: '2', locale: 'en' })).code).toBe(0);
      const sent = await lastCode(server, known);
      expect(await outbox(server, stranger)).toEqual([]);
      const guess = sent === '000000' ? '111111' : '000000';
      const check = (email: string) => call(server, '/v1/wa-na/forgot', { username: email, password: 'a new password', type: 'E', code: guess });

      const live = [answer(await check(known)), answer(await check(stranger))];
      expect(live[0]).toMatchObject({ status: 200, code: 1020 });
      expect(live[1]).toEqual(live[0]);
      clock += 10 * 60_000 + 1;
      const expired = [answer(await check(known)), answer(await check(stranger))];
      expect(expired[1]).toEqual(expired[0]);
    });

    it('a sign-up-code check answers alike for a taken and a free address, while the code lives and after it expired', async () => {
      const taken = await signedUp();
      const free = newEmail();
      clock += 61_000;
      for (const email of [taken, free]) expect((await call(server, '/v1/wa-na/sendMail', { email, type: '1', locale: 'en' })).code).toBe(0);
      const sent = await lastCode(server, free);
      expect((await outbox(server, taken)).at(-1)?.code).toBeUndefined();
      const guess = sent === '000000' ? '111111' : '000000';
      const check = (email: string) => call(server, '/v1/wa-na/register', { username: email, password, type: 'E', code: guess, locale: 'en' });

      const live = [answer(await check(taken)), answer(await check(free))];
      expect(live[0]).toMatchObject({ status: 200, code: 1020 });
      expect(live[1]).toEqual(live[0]);
      clock += 10 * 60_000 + 1;
      const expired = [answer(await check(taken)), answer(await check(free))];
      expect(expired[1]).toEqual(expired[0]);
    });
  });
});
