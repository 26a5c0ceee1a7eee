import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NoticeCode } from '../../src/shared/notices/notice-codes';
import { startTestServer, testBackends, type TestServer } from './harness';
import { call } from './identity-support';
import { decide, newCustomer } from './reviews-support';
import { createStaffAndSignIn, staffCall } from './support/staff';
import { jpegImage, multipartBody, multipartCall } from './uploads-support';

interface Notice {
  id: number;
  readStatus: number;
  actionType: number;
  alarmType: number | null;
  title: string;
  paymentPrice: string | null;
  remark: string | null;
  params: Record<string, string> | null;
}

describe.each(testBackends())('notices on $name', (backend) => {
  let server: TestServer;
  let finance: { token: string };
  let support: { token: string };
  let coin: { id: number; said: string };

  beforeAll(async () => {
    // One finance member decides each deposit here (the notices are the subject): four-eyes stays above the day's deposits.
    server = await startTestServer(backend, { CODES_SENT_PER_10_MIN: '500', CODE_CHECKS_PER_10_MIN: '500', FOUR_EYES_USD: '100000' });
    finance = await createStaffAndSignIn(server, { roles: ['finance'] });
    support = await createStaffAndSignIn(server, { roles: ['support'] });
    const customer = await newCustomer(server, 'coins');
    const networks = (await call(server, '/v1/waa/wallet/coinNetworks', {}, customer.token)).data as { dtoList: { id: number; currency: string; protocol: string; said: string }[] };
    coin = networks.dtoList.find((network) => network.currency === 'USDT' && network.protocol === 'TRC20')!;
  });
  afterAll(async () => {
    await server?.close();
  });

  const list = async (token: string, page = 1) => {
    const answer = await call(server, '/v1/waa/notice/list', { page, limit: 10 }, token);
    expect(answer.code, answer.msg).toBe(0);
    return answer.data as { list: Notice[]; pages: number };
  };

  /** A deposit submitted and decided by finance: its notice is what the customer reads. */
  async function decidedDeposit(customer: { token: string; uid: number }, amount: string, decision: 'approve' | 'reject') {
    const body = multipartBody({ metaData: JSON.stringify({ coinId: coin.id, said: coin.said, locale: 'en', amt: amount }) }, [
      { field: 'depositProof', filename: 'transfer.jpg', bytes: await jpegImage(), type: 'image/jpeg' },
    ]);
    expect((await multipartCall(server, '/v1/waa/deposit/submit', body, customer.token, crypto.randomUUID())).code).toBe(0);
    const queue = (await staffCall(server, '/v1/staff/reviews/list', { kind: 'deposit', status: 'pending', page: 1, limit: 50 }, finance.token)).data as { list: { id: number; uid: number }[] };
    const item = queue.list.find((entry) => entry.uid === customer.uid)!;
    const answer = await decide(server, finance.token, { kind: 'deposit', id: item.id, decision, ...(decision === 'reject' ? { reason: 'no transfer found' } : {}) });
    expect(answer.code, answer.msg).toBe(0);
  }

  it('a money notice carries its code and parameters (amount, currency, event, reason) for the app to word; a staff notice is custom (actionType 4)', async () => {
    const customer = await newCustomer(server, 'worded');
    await decidedDeposit(customer, '1500', 'approve');
    await decidedDeposit(customer, '1200.5', 'reject');
    expect((await staffCall(server, '/v1/staff/notices/send', { uid: customer.uid, title: 'Hello', content: 'Welcome aboard.' }, support.token)).code).toBe(0);
    const { list: notices } = await list(customer.token);
    expect(notices).toMatchObject([
      { actionType: 4, alarmType: null, title: 'Hello', paymentPrice: null, params: null, readStatus: 0 },
      { actionType: 1, alarmType: NoticeCode.depositRejected, paymentPrice: '1200.50', remark: 'no transfer found', params: { currency: 'USDT' } },
      { actionType: 1, alarmType: NoticeCode.newMessage, paymentPrice: '1500.00', remark: null, params: { currency: 'USDT', event: 'depositApproved' } },
    ]);
  });

  it('pages by 10, newest first; reading marks only the caller\'s own ids and the unread count follows', async () => {
    const customer = await newCustomer(server, 'paged');
    const other = await newCustomer(server, 'other');
    for (let index = 1; index <= 12; index += 1) {
      expect((await staffCall(server, '/v1/staff/notices/send', { uid: customer.uid, title: `Notice ${index}`, content: '…' }, support.token)).code).toBe(0);
    }
    expect((await staffCall(server, '/v1/staff/notices/send', { uid: other.uid, title: 'Theirs', content: '…' }, support.token)).code).toBe(0);
    const first = await list(customer.token, 1);
    const second = await list(customer.token, 2);
    expect(first.pages).toBe(2);
    expect(first.list.map((notice) => notice.title)).toEqual(['Notice 12', 'Notice 11', 'Notice 10', 'Notice 9', 'Notice 8', 'Notice 7', 'Notice 6', 'Notice 5', 'Notice 4', 'Notice 3']);
    expect(second.list.map((notice) => notice.title)).toEqual(['Notice 2', 'Notice 1']);
    expect((await call(server, '/v1/waa/notice/unreadCount', {}, customer.token)).data).toEqual({ count: 12 });

    const theirs = (await list(other.token)).list[0]!;
    const read = await call(server, '/v1/waa/notice/read', { ids: [first.list[0]!.id, second.list[1]!.id, theirs.id] }, customer.token);
    expect(read.code).toBe(0);
    expect((await call(server, '/v1/waa/notice/unreadCount', {}, customer.token)).data).toEqual({ count: 10 });
    expect((await call(server, '/v1/waa/notice/unreadCount', {}, other.token)).data).toEqual({ count: 1 });
    expect((await list(customer.token)).list[0]).toMatchObject({ title: 'Notice 12', readStatus: 1 });
    // Reading again (a replay, or two tabs at once) changes nothing more.
    const again = await Promise.all([1, 2].map(() => call(server, '/v1/waa/notice/read', { ids: [first.list[0]!.id] }, customer.token)));
    expect(again.map((answer) => answer.code)).toEqual([0, 0]);
    expect((await call(server, '/v1/waa/notice/unreadCount', {}, customer.token)).data).toEqual({ count: 10 });
    // Bad input changes nothing.
    expect((await call(server, '/v1/waa/notice/read', { ids: [] }, customer.token)).code).toBe(1001);
    expect((await call(server, '/v1/waa/notice/list', { page: 0 }, customer.token)).code).toBe(1001);
  });
});
