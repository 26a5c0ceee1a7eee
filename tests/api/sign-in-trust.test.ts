import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { totpCode } from '../../server/auth/totp';
import type { AuditRow } from '../../src/shared/api/staff';
import { startTestServer, testBackends, type TestServer } from './harness';
import { outbox, password, registerByEmail } from './identity-support';
import { createStaffAndSignIn, staffPassword } from './support/staff';

/**
 * Finding 5 of issue 31: a patient attacker kept anyone out. One wrong try from one address
 * as the per-account delay ended started it again, and while it ran even the right
 * password (and authenticator code) was refused. Now a browser that signed in to the
 * account before carries a device cookie and is not held back by failures from elsewhere;
 * a new browser gets in with a code sent to the account; the attacker stays delayed.
 */
let clock = Date.now();
const nowMs = () => clock;
let mailbox = 0;
const newEmail = (prefix = 'owner') => `${prefix}${Date.now().toString(36)}${(mailbox += 1)}@example.com`;
let addresses = 0;
/** An address of its own: the attacker can use as many as it likes. */
const newAddress = () => `203.0.${Math.floor((addresses += 1) / 250) % 250}.${(addresses % 250) + 1}`;

interface Answer {
  status: number;
  code: number;
  msg: string;
  data: unknown;
  /** The Set-Cookie header of the answer, if any. */
  setCookie: string | null;
}

function answerOf(response: LightMyRequestResponse): Answer {
  const header = response.headers['set-cookie'];
  const setCookie = Array.isArray(header) ? (header[0] ?? null) : (header ?? null);
  return { status: response.statusCode, ...(response.json() as { code: number; msg: string; data: unknown }), setCookie };
}

/** A browser: its own address, and the cookies the server gave it (sent back as a browser would). */
function browser(server: () => TestServer, address = newAddress()) {
  const jar = new Map<string, string>();
  return {
    address,
    jar,
    async post(path: string, body: unknown, token?: string): Promise<Answer> {
      const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
      const response = await server().app.inject({
        method: 'POST',
        url: path,
        remoteAddress: address,
        headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
        payload: JSON.stringify(body),
      });
      const answer = answerOf(response);
      if (answer.setCookie) {
        const [pair] = answer.setCookie.split(';');
        const at = pair!.indexOf('=');
        jar.set(pair!.slice(0, at), pair!.slice(at + 1));
      }
      return answer;
    },
  };
}

/** The last sign-in code the outbox holds for an address. */
async function lastSignInCode(server: TestServer, to: string): Promise<string> {
  await server.app.staff.settled();
  const code = (await outbox(server, to)).filter((message) => message.purpose === 'sign-in' || message.purpose === 'staff sign-in').at(-1)?.code;
  expect(code, `a sign-in code sent to ${to}`).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/);
  return code!;
}

/**
 * The attacker's part: wrong passwords, each from a new address, each as soon as the delay
 * lets one through, until the account's delay is at its cap (AUTH_DELAY_MAX_SECONDS).
 */
async function rampUpTheDelay(attempt: (address: string) => Promise<Answer>, cap: number) {
  for (let tries = 0; tries < 100; tries += 1) {
    const answer = await attempt(newAddress());
    if (answer.code === 1033) {
      const wait = (answer.data as { retryAfterSeconds: number }).retryAfterSeconds;
      if (wait >= cap) return;
      clock += wait * 1000;
    } else {
      expect(answer.code).toBe(1003);
    }
  }
  throw new Error('the delay never reached its cap');
}

/** Each test makes some fifty sign-ins (an argon2 check each): ample time on a loaded machine. */
const slow = 240_000;

describe.each(testBackends())('sign-in that slows attackers and never locks out the owner on $name', (backend) => {
  let server: TestServer;
  const capSeconds = 900;
  beforeAll(async () => {
    server = await startTestServer(backend, { AUTH_DELAY_MAX_SECONDS: String(capSeconds), CODE_CHECKS_PER_10_MIN: '1000', CODES_SENT_PER_10_MIN: '1000' }, { nowMs });
  }, slow);
  afterAll(async () => {
    await server?.close();
  });

  const customerLogin = (username: string, pass: string, extra: Record<string, string> = {}) => ({ username, password: pass, type: 'E', ...extra });

  it('a customer: an attacker keeps the delay running, yet the owner with a device cookie signs in at once, 10 of 10', async () => {
    const email = newEmail();
    await registerByEmail(server, email);
    const owner = browser(() => server);
    const first = await owner.post('/v1/wa-na/login', customerLogin(email, password));
    expect(first.code, first.msg).toBe(0);
    // The device cookie: scripts cannot read it, no other site sends it, only the sign-in call gets it.
    expect(first.setCookie).toMatch(/^tw_device_[\w-]+=[\w-]+\.[\w-]+; Path=\/v1\/wa-na\/login; Max-Age=\d+; HttpOnly; SameSite=Strict$/);

    const attacker = browser(() => server);
    await rampUpTheDelay((address) => browser(() => server, address).post('/v1/wa-na/login', customerLogin(email, 'wrong password')), capSeconds);

    let ownerRefused = 0;
    let newDeviceRefused = 0;
    for (let round = 0; round < 10; round += 1) {
      // One wrong try from the attacker as each delay ends starts the next one.
      clock += capSeconds * 1000;
      const wrong = await attacker.post('/v1/wa-na/login', customerLogin(email, 'wrong password'));
      expect(wrong.code).toBe(1003);
      expect(wrong.setCookie).toBeNull();
      const fromKnownDevice = await owner.post('/v1/wa-na/login', customerLogin(email, password));
      if (fromKnownDevice.code !== 0) ownerRefused += 1;
      // The same owner on a browser the account never saw is held back, as before.
      const fromNewDevice = await browser(() => server).post('/v1/wa-na/login', customerLogin(email, password));
      if (fromNewDevice.code === 1033) newDeviceRefused += 1;
    }
    expect({ ownerRefused, newDeviceRefused }).toEqual({ ownerRefused: 0, newDeviceRefused: 10 });
    // The attacker is still delayed, even with the right password (and no cookie of the owner's).
    expect((await attacker.post('/v1/wa-na/login', customerLogin(email, password))).code).toBe(1033);
    expect(attacker.jar.size).toBe(0);
  }, slow);

  it('a customer on a new device signs in after the e-mailed code; the code works once, a made-up one does not, and the attacker stays delayed', async () => {
    const email = newEmail();
    await registerByEmail(server, email);
    await rampUpTheDelay((address) => browser(() => server, address).post('/v1/wa-na/login', customerLogin(email, 'wrong password')), capSeconds);
    const newDevice = browser(() => server);
    expect((await newDevice.post('/v1/wa-na/login', customerLogin(email, password))).code).toBe(1033);

    // The same answer for an address with no account, and nothing is sent to it.
    const stranger = newEmail('nobody');
    const forStranger = await newDevice.post('/v1/wa-na/sendMail', { email: stranger, type: '3', locale: 'en' });
    const forOwner = await newDevice.post('/v1/wa-na/sendMail', { email, type: '3', locale: 'en' });
    expect(forOwner).toEqual(forStranger);
    expect(forOwner.code).toBe(0);
    expect(await outbox(server, stranger)).toEqual([]);
    const code = await lastSignInCode(server, email);

    const attacker = browser(() => server);
    const guessed = await attacker.post('/v1/wa-na/login', customerLogin(email, password, { signInCode: 'ABCD-EFGH' }));
    expect(guessed.code).toBe(1020);
    // A mistyped password keeps the code; the right one with it signs in, lower case and without the dash too.
    expect((await newDevice.post('/v1/wa-na/login', customerLogin(email, 'mistyped', { signInCode: code }))).code).toBe(1003);
    const signedIn = await newDevice.post('/v1/wa-na/login', customerLogin(email, password, { signInCode: code.replace('-', '').toLowerCase() }));
    expect(signedIn.code, signedIn.msg).toBe(0);
    expect(signedIn.setCookie).toMatch(/^tw_device_/);
    // Spent: the code does not let a second try through.
    expect((await browser(() => server).post('/v1/wa-na/login', customerLogin(email, password, { signInCode: code }))).code).toBe(1020);
    // The attacker's next tries are still delayed; the device that used the code is trusted now.
    expect((await attacker.post('/v1/wa-na/login', customerLogin(email, 'wrong password'))).code).toBe(1033);
    expect((await newDevice.post('/v1/wa-na/login', customerLogin(email, password))).code).toBe(0);
  }, slow);

  it("a device cookie is the account's own: not another account's, not forged, and a device that keeps failing is trusted no more", async () => {
    const email = newEmail();
    const other = newEmail();
    await registerByEmail(server, email);
    await registerByEmail(server, other);
    const owner = browser(() => server);
    expect((await owner.post('/v1/wa-na/login', customerLogin(email, password))).code).toBe(0);
    await rampUpTheDelay((address) => browser(() => server, address).post('/v1/wa-na/login', customerLogin(other, 'wrong password')), capSeconds);
    // The owner's cookie for one account does nothing for another.
    expect((await owner.post('/v1/wa-na/login', customerLogin(other, password))).code).toBe(1033);
    // A cookie under the right name with a made-up value or signature is no device.
    const [name, value] = [...owner.jar][0]!;
    const forger = browser(() => server);
    forger.jar.set(name, `${value.split('.')[0]}.forged`);
    await rampUpTheDelay((address) => browser(() => server, address).post('/v1/wa-na/login', customerLogin(email, 'wrong password')), capSeconds);
    expect((await forger.post('/v1/wa-na/login', customerLogin(email, password))).code).toBe(1033);
    // Ten wrong passwords in a row from the device (DEVICE_COOKIE_MAX_FAILURES): then it is held back like any other.
    for (let attempt = 0; attempt < 10; attempt += 1) expect((await owner.post('/v1/wa-na/login', customerLogin(email, 'wrong password'))).code).toBe(1003);
    expect((await owner.post('/v1/wa-na/login', customerLogin(email, password))).code).toBe(1033);
  }, slow);

  describe('staff', () => {
    /** A compliance officer reads the trail (signed in just now: the tests' clock runs hours ahead). */
    let compliance: Awaited<ReturnType<typeof createStaffAndSignIn>>;
    /** The next TOTP step: a code of a new step is not a replay. */
    const code = (secret: string) => {
      clock += 30_000;
      return totpCode(secret, nowMs());
    };

    async function auditRows(filter: Record<string, unknown>): Promise<AuditRow[]> {
      clock += 1;
      const answer = await browser(() => server).post('/v1/staff/audit/list', { limit: 100, ...filter }, compliance.token);
      expect(answer.code, answer.msg).toBe(0);
      return (answer.data as { list: AuditRow[] }).list;
    }

    it('an admin: an attacker keeps the delay running, yet the admin with a device cookie and a valid code signs in at once, 10 of 10', async () => {
      const member = await createStaffAndSignIn(server, { roles: ['admin'], nowMs });
      const desk = browser(() => server);
      const first = await desk.post('/v1/staff/login', { email: member.email, password: staffPassword, code: code(member.secret) });
      expect(first.code, first.msg).toBe(0);
      expect(first.setCookie).toMatch(/^tw_device_[\w-]+=[\w-]+\.[\w-]+; Path=\/v1\/staff\/login; Max-Age=\d+; HttpOnly; SameSite=Strict$/);
      await rampUpTheDelay((address) => browser(() => server, address).post('/v1/staff/login', { email: member.email, password: 'wrong password', code: '123456' }), capSeconds);

      let refused = 0;
      let newDeviceRefused = 0;
      for (let round = 0; round < 10; round += 1) {
        clock += capSeconds * 1000;
        expect((await browser(() => server).post('/v1/staff/login', { email: member.email, password: 'wrong password', code: '123456' })).code).toBe(1003);
        if ((await desk.post('/v1/staff/login', { email: member.email, password: staffPassword, code: code(member.secret) })).code !== 0) refused += 1;
        if ((await browser(() => server).post('/v1/staff/login', { email: member.email, password: staffPassword, code: code(member.secret) })).code === 1033) newDeviceRefused += 1;
      }
      expect({ refused, newDeviceRefused }).toEqual({ refused: 0, newDeviceRefused: 10 });
    }, slow);

    it('a staff member on a new device signs in after the e-mailed code (the same answer for any address); a guessed code is refused', async () => {
      const member = await createStaffAndSignIn(server, { roles: ['support'], nowMs });
      await rampUpTheDelay((address) => browser(() => server, address).post('/v1/staff/login', { email: member.email, password: 'wrong password', code: '123456' }), capSeconds);
      const laptop = browser(() => server);
      expect((await laptop.post('/v1/staff/login', { email: member.email, password: staffPassword, code: code(member.secret) })).code).toBe(1033);
      const stranger = newEmail('nobody');
      const forStranger = await laptop.post('/v1/staff/login/code', { email: stranger });
      const forMember = await laptop.post('/v1/staff/login/code', { email: member.email });
      expect(forMember).toEqual(forStranger);
      expect(forMember.code).toBe(0);
      const signInCode = await lastSignInCode(server, member.email);
      expect(await outbox(server, stranger)).toEqual([]);
      expect((await browser(() => server).post('/v1/staff/login', { email: member.email, password: staffPassword, code: code(member.secret), signInCode: 'ABCD-EFGH' })).code).toBe(1020);
      const signedIn = await laptop.post('/v1/staff/login', { email: member.email, password: staffPassword, code: code(member.secret), signInCode });
      expect(signedIn.code, signedIn.msg).toBe(0);
      expect(signedIn.setCookie).toMatch(/^tw_device_/);
    }, slow);

    it('writes one audit row for each sign-in, failed sign-in (the e-mail tried, never the password or code), sign-out and refresh', async () => {
      const member = await createStaffAndSignIn(server, { roles: ['support'], nowMs });
      compliance = await createStaffAndSignIn(server, { roles: ['compliance'], nowMs });
      const desk = browser(() => server);
      const rowsOf = async () => (await auditRows({})).filter((row) => row.staffId === member.staffId || JSON.stringify(row.after).includes(member.email));
      const before = (await rowsOf()).length;

      const wrongCode = code(member.secret) === '918273' ? '827364' : '918273';
      const failed = await desk.post('/v1/staff/login', { email: member.email, password: 'not my password 5', code: wrongCode });
      expect(failed.code).toBe(1003);
      const signIn = await desk.post('/v1/staff/login', { email: member.email, password: staffPassword, code: code(member.secret) });
      expect(signIn.code, signIn.msg).toBe(0);
      const session = signIn.data as { token: string; refreshToken: string };
      const refreshed = await desk.post('/v1/staff/refresh', { refreshToken: session.refreshToken });
      expect(refreshed.code, refreshed.msg).toBe(0);
      const pair = refreshed.data as { token: string; refreshToken: string };
      expect((await desk.post('/v1/staff/logout', { refreshToken: pair.refreshToken }, pair.token)).code).toBe(0);

      const rows = (await rowsOf()).slice(0, (await rowsOf()).length - before).reverse();
      expect(rows.map((row) => row.action)).toEqual(['staff.signInFailed', 'staff.signIn', 'staff.refresh', 'staff.signOut']);
      for (const row of rows) expect(row.address).toBe(desk.address);
      expect(rows[0]).toMatchObject({ staffId: null, after: { email: member.email, code: 1003 } });
      expect(rows[1]).toMatchObject({ staffId: member.staffId, staffEmail: member.email, targetId: String(member.staffId) });
      expect(rows[2]).toMatchObject({ staffId: member.staffId });
      expect(rows[3]).toMatchObject({ staffId: member.staffId });
      const stored = JSON.stringify(rows);
      expect(stored).not.toContain('not my password 5');
      expect(stored).not.toContain(wrongCode);
      expect(stored).not.toContain(staffPassword);
    }, slow);
  });
});
