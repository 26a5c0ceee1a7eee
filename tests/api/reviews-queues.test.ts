import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReviewItem } from '../../src/shared/api/staff';
import { ErrorCode } from '../../src/shared/errors/catalogue';
import { createLedger } from '../../server/modules/ledger/ledger';
import { startTestServer, testBackends, type TestServer } from './harness';
import { call } from './identity-support';
import { createStaffAndSignIn } from './support/staff';
import { decided, newCustomer, registerTestKinds, submitReview } from './reviews-support';

type Staff = Awaited<ReturnType<typeof createStaffAndSignIn>>;
type ListAnswer = { list: ReviewItem[]; pages: number; counts: Record<string, number> };

describe.each(testBackends())('review queues on $name', (backend) => {
  let server: TestServer;
  let finance: Staff;
  let compliance: Staff;
  let admin: Staff;
  let support: Staff;

  beforeAll(async () => {
    server = await startTestServer(backend, { FOUR_EYES_USD: '1000', CODES_SENT_PER_10_MIN: '500', CODE_CHECKS_PER_10_MIN: '500' });
    registerTestKinds(server, createLedger(server.database.db), ['repayment', 'withdrawal', 'identity', 'juniorIdentity']);
    [finance, compliance, admin, support] = await Promise.all([
      createStaffAndSignIn(server, { roles: ['finance'] }),
      createStaffAndSignIn(server, { roles: ['compliance'] }),
      createStaffAndSignIn(server, { roles: ['admin'] }),
      createStaffAndSignIn(server, { roles: ['support'] }),
    ]);
  });
  afterAll(async () => {
    await server?.close();
  });

  const list = async (token: string, body: Record<string, unknown>) => {
    const answer = await call(server, '/v1/staff/reviews/list', body, token);
    expect(answer.code, answer.msg).toBe(0);
    return answer.data as ListAnswer;
  };

  it('refuses finance on identity kinds and compliance on money kinds (2001, HTTP 403), on every review call', async () => {
    const customer = await newCustomer(server);
    const identity = await submitReview(server, { kind: 'identity', uid: customer.uid, facts: { realName: 'Ada Lovelace' } });
    const deposit = await submitReview(server, { kind: 'repayment', uid: customer.uid, facts: { amount: '10' }, amountUsd: '10' });
    const refusals: [Staff, string, number][] = [
      [finance, 'identity', identity],
      [compliance, 'repayment', deposit],
      [support, 'repayment', deposit],
      [support, 'identity', identity],
    ];
    for (const [staff, kind, id] of refusals) {
      for (const [path, body] of [
        ['/v1/staff/reviews/list', { kind }],
        ['/v1/staff/reviews/get', { kind, id }],
        ['/v1/staff/reviews/decide', { kind, id, decision: 'approve', requestId: `refused-${kind}-${id}-${staff.staffId}` }],
      ] as const) {
        const answer = await call(server, path, body, staff.token);
        expect([path, staff.email, answer.status, answer.code]).toEqual([path, staff.email, 403, ErrorCode.STAFF_ROLE_REQUIRED]);
      }
    }
    // Nothing was decided by the refused calls; the right roles (and admin) may act.
    expect((await call(server, '/v1/staff/reviews/get', { kind: 'identity', id: identity }, compliance.token)).data).toMatchObject({ item: { status: 'pending', decidedTime: null } });
    await decided(server, compliance.token, { kind: 'identity', id: identity, decision: 'approve' }, 'approved');
    await decided(server, admin.token, { kind: 'repayment', id: deposit, decision: 'approve' }, 'approved');
  });

  it('lists a kind newest first, filters by status, pages, and counts the open items of the kinds the caller may review', async () => {
    const customer = await newCustomer(server);
    const baseline = await list(finance.token, { kind: 'withdrawal', limit: 100 });
    const small = await submitReview(server, { kind: 'withdrawal', uid: customer.uid, facts: { amount: '20 USDT' }, amountUsd: '20' });
    const large = await submitReview(server, { kind: 'withdrawal', uid: customer.uid, facts: { amount: '1500 USDT' }, amountUsd: '1500' });
    const done = await submitReview(server, { kind: 'withdrawal', uid: customer.uid, facts: { amount: '30 USDT' }, amountUsd: '30' });
    await decided(server, finance.token, { kind: 'withdrawal', id: done, decision: 'reject', reason: 'wrong network' }, 'rejected');
    await decided(server, finance.token, { kind: 'withdrawal', id: large, decision: 'approve' }, 'awaiting_second');
    const identity = await submitReview(server, { kind: 'juniorIdentity', uid: customer.uid, facts: { realName: 'Grace Hopper' } });

    const all = await list(finance.token, { kind: 'withdrawal', page: 1, limit: 100 });
    expect(all.list.slice(0, 3).map((item) => [item.id, item.status])).toEqual([
      [done, 'rejected'],
      [large, 'awaiting_second'],
      [small, 'pending'],
    ]);
    expect(all.list.find((item) => item.id === large)).toMatchObject({ kind: 'withdrawal', uid: customer.uid, facts: { amount: '1500 USDT' }, needsTwoApprovals: true, decidedTime: null });
    expect(all.list.find((item) => item.id === small)).toMatchObject({ amountUsd: '20.00', needsTwoApprovals: false });
    expect(all.list.find((item) => item.id === done)?.decidedTime).toEqual(expect.any(Number));
    // Finance counts the money kinds only; two more open withdrawals than before.
    expect(Object.keys(all.counts).sort()).toEqual(['deposit', 'loan', 'repayment', 'withdrawal']);
    expect(all.counts.withdrawal).toBe((baseline.counts.withdrawal ?? 0) + 2);

    expect((await list(finance.token, { kind: 'withdrawal', status: 'rejected', limit: 100 })).list.map((item) => item.status)).toEqual(
      expect.arrayContaining(['rejected']),
    );
    expect((await list(finance.token, { kind: 'withdrawal', status: 'rejected', limit: 100 })).list.every((item) => item.status === 'rejected')).toBe(true);
    expect((await list(finance.token, { kind: 'withdrawal', status: 'awaiting_second', limit: 100 })).list.map((item) => item.id)).toContain(large);
    // `open`: what still awaits someone, a first or a second approval; never a decided item.
    const open = (await list(finance.token, { kind: 'withdrawal', status: 'open', limit: 100 })).list;
    expect(open.map((item) => item.id)).toEqual(expect.arrayContaining([large, small]));
    expect(open.map((item) => item.id)).not.toContain(done);
    expect(open.every((item) => item.status === 'pending' || item.status === 'awaiting_second')).toBe(true);

    const firstPage = await list(finance.token, { kind: 'withdrawal', page: 1, limit: 2 });
    const secondPage = await list(finance.token, { kind: 'withdrawal', page: 2, limit: 2 });
    expect(firstPage.list.map((item) => item.id)).toEqual([done, large]);
    expect(secondPage.list[0]?.id).toBe(small);
    expect(firstPage.pages).toBe(Math.ceil(all.list.length / 2));

    // Compliance sees the identity kinds' counts; admin every kind's.
    const complianceView = await list(compliance.token, { kind: 'juniorIdentity' });
    expect(Object.keys(complianceView.counts).sort()).toEqual(['identity', 'juniorIdentity']);
    expect(complianceView.list[0]?.id).toBe(identity);
    const adminView = await list(admin.token, { kind: 'repayment' });
    expect(Object.keys(adminView.counts).sort()).toEqual(['deposit', 'identity', 'juniorIdentity', 'loan', 'repayment', 'withdrawal']);
    expect(adminView.counts.withdrawal).toBe(all.counts.withdrawal);
  });

  it('shows an item with its files through the staff file route and its decisions with the staff e-mails, oldest first', async () => {
    const customer = await newCustomer(server);
    const id = await submitReview(server, {
      kind: 'withdrawal',
      uid: customer.uid,
      facts: { amount: '2000 USDT', address: 'TQ…9x' },
      amountUsd: '2000',
      files: [{ fileId: 'f3a9c2e1', name: 'statement.jpg' }],
    });
    const other = await createStaffAndSignIn(server, { roles: ['finance'] });
    await decided(server, finance.token, { kind: 'withdrawal', id, decision: 'approve' }, 'awaiting_second');
    await decided(server, other.token, { kind: 'withdrawal', id, decision: 'reject', reason: 'account owner mismatch' }, 'rejected');

    const answer = await call(server, '/v1/staff/reviews/get', { kind: 'withdrawal', id }, finance.token);
    expect(answer.code, answer.msg).toBe(0);
    const data = answer.data as { item: ReviewItem; files: unknown[]; decisions: { staff: string; decision: string; reason: string | null; time: number }[] };
    expect(data.item).toMatchObject({ id, kind: 'withdrawal', status: 'rejected', uid: customer.uid, amountUsd: '2000.00', needsTwoApprovals: true, facts: { amount: '2000 USDT', address: 'TQ…9x' } });
    expect(data.files).toEqual([{ name: 'statement.jpg', url: '/v1/staff/file/f3a9c2e1' }]);
    expect(data.decisions.map(({ staff, decision, reason }) => ({ staff, decision, reason }))).toEqual([
      { staff: finance.email, decision: 'approve', reason: null },
      { staff: other.email, decision: 'reject', reason: 'account owner mismatch' },
    ]);
    expect(data.decisions[0]!.time).toBeLessThanOrEqual(data.decisions[1]!.time);

    expect((await call(server, '/v1/staff/reviews/get', { kind: 'repayment', id }, finance.token)).code).toBe(ErrorCode.DATA_NOT_FOUND);
  });

  it('refuses an unknown kind before anything else (1001)', async () => {
    expect((await call(server, '/v1/staff/reviews/list', { kind: 'payroll' }, finance.token)).code).toBe(ErrorCode.INCORRECT_PARAMETER_CONTENT);
  });
});
