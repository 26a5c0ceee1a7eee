import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../server/auth/totp';
import { startTestServer, testBackends, type TestServer } from './harness';
import { loginByEmail, registerByEmail } from './identity-support';
import { createStaffAndSignIn, secretOf, staffCall, staffPassword } from './support/staff';

let clock = Date.now();
const nowMs = () => clock;
/** The next TOTP step: a code of a new step is not a replay of the last one. */
const nextStep = () => void (clock += 30_000);
let mailbox = 0;
const newEmail = (prefix = 'member') => `${prefix}${Date.now().toString(36)}${(mailbox += 1)}@example.com`;
let addresses = 0;
/** A client address of its own, so one test's failures do not count against another's. */
const newAddress = () => `10.9.${Math.floor((addresses += 1) / 250)}.${addresses % 250}`;

describe.each(testBackends())('staff sign-in and sessions on $name', (backend) => {
  let server: TestServer;
  let admin: Awaited<ReturnType<typeof createStaffAndSignIn>>;

  /** A staff member with a one-time password, not signed in yet. */
  async function created(roles: ('support' | 'finance' | 'compliance' | 'admin')[] = ['support']) {
    const email = newEmail();
    // With credentials from the start, as the command line makes them (an admin's staff/create invites instead).
    const { oneTimePassword, otpauthUrl } = await server.app.staff.management.create({ email, roles }, { staffId: null, address: 'cli' });
    return { email, oneTimePassword, secret: secretOf(otpauthUrl) };
  }

  beforeAll(async () => {
    server = await startTestServer(backend, { LOGIN_ATTEMPTS_PER_15_MIN: '4', LOGIN_FAILURES_BEFORE_DELAY: '3' }, { nowMs });
    admin = await createStaffAndSignIn(server, { roles: ['admin'], nowMs });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('signs in with e-mail, one-time password and a TOTP code; the otpauth URL names the staff issuer and the e-mail', async () => {
    const member = await created(['finance', 'support']);
    const login = await staffCall(server, '/v1/staff/login', { email: member.email.toUpperCase(), password: member.oneTimePassword, code: totpCode(member.secret, nowMs()) });
    expect(login.code, login.msg).toBe(0);
    expect(login.data).toMatchObject({ roles: ['support', 'finance'], mustChangePassword: true });
    const me = await staffCall(server, '/v1/staff/me', {}, (login.data as { token: string }).token);
    expect(me.data).toMatchObject({ email: member.email, roles: ['support', 'finance'], mustChangePassword: true });
  });

  it('always asks for the second factor: no code is refused (1001), a wrong code answers 1003 like a wrong password or an unknown e-mail', async () => {
    const member = await created();
    const address = newAddress();
    const noCode = await staffCall(server, '/v1/staff/login', { email: member.email, password: member.oneTimePassword }, undefined, address);
    expect(noCode.code).toBe(1001);
    const rightCode = totpCode(member.secret, nowMs());
    const wrongCode = rightCode === '000000' ? '111111' : '000000';
    const answers = [
      await staffCall(server, '/v1/staff/login', { email: member.email, password: member.oneTimePassword, code: wrongCode }, undefined, address),
      await staffCall(server, '/v1/staff/login', { email: member.email, password: 'not the password', code: rightCode }, undefined, newAddress()),
      await staffCall(server, '/v1/staff/login', { email: newEmail('nobody'), password: member.oneTimePassword, code: rightCode }, undefined, newAddress()),
    ];
    for (const answer of answers) {
      expect(answer).toMatchObject({ status: 200, code: 1003, msg: 'Incorrect account or password (1003)', data: null });
    }
  });

  it('accepts a code once: the same TOTP step replayed is refused (1003), the next step signs in', async () => {
    const member = await created();
    const code = totpCode(member.secret, nowMs());
    const first = await staffCall(server, '/v1/staff/login', { email: member.email, password: member.oneTimePassword, code });
    expect(first.code, first.msg).toBe(0);
    const replay = await staffCall(server, '/v1/staff/login', { email: member.email, password: member.oneTimePassword, code }, undefined, newAddress());
    expect(replay.code).toBe(1003);
    nextStep();
    const later = await staffCall(server, '/v1/staff/login', { email: member.email, password: member.oneTimePassword, code: totpCode(member.secret, nowMs()) });
    expect(later.code, later.msg).toBe(0);
  });

  it('refuses a disabled member with the same 1003, and their sessions end at once (23519 on calls and refresh)', async () => {
    const member = await createStaffAndSignIn(server, { roles: ['support'], nowMs });
    expect((await staffCall(server, '/v1/staff/me', {}, member.token)).code).toBe(0);
    expect((await staffCall(server, '/v1/staff/staff/disable', { staffId: member.staffId }, admin.token)).code).toBe(0);
    expect((await staffCall(server, '/v1/staff/me', {}, member.token)).code).toBe(23519);
    expect((await staffCall(server, '/v1/staff/refresh', { refreshToken: member.refreshToken })).code).toBe(23519);
    nextStep();
    const login = await staffCall(server, '/v1/staff/login', { email: member.email, password: staffPassword, code: totpCode(member.secret, nowMs()) }, undefined, newAddress());
    expect(login.code).toBe(1003);
  });

  it('limits sign-in tries per address (1033 with the seconds to wait) and forgets them after a success', async () => {
    const member = await created();
    const address = newAddress();
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const email = newEmail('guess');
      expect((await staffCall(server, '/v1/staff/login', { email, password: 'wrong password', code: '123456' }, undefined, address)).code).toBe(1003);
    }
    const limited = await staffCall(server, '/v1/staff/login', { email: member.email, password: member.oneTimePassword, code: totpCode(member.secret, nowMs()) }, undefined, address);
    expect(limited).toMatchObject({ status: 429, code: 1033 });
    expect((limited.data as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(0);
    expect(limited.msg).toMatch(/\d+/);
    // Another address is not held back by this one's tries.
    const elsewhere = await staffCall(server, '/v1/staff/login', { email: member.email, password: member.oneTimePassword, code: totpCode(member.secret, nowMs()) }, undefined, newAddress());
    expect(elsewhere.code, elsewhere.msg).toBe(0);
  });

  it('delays one account after repeated failures from any address, even with the right password and code, until the wait ends', async () => {
    const member = await created();
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await staffCall(server, '/v1/staff/login', { email: member.email, password: 'wrong password', code: '123456' }, undefined, newAddress())).code).toBe(1003);
    }
    const right = { email: member.email, password: member.oneTimePassword, code: totpCode(member.secret, nowMs()) };
    const delayed = await staffCall(server, '/v1/staff/login', right, undefined, newAddress());
    expect(delayed).toMatchObject({ code: 1033, data: { retryAfterSeconds: 1 } });
    clock += 1_000;
    const after = await staffCall(server, '/v1/staff/login', { ...right, code: totpCode(member.secret, nowMs()) }, undefined, newAddress());
    expect(after.code, after.msg).toBe(0);
  });

  it('rotates refresh tokens; reusing a spent one ends the session (23519 for every token of it)', async () => {
    const member = await createStaffAndSignIn(server, { roles: ['support'], nowMs });
    const rotated = await staffCall(server, '/v1/staff/refresh', { refreshToken: member.refreshToken });
    expect(rotated.code, rotated.msg).toBe(0);
    const pair = rotated.data as { token: string; refreshToken: string };
    expect(pair.refreshToken).not.toBe(member.refreshToken);
    expect((await staffCall(server, '/v1/staff/me', {}, pair.token)).data).toMatchObject({ staffId: member.staffId });
    const reuse = await staffCall(server, '/v1/staff/refresh', { refreshToken: member.refreshToken });
    expect(reuse.code).toBe(23519);
    expect((await staffCall(server, '/v1/staff/refresh', { refreshToken: pair.refreshToken })).code).toBe(23519);
    expect((await staffCall(server, '/v1/staff/me', {}, pair.token)).code).toBe(23519);
    expect((await staffCall(server, '/v1/staff/me', {}, member.token)).code).toBe(23519);
  });

  it('logout ends the session', async () => {
    const member = await createStaffAndSignIn(server, { roles: ['support'], nowMs });
    expect((await staffCall(server, '/v1/staff/logout', { refreshToken: member.refreshToken }, member.token)).code).toBe(0);
    expect((await staffCall(server, '/v1/staff/me', {}, member.token)).code).toBe(23519);
    expect((await staffCall(server, '/v1/staff/refresh', { refreshToken: member.refreshToken })).code).toBe(23519);
  });

  it('forces the one-time password to change: 2002 on every call but me, password and logout until a new, different, valid password is set', async () => {
    const member = await created(['admin']);
    const login = await staffCall(server, '/v1/staff/login', { email: member.email, password: member.oneTimePassword, code: totpCode(member.secret, nowMs()) });
    const { token } = login.data as { token: string };
    for (const path of ['/v1/staff/staff/list', '/v1/staff/audit/list', '/v1/staff/staff/create']) {
      expect((await staffCall(server, path, {}, token)).code, path).toBe(2002);
    }
    expect((await staffCall(server, '/v1/staff/password', { oldPassword: 'not the old one', newPassword: 'a new password 1' }, token)).code).toBe(1003);
    expect((await staffCall(server, '/v1/staff/password', { oldPassword: member.oneTimePassword, newPassword: member.oneTimePassword }, token)).code).toBe(2007);
    expect((await staffCall(server, '/v1/staff/password', { oldPassword: member.oneTimePassword, newPassword: 'short' }, token)).code).toBe(1001);
    expect((await staffCall(server, '/v1/staff/staff/list', {}, token)).code).toBe(2002);
    expect((await staffCall(server, '/v1/staff/password', { oldPassword: member.oneTimePassword, newPassword: 'a new password 1' }, token)).code).toBe(0);
    expect((await staffCall(server, '/v1/staff/me', {}, token)).data).toMatchObject({ mustChangePassword: false });
    expect((await staffCall(server, '/v1/staff/staff/list', {}, token)).code).toBe(0);
    // The old password no longer signs in; the new one does.
    nextStep();
    const code = totpCode(member.secret, nowMs());
    expect((await staffCall(server, '/v1/staff/login', { email: member.email, password: member.oneTimePassword, code }, undefined, newAddress())).code).toBe(1003);
    const again = await staffCall(server, '/v1/staff/login', { email: member.email, password: 'a new password 1', code });
    expect(again.data).toMatchObject({ mustChangePassword: false });
  });

  it("a password change ends the member's other sessions and keeps the one that changed it", async () => {
    const member = await createStaffAndSignIn(server, { roles: ['support'], nowMs });
    nextStep();
    const other = await staffCall(server, '/v1/staff/login', { email: member.email, password: staffPassword, code: totpCode(member.secret, nowMs()) });
    const otherToken = (other.data as { token: string }).token;
    expect((await staffCall(server, '/v1/staff/password', { oldPassword: staffPassword, newPassword: 'another password 2' }, member.token)).code).toBe(0);
    expect((await staffCall(server, '/v1/staff/me', {}, otherToken)).code).toBe(23519);
    expect((await staffCall(server, '/v1/staff/me', {}, member.token)).code).toBe(0);
  });

  it("keeps customers and staff apart: a customer's token answers 401 on staff calls, a staff token 401 on customer and exchange calls", async () => {
    const email = newEmail('customer');
    await registerByEmail(server, email);
    const customer = await loginByEmail(server, email);
    for (const path of ['/v1/staff/me', '/v1/staff/staff/list', '/v1/staff/x', '/v1/staff/staff/nothing']) {
      expect(await staffCall(server, path, {}, customer.token), path).toMatchObject({ status: 401, code: 400 });
    }
    for (const path of ['/v1/waa/user/info', '/exchange/addOrder']) {
      expect(await staffCall(server, path, {}, admin.token), path).toMatchObject({ status: 401, code: 400 });
    }
  });

  it('answers 401 on a /v1/staff/ path no route matched, however it is spelled, unless a staff token comes with it', async () => {
    for (const path of ['/v1/staff/x', '/v1/STAFF/x', '/v1//staff/x', '/v1/staff%2Fx', '/v1/staff/me/']) {
      expect(await staffCall(server, path, {}), path).toMatchObject({ status: 401, code: 400 });
    }
    expect(await staffCall(server, '/v1/staff/x', {}, admin.token)).toMatchObject({ status: 404, code: 1009 });
  });
});
