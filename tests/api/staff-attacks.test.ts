import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../server/auth/totp';
import { ErrorCode } from '../../src/shared/errors/catalogue';
import { appBannerList } from '../../src/shared/api/anonymous';
import { refresh as customerRefresh } from '../../src/shared/api/auth';
import { staffRouteAccess } from '../../src/shared/staff/access';
import { createLedger } from '../../server/modules/ledger/ledger';
import { startTestServer, testBackends, type TestServer } from './harness';
import { call, loginByEmail, registerByEmail } from './identity-support';
import { decide, decided, decisionRows, itemStatus, newRequestId, registerTestKinds, submitReview } from './reviews-support';
import { tronAddress, usdtTrc20Of } from './support/money-controls';
import { createStaffAndSignIn, secretOf, staffCall, staffPassword } from './support/staff';

const { WebSocket } = createRequire(import.meta.url)('ws') as {
  WebSocket: new (url: string) => { on(event: 'close', listener: (code: number) => void): void; on(event: 'error', listener: () => void): void };
};

type Staff = Awaited<ReturnType<typeof createStaffAndSignIn>>;

let clock = Date.now();
const nowMs = () => clock;
/** The next TOTP step: a code of a new step is not a replay of the last one. */
const nextStep = () => void (clock += 30_000);
let mailbox = 0;
const newEmail = (prefix = 'attack') => `${prefix}${Date.now().toString(36)}${(mailbox += 1)}@example.com`;
let addresses = 0;
const newAddress = () => `10.77.${Math.floor((addresses += 1) / 250)}.${addresses % 250}`;

/** Routes of the staff table that change something (the rest only read). */
const mutatingPaths = [
  // First: the walking admin declares their own document before deciding anything.
  '/v1/staff/me/declareDocument',
  '/v1/staff/staff/create',
  '/v1/staff/staff/resendInvitation',
  '/v1/staff/staff/setRoles',
  '/v1/staff/staff/disable',
  '/v1/staff/customers/setTradingProhibited',
  '/v1/staff/customers/endSessions',
  '/v1/staff/reviews/decide',
  '/v1/staff/config/setSwitch',
  '/v1/staff/config/setProduct',
  '/v1/staff/config/setOptionProduct',
  '/v1/staff/config/setBanners',
  '/v1/staff/config/setServiceLink',
  '/v1/staff/config/setCurrency',
  '/v1/staff/config/setCoinNetwork',
  '/v1/staff/config/setLimits',
  '/v1/staff/config/proposals/decide',
  '/v1/staff/customers/setDepositBlocked',
  '/v1/staff/customers/setOwnDepositAddress',
  '/v1/staff/notices/send',
  // After the decision: an account declared as the walker's own would refuse it.
  '/v1/staff/me/declareAccount',
  '/v1/staff/staff/recordAccountLink',
] as const;

/** Routes that change nothing another person sees (logout ends only the caller's own session; sign-ins are not audited either). */
const readOnlyPaths = [
  '/v1/staff/logout',
  '/v1/staff/me',
  '/v1/staff/me/declarations',
  '/v1/staff/staff/list',
  '/v1/staff/customers/search',
  '/v1/staff/customers/get',
  '/v1/staff/customers/ledger',
  '/v1/staff/reviews/list',
  '/v1/staff/reviews/get',
  '/v1/staff/audit/list',
  '/v1/staff/config/switches',
  '/v1/staff/config/products',
  '/v1/staff/config/optionProducts',
  '/v1/staff/config/banners',
  '/v1/staff/config/currencies',
  '/v1/staff/config/serviceLink',
  '/v1/staff/config/proposals/list',
  '/v1/staff/config/limits',
  // A GET that answers a stored file (a deposit proof) to a member who reviews it.
  '/v1/staff/file/:id',
];

/**
 * The staff back office attacked: tokens of one side on the other, sessions after a role
 * change or disabling, parallel sign-ins with one code, four-eyes games, refused calls and
 * the audit trail, secrets in the trail and the log, and configuration that reaches the
 * customer app.
 */
describe.each(testBackends())('staff back office under attack on $name', (backend) => {
  let server: TestServer;
  const logLines: string[] = [];
  let admin: Staff;
  let financeA: Staff;
  let financeB: Staff;
  let customer: { uid: number; token: string; refreshToken: string };

  const auditCount = async () => Number((await server.database.db.selectFrom('staff_audit').select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    server = await startTestServer(
      backend,
      { FOUR_EYES_USD: '1000', LOGIN_ATTEMPTS_PER_15_MIN: '3', CODES_SENT_PER_10_MIN: '500', CODE_CHECKS_PER_10_MIN: '500' },
      { nowMs, logger: { level: 'trace', stream: { write: (line: string) => void logLines.push(line) } } },
    );
    registerTestKinds(server, createLedger(server.database.db), ['deposit', 'withdrawal', 'loan', 'identity']);
    admin = await createStaffAndSignIn(server, { roles: ['admin'], nowMs });
    financeA = await createStaffAndSignIn(server, { roles: ['finance'], nowMs });
    financeB = await createStaffAndSignIn(server, { roles: ['finance'], nowMs });
    const email = newEmail('customer');
    await registerByEmail(server, email);
    const session = await loginByEmail(server, email);
    const info = (await call(server, '/v1/waa/user/info', {}, session.token)).data as { uid: number };
    customer = { uid: info.uid, token: session.token, refreshToken: session.refreshToken };
  });
  afterAll(async () => {
    await server?.close();
  });

  it("refuses a customer's token on every staff path however spelled or sent (401), and a staff token on customer calls and the exchange socket", async () => {
    const spellings = ['/v1/staff/staff/list', '/v1/staff/staff/list/', '/v1/STAFF/staff/list', '/v1//staff/staff/list', '/v1/staff%2Fstaff/list', '/v1/staff/staff%2Flist'];
    const answered: string[] = [];
    for (const url of spellings) {
      for (const method of ['POST', 'GET', 'HEAD'] as const) {
        const answer = await server.app.inject({ method, url, headers: { authorization: `Bearer ${customer.token}`, 'content-type': 'application/json' }, ...(method === 'POST' ? { payload: '{}' } : {}) });
        if (answer.statusCode !== 401) answered.push(`${method} ${url}: ${answer.statusCode}`);
      }
    }
    expect(answered).toEqual([]);
    for (const path of ['/v1/waa/user/info', '/v1/waa/notice/list', '/exchange/addOrder']) {
      expect(await staffCall(server, path, {}, admin.token), path).toMatchObject({ status: 401, code: 400 });
    }
    const { port } = (await server.app.listen({ port: 0, host: '127.0.0.1' }).then(() => server.app.server.address())) as AddressInfo;
    const socket = new WebSocket(`ws://127.0.0.1:${port}/exchange/ws?token=${encodeURIComponent(admin.token)}`);
    socket.on('error', () => undefined);
    expect(await new Promise<number>((resolve) => socket.on('close', resolve))).toBe(4401);
  });

  it('refuses an expired staff token (401) and each side\'s refresh token at the other side\'s refresh', async () => {
    const member = await createStaffAndSignIn(server, { roles: ['support'], nowMs });
    expect(await staffCall(server, '/v1/staff/me', {}, member.token)).toMatchObject({ code: 0 });
    const saved = clock;
    clock += 24 * 60 * 60 * 1000; // far past ACCESS_TOKEN_TTL_SECONDS
    try {
      expect(await staffCall(server, '/v1/staff/me', {}, member.token)).toMatchObject({ status: 401, code: 400 });
    } finally {
      clock = saved;
    }
    expect((await call(server, customerRefresh.path, { refreshToken: member.refreshToken })).code).not.toBe(0);
    expect((await staffCall(server, '/v1/staff/refresh', { refreshToken: customer.refreshToken })).code).toBe(ErrorCode.SESSION_ENDED);
    // Neither refusal spent anything: both tokens still work on their own side.
    expect((await staffCall(server, '/v1/staff/refresh', { refreshToken: member.refreshToken })).code).toBe(0);
  });

  it('takes admin away from a demoted admin on their very next call, and a disabled member loses access and refresh together', async () => {
    const demoted = await createStaffAndSignIn(server, { roles: ['admin'], nowMs });
    expect((await staffCall(server, '/v1/staff/staff/list', { page: 1, limit: 10 }, demoted.token)).code).toBe(0);
    expect((await staffCall(server, '/v1/staff/staff/setRoles', { staffId: demoted.staffId, roles: ['support'] }, admin.token)).code).toBe(0);
    expect(await staffCall(server, '/v1/staff/staff/list', { page: 1, limit: 10 }, demoted.token)).toMatchObject({ status: 403, code: ErrorCode.STAFF_ROLE_REQUIRED });
    // A refreshed token carries no stale roles either.
    const fresh = (await staffCall(server, '/v1/staff/refresh', { refreshToken: demoted.refreshToken })).data as { token: string; refreshToken: string };
    expect(await staffCall(server, '/v1/staff/staff/list', { page: 1, limit: 10 }, fresh.token)).toMatchObject({ code: ErrorCode.STAFF_ROLE_REQUIRED });

    expect((await staffCall(server, '/v1/staff/staff/disable', { staffId: demoted.staffId }, admin.token)).code).toBe(0);
    expect((await staffCall(server, '/v1/staff/me', {}, fresh.token)).code).toBe(ErrorCode.SESSION_ENDED);
    expect((await staffCall(server, '/v1/staff/refresh', { refreshToken: fresh.refreshToken })).code).toBe(ErrorCode.SESSION_ENDED);
  });

  it('refuses, and keeps nothing of, an action whose caller was disabled after the call was let in (mid-request)', async () => {
    const member = await createStaffAndSignIn(server, { roles: ['finance'], nowMs });
    const id = await submitReview(server, { kind: 'deposit', uid: customer.uid, facts: { amount: '10' }, amountUsd: '10' });
    // The member as the staff scope handed them to the handler, before the admin's disabling committed.
    const actor = { staffId: member.staffId, email: member.email, roles: ['finance' as const], address: '10.1.1.1' };
    expect((await staffCall(server, '/v1/staff/staff/disable', { staffId: member.staffId }, admin.token)).code).toBe(0);
    const auditBefore = await auditCount();
    await expect(server.app.reviews.decide(actor, { kind: 'deposit', id, decision: 'approve', requestId: newRequestId() })).rejects.toMatchObject({ code: ErrorCode.SESSION_ENDED });
    expect(await itemStatus(server, id)).toBe('pending');
    expect(await decisionRows(server, id)).toHaveLength(0);
    expect(await auditCount()).toBe(auditBefore);
  });

  it('lets only one of two parallel sign-ins with the same code through; the other answers like a wrong password', async () => {
    nextStep();
    const email = newEmail();
    // Credentials handed out once: the command line's (an admin's staff/create hands out none).
    const { oneTimePassword, otpauthUrl } = await server.app.staff.management.create({ email, roles: ['support'] }, { staffId: null, address: 'cli' });
    const code = totpCode(secretOf(otpauthUrl), nowMs());
    const body = { email, password: oneTimePassword, code };
    const answers = await Promise.all([staffCall(server, '/v1/staff/login', body, undefined, newAddress()), staffCall(server, '/v1/staff/login', body, undefined, newAddress())]);
    expect(answers.map((answer) => answer.code).sort((a, b) => a - b)).toEqual([0, ErrorCode.INCORRECT_ACCOUNT_OR_PASSWORD]);
  });

  it('answers an unknown e-mail, a wrong password, a wrong code and a disabled member with one code and one shape', async () => {
    nextStep();
    const victim = await createStaffAndSignIn(server, { roles: ['support'], nowMs });
    nextStep();
    const disabled = await createStaffAndSignIn(server, { roles: ['support'], nowMs });
    expect((await staffCall(server, '/v1/staff/staff/disable', { staffId: disabled.staffId }, admin.token)).code).toBe(0);
    nextStep();
    const good = (member: Staff) => ({ email: member.email, password: staffPassword, code: totpCode(member.secret, nowMs()) });
    const tries = [
      { ...good(victim), email: newEmail('nobody') },
      { ...good(victim), password: 'wrong horse battery 1' },
      { ...good(victim), code: totpCode(victim.secret, nowMs() + 5 * 60_000) },
      good(disabled),
    ];
    const answers = [];
    for (const body of tries) {
      const answer = await server.app.inject({ method: 'POST', url: '/v1/staff/login', remoteAddress: newAddress(), headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });
      answers.push({ status: answer.statusCode, body: answer.json() as unknown });
    }
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(answers[0]?.body).toMatchObject({ code: ErrorCode.INCORRECT_ACCOUNT_OR_PASSWORD });
  });

  it('counts sign-in tries by the connecting address, whatever X-Forwarded-For says (no proxy is trusted)', async () => {
    const address = newAddress();
    const body = { email: newEmail('nobody'), password: 'wrong horse battery 1', code: '000000' };
    const codes: number[] = [];
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const answer = await server.app.inject({
        method: 'POST',
        url: '/v1/staff/login',
        remoteAddress: address,
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `203.0.113.${attempt}` },
        payload: JSON.stringify(body),
      });
      codes.push((answer.json() as { code: number }).code);
    }
    expect(codes.slice(0, 3)).toEqual([ErrorCode.INCORRECT_ACCOUNT_OR_PASSWORD, ErrorCode.INCORRECT_ACCOUNT_OR_PASSWORD, ErrorCode.INCORRECT_ACCOUNT_OR_PASSWORD]);
    expect(codes[3]).toBe(ErrorCode.TRY_AGAIN_LATER);
  });

  describe('four-eyes', () => {
    it('refuses an admin approving both halves, and a first approver demoted before the second approval cannot decide at all', async () => {
      const id = await submitReview(server, { kind: 'withdrawal', uid: customer.uid, amountUsd: '5000' });
      await decided(server, admin.token, { kind: 'withdrawal', id, decision: 'approve' }, 'awaiting_second');
      expect((await decide(server, admin.token, { kind: 'withdrawal', id, decision: 'approve' })).code).toBe(ErrorCode.REVIEW_SAME_APPROVER);

      const loan = await submitReview(server, { kind: 'loan', uid: customer.uid, amountUsd: '10' });
      const second = await createStaffAndSignIn(server, { roles: ['finance'], nowMs });
      await decided(server, financeA.token, { kind: 'loan', id: loan, decision: 'approve' }, 'awaiting_second');
      expect((await staffCall(server, '/v1/staff/staff/setRoles', { staffId: second.staffId, roles: ['support'] }, admin.token)).code).toBe(0);
      expect((await decide(server, second.token, { kind: 'loan', id: loan, decision: 'approve' })).code).toBe(ErrorCode.STAFF_ROLE_REQUIRED);
      expect(await itemStatus(server, loan)).toBe('awaiting_second');
    });

    it('lets one of two parallel second approvals through, and nothing decides the item again', async () => {
      const third = await createStaffAndSignIn(server, { roles: ['finance'], nowMs });
      const id = await submitReview(server, { kind: 'withdrawal', uid: customer.uid, amountUsd: '2500' });
      await decided(server, financeA.token, { kind: 'withdrawal', id, decision: 'approve' }, 'awaiting_second');
      const answers = await Promise.all([
        decide(server, financeB.token, { kind: 'withdrawal', id, decision: 'approve' }),
        decide(server, third.token, { kind: 'withdrawal', id, decision: 'approve' }),
      ]);
      expect(answers.map((answer) => answer.code).sort((a, b) => a - b)).toEqual([0, ErrorCode.REVIEW_ALREADY_DECIDED]);
      expect((await decide(server, admin.token, { kind: 'withdrawal', id, decision: 'reject', reason: 'late' })).code).toBe(ErrorCode.REVIEW_ALREADY_DECIDED);
      expect(await decisionRows(server, id)).toHaveLength(2);
    });

    it("does not take another staff member's requestId as one's own replay: the second approver's click is refused, not swallowed", async () => {
      const id = await submitReview(server, { kind: 'withdrawal', uid: customer.uid, amountUsd: '3000' });
      const requestId = newRequestId();
      await decided(server, financeA.token, { kind: 'withdrawal', id, decision: 'approve', requestId }, 'awaiting_second');
      // financeB (a different approver) reuses financeA's id: answering 'awaiting_second' as if it were B's replay would hide that B decided nothing.
      const reused = await decide(server, financeB.token, { kind: 'withdrawal', id, decision: 'reject', reason: 'mismatch', requestId });
      expect(reused.code).toBe(ErrorCode.INCORRECT_PARAMETER_VALUE);
      expect(await decisionRows(server, id)).toHaveLength(1);
      // financeA's own replay still answers the first decision.
      expect((await decide(server, financeA.token, { kind: 'withdrawal', id, decision: 'approve', requestId })).data).toEqual({ status: 'awaiting_second' });
    });
  });

  it('walks the route table: every route that changes something writes exactly one audit row, with before and after, for one call', async () => {
    const declared = server.app.staffRoutes.table().map((entry) => entry.path);
    // Each declared route is classified, so a new one cannot skip this walk.
    expect([...declared].sort()).toEqual([...mutatingPaths, '/v1/staff/password', ...readOnlyPaths].sort());

    // An admin who has declared nothing yet: their first walked call declares their document.
    const walker = await createStaffAndSignIn(server, { roles: ['admin'], nowMs, document: null });
    const target = await createStaffAndSignIn(server, { roles: ['support'], nowMs });
    const review = await submitReview(server, { kind: 'deposit', uid: customer.uid, facts: { amount: '5' }, amountUsd: '5' });
    const switches = ((await staffCall(server, '/v1/staff/config/switches', {}, walker.token)).data as { items: { name: string; enable: boolean }[] }).items;
    const products = ((await staffCall(server, '/v1/staff/config/products', {}, walker.token)).data as { list: { productCode: string }[] }).list;
    const optionProducts = ((await staffCall(server, '/v1/staff/config/optionProducts', {}, walker.token)).data as { list: { id: number }[] }).list;
    // A proposal to decide: its proposer may reject (withdraw) it.
    const proposal = ((await staffCall(server, '/v1/staff/config/setProduct', { productCode: products[0]!.productCode, fields: { overnightRate: '0.0002' } }, walker.token)).data as { proposalId: number }).proposalId;
    const invited = (await staffCall(server, '/v1/staff/staff/create', { email: newEmail('walk-invited'), roles: ['support'] }, walker.token)).data as { staffId: number };
    const usdtTrc20 = await usdtTrc20Of(server, customer.token);
    const bodies: Record<(typeof mutatingPaths)[number], unknown> = {
      '/v1/staff/me/declareDocument': { documentNumber: `WALK-${newRequestId()}` },
      '/v1/staff/me/declareAccount': { uid: customer.uid },
      '/v1/staff/staff/recordAccountLink': { staffId: target.staffId, uid: customer.uid },
      '/v1/staff/staff/create': { email: newEmail('walk'), roles: ['support'] },
      '/v1/staff/staff/resendInvitation': { staffId: invited.staffId },
      '/v1/staff/staff/setRoles': { staffId: target.staffId, roles: ['support', 'finance'] },
      '/v1/staff/staff/disable': { staffId: target.staffId },
      '/v1/staff/customers/setTradingProhibited': { uid: customer.uid, prohibited: true, reason: 'walk' },
      '/v1/staff/customers/endSessions': { uid: customer.uid, reason: 'walk' },
      '/v1/staff/reviews/decide': { kind: 'deposit', id: review, decision: 'approve', requestId: newRequestId() },
      '/v1/staff/config/setSwitch': { name: switches[0]!.name, enable: !switches[0]!.enable },
      '/v1/staff/config/setProduct': { productCode: products[0]!.productCode, fields: { overnightRate: '0.0001' } },
      '/v1/staff/config/setOptionProduct': { id: optionProducts[0]!.id, tradeStatus: 1, feeRate: '0', timeRatePayload: { '1': '30;80;;100;10' } },
      '/v1/staff/config/setBanners': { rows: [{ bannerUrl: '/banners/walk.png', sort: 0, active: true }] },
      '/v1/staff/config/setServiceLink': { value: '1|["https://chat.example.com/walk","","",""]' },
      '/v1/staff/config/setCurrency': { code: 'WALK', name: 'Walk coin', decimals: 4, icon: '', valuedByProduct: null, transferFeeRate: '0', enabled: true, sort: 9 },
      '/v1/staff/config/setCoinNetwork': { currencyId: 1, network: 'WALK20', depositAddress: 'TWalkAddress1234567890', minWithdraw: '1', maxWithdraw: '10', withdrawFeeType: 'FIX_AMOUNT', withdrawFee: '0', enabled: true },
      '/v1/staff/config/setLimits': {
        limits: {
          none: { dailyWithdrawUsd: '1000', monthlyWithdrawUsd: '5000', depositMaxUsd: '10000' },
          junior: { dailyWithdrawUsd: '10000', monthlyWithdrawUsd: '50000', depositMaxUsd: '100000' },
          full: { dailyWithdrawUsd: '100000', monthlyWithdrawUsd: '1000000', depositMaxUsd: '1000000' },
        },
      },
      '/v1/staff/config/proposals/decide': { proposalId: proposal, decision: 'reject', reason: 'walk', requestId: newRequestId() },
      '/v1/staff/customers/setDepositBlocked': { uid: customer.uid, blocked: true, reason: 'walk' },
      '/v1/staff/customers/setOwnDepositAddress': { uid: customer.uid, coinId: usdtTrc20.id, address: tronAddress(), reason: 'walk' },
      '/v1/staff/notices/send': { uid: customer.uid, title: 'Walk', content: 'One row' },
    };
    const written: Record<string, number> = {};
    const rowsWithoutAfter: string[] = [];
    for (const path of mutatingPaths) {
      const before = await auditCount();
      const answer = await staffCall(server, path, bodies[path], walker.token);
      expect(answer.code, `${path}: ${answer.msg}`).toBe(0);
      written[path] = (await auditCount()) - before;
      const last = await server.database.db.selectFrom('staff_audit').select(['staff_id', 'after']).orderBy('id', 'desc').executeTakeFirstOrThrow();
      if (last.after === null || last.staff_id !== walker.staffId) rowsWithoutAfter.push(path);
    }
    expect(written).toEqual(Object.fromEntries(mutatingPaths.map((path) => [path, 1])));
    expect(rowsWithoutAfter).toEqual([]);
  });

  it('writes no audit row for a refused call on any mutating staff route (wrong role, bad body, unknown target)', async () => {
    for (const path of mutatingPaths) expect(staffRouteAccess, path).toHaveProperty([path]);
    const support = await createStaffAndSignIn(server, { roles: ['support'], nowMs });
    const compliance = await createStaffAndSignIn(server, { roles: ['compliance'], nowMs });
    const refusedCalls: [string, unknown, string][] = [
      ['/v1/staff/staff/create', { email: 'not-an-email', roles: ['support'] }, admin.token],
      ['/v1/staff/staff/create', { email: newEmail(), roles: ['support'] }, support.token],
      ['/v1/staff/staff/setRoles', { staffId: 999_999, roles: ['support'] }, admin.token],
      ['/v1/staff/staff/setRoles', { staffId: financeA.staffId, roles: ['finance'] }, admin.token],
      ['/v1/staff/staff/disable', { staffId: admin.staffId }, admin.token],
      ['/v1/staff/customers/setTradingProhibited', { uid: 99_999_999, prohibited: true, reason: 'x' }, compliance.token],
      ['/v1/staff/customers/setTradingProhibited', { uid: customer.uid, prohibited: true, reason: 'x' }, support.token],
      ['/v1/staff/customers/endSessions', { uid: 99_999_999, reason: 'x' }, support.token],
      ['/v1/staff/reviews/decide', { kind: 'deposit', id: 99_999_999, decision: 'approve', requestId: newRequestId() }, financeA.token],
      ['/v1/staff/config/setSwitch', { name: 'NO_SUCH_SWITCH', enable: true }, admin.token],
      ['/v1/staff/config/setProduct', { productCode: 'EURUSD', fields: { spread: '-1' } }, admin.token],
      ['/v1/staff/config/setOptionProduct', { id: 1, tradeStatus: 1, feeRate: '0', timeRatePayload: { '1': '30;80;;10;100' } }, admin.token],
      ['/v1/staff/config/setBanners', { rows: [{ bannerUrl: '', sort: 0, active: true }] }, admin.token],
      ['/v1/staff/config/setServiceLink', { value: '0|["javascript:alert(1)","","",""]' }, admin.token],
      ['/v1/staff/config/setCurrency', { code: 'BAD', name: 'Bad', decimals: 4, icon: '', valuedByProduct: 'NOPE', transferFeeRate: '0', enabled: true, sort: 0 }, admin.token],
      ['/v1/staff/config/setCurrency', { code: 'BAD', name: 'Bad', decimals: 4, icon: '', valuedByProduct: null, transferFeeRate: '0', enabled: true, sort: 0 }, financeA.token],
      ['/v1/staff/config/setCoinNetwork', { currencyId: 1, network: 'BAD', depositAddress: '', minWithdraw: '1', maxWithdraw: '10', withdrawFeeType: 'FIX_AMOUNT', withdrawFee: '0', enabled: true }, admin.token],
      ['/v1/staff/config/setLimits', { limits: { none: { dailyWithdrawUsd: '10', monthlyWithdrawUsd: '5', depositMaxUsd: '1' }, junior: { dailyWithdrawUsd: '10', monthlyWithdrawUsd: '5', depositMaxUsd: '1' }, full: { dailyWithdrawUsd: '10', monthlyWithdrawUsd: '5', depositMaxUsd: '1' } } }, admin.token],
      ['/v1/staff/config/proposals/decide', { proposalId: 99_999_999, decision: 'approve', requestId: newRequestId() }, admin.token],
      ['/v1/staff/customers/setDepositBlocked', { uid: 99_999_999, blocked: true, reason: 'x' }, financeA.token],
      ['/v1/staff/customers/setDepositBlocked', { uid: customer.uid, blocked: true, reason: 'x' }, support.token],
      ['/v1/staff/notices/send', { uid: customer.uid, title: '', content: 'x' }, support.token],
      ['/v1/staff/notices/send', { uid: customer.uid, title: 't', content: 'x' }, financeA.token],
      ['/v1/staff/me/declareDocument', { documentNumber: 'A-1' }, support.token],
      ['/v1/staff/me/declareDocument', { documentNumber: `AGAIN-${newRequestId()}` }, support.token],
      ['/v1/staff/me/declareAccount', { uid: 99_999_999 }, support.token],
      ['/v1/staff/staff/recordAccountLink', { staffId: financeA.staffId, uid: customer.uid }, support.token],
      ['/v1/staff/staff/recordAccountLink', { staffId: 999_999, uid: customer.uid }, compliance.token],
    ];
    const writers: string[] = [];
    for (const [path, body, token] of refusedCalls) {
      const before = await auditCount();
      const answer = await staffCall(server, path, body, token);
      expect(answer.code, `${path} ${JSON.stringify(body)} should be refused`).not.toBe(0);
      if ((await auditCount()) !== before) writers.push(path);
    }
    expect(writers).toEqual([]);
  });

  it('keeps every password, one-time password, TOTP secret, code and token out of the audit trail and the log', async () => {
    nextStep();
    const email = newEmail('secret');
    // Credentials handed out once: the command line's (an admin's staff/create hands out none).
    const { oneTimePassword, otpauthUrl } = await server.app.staff.management.create({ email, roles: ['support'] }, { staffId: null, address: 'cli' });
    const secret = secretOf(otpauthUrl);
    const code = totpCode(secret, nowMs());
    const login = await staffCall(server, '/v1/staff/login', { email, password: oneTimePassword, code }, undefined, newAddress());
    const { token, refreshToken } = login.data as { token: string; refreshToken: string };
    const newPassword = 'a fresh staff secret 42';
    expect((await staffCall(server, '/v1/staff/password', { oldPassword: oneTimePassword, newPassword }, token)).code).toBe(0);
    expect((await staffCall(server, '/v1/staff/refresh', { refreshToken })).code).toBe(0);
    const rows = await server.database.db.selectFrom('staff_audit').selectAll().execute();
    const trail = JSON.stringify(rows);
    const log = logLines.join('\n');
    expect(log.length).toBeGreaterThan(0);
    for (const value of [oneTimePassword, secret, newPassword, staffPassword, token, refreshToken, `"${code}"`]) {
      expect(trail.includes(value), `audit holds ${value}`).toBe(false);
      expect(log.includes(value), `log holds ${value}`).toBe(false);
    }
  });

  it('stores only banners the customer app can show: no javascript:, data:text or other-origin address (1016, nothing changed)', async () => {
    const good = [{ bannerUrl: '/banners/brand-1.png', sort: 0, active: true }];
    expect((await staffCall(server, '/v1/staff/config/setBanners', { rows: good }, admin.token)).code).toBe(0);
    const before = await auditCount();
    for (const bannerUrl of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'https://tracker.example.net/pixel.png', '//tracker.example.net/p.png', 'data:text/html,<script>alert(1)</script>', '/\\tracker.example.net/p.png', 'banners/relative.png']) {
      const answer = await staffCall(server, '/v1/staff/config/setBanners', { rows: [{ bannerUrl, sort: 0, active: true }] }, admin.token);
      expect(answer.code, bannerUrl).toBe(ErrorCode.INCORRECT_PARAMETER_VALUE);
    }
    expect(await auditCount()).toBe(before);
    expect((await call(server, appBannerList.path)).data).toEqual({ rows: [{ bannerUrl: '/banners/brand-1.png' }] });
  });

  it('refuses option products whose payouts would be negative, empty or inverted (min above max)', async () => {
    const list = ((await staffCall(server, '/v1/staff/config/optionProducts', {}, admin.token)).data as { list: { id: number }[] }).list;
    const id = list[0]!.id;
    for (const payload of [{ '1': '30;-80;;100;10' }, { '1': '30;0;;100;10' }, { '1': '30;80;;10;100' }, { '1': '0;80;;100;10' }, { '1': '30;80;-5;100;10' }]) {
      expect((await staffCall(server, '/v1/staff/config/setOptionProduct', { id, tradeStatus: 1, feeRate: '0', timeRatePayload: payload }, admin.token)).code, JSON.stringify(payload)).toBe(
        ErrorCode.INCORRECT_PARAMETER_VALUE,
      );
    }
    expect((await staffCall(server, '/v1/staff/config/setOptionProduct', { id, tradeStatus: 1, feeRate: '1', timeRatePayload: { '1': '30;80;;100;10' } }, admin.token)).code).toBe(ErrorCode.INCORRECT_PARAMETER_VALUE);
  });
});
