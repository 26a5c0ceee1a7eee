import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FundRecord } from '../../src/shared/api/deposit';
import { createLedger, type Ledger } from '../../server/modules/ledger/ledger';
import { encodeField } from '../../src/shared/money/encoded-field';
import { startTestServer, testBackends, type TestServer } from './harness';
import { call } from './identity-support';
import { decided } from './reviews-support';
import { creditWallet, keyedCall, moneyCustomer, saveAddress, usdtTrc20Of, verifyJunior, type CoinNetwork, type MoneyCustomer as Customer } from './support/money-controls';
import { createStaffAndSignIn } from './support/staff';
import { jpegImage, multipartBody, multipartCall } from './uploads-support';

type Staff = Awaited<ReturnType<typeof createStaffAndSignIn>>;
interface Records {
  list: FundRecord[];
  pages: number;
}

const address = 'TAzNLU555pAZSmv5NiusS4AihvBgpMwbKY';

describe.each(testBackends())('deposit and withdraw records on $name', (backend) => {
  let server: TestServer;
  let ledger: Ledger;
  let finance: Staff;
  let usdtTrc20: CoinNetwork;
  let proof: Buffer;

  const customer = (): Promise<Customer> => moneyCustomer(server, 'records');
  const fund = (uid: number, amount: string) => creditWallet(server, ledger, uid, amount);
  const deposit = async (who: Customer, amt: string) => {
    const body = multipartBody(
      { metaData: JSON.stringify({ coinId: usdtTrc20.id, said: usdtTrc20.said, locale: 'en', amt }) },
      [{ field: 'depositProof', filename: 'transfer.jpg', bytes: proof, type: 'image/jpeg' }],
    );
    const answer = await multipartCall(server, '/v1/waa/deposit/submit', body, who.token, crypto.randomUUID());
    expect(answer.code, answer.msg).toBe(0);
  };
  const withdraw = async (who: Customer, num: string, practicalNum: string) => {
    const payload = { num, practicalNum, currencyId: usdtTrc20.currencyId, coinId: usdtTrc20.id, paymentAddress: encodeField(address, who.aesKey), locale: 'en' };
    const answer = await keyedCall(server, '/v1/waa/withdraw/submit', payload, who.token);
    expect(answer.code, answer.msg).toBe(0);
  };
  const records = async (who: Customer, body: Record<string, unknown> = {}): Promise<Records> => {
    const answer = await call(server, '/v1/waa/fund/records', body, who.token);
    expect(answer.code, answer.msg).toBe(0);
    return answer.data as Records;
  };
  const reviewIdOf = async (kind: 'deposit' | 'withdrawal', table: 'deposit' | 'withdrawal', uid: number, nth: number) => {
    const rows = await server.database.db
      .selectFrom(table)
      .innerJoin('review_item', (join) => join.on('review_item.kind', '=', kind).onRef('review_item.subject_ref', '=', (eb) => eb.cast(`${table}.id`, 'text')))
      .select(['review_item.id as reviewId', `${table}.id as subjectId`])
      .where(`${table}.uid`, '=', uid)
      .orderBy(`${table}.id`)
      .execute();
    return rows[nth]!;
  };

  let who: Customer;

  beforeAll(async () => {
    // No cooling-off after saving the address (tests/api/money-controls.test.ts has it).
    server = await startTestServer(backend, { FOUR_EYES_USD: '100000', CODES_SENT_PER_10_MIN: '500', CODE_CHECKS_PER_10_MIN: '500', WITHDRAWAL_HOLD_SECONDS: '0' });
    ledger = createLedger(server.database.db);
    finance = await createStaffAndSignIn(server, { roles: ['finance'] });
    const compliance = await createStaffAndSignIn(server, { roles: ['compliance'] });
    proof = await jpegImage();
    who = await customer();
    usdtTrc20 = await usdtTrc20Of(server, who.token);
    await fund(who.uid, '1000');
    // A withdrawal needs junior verification and a saved address.
    await verifyJunior(server, who, compliance.token);
    expect((await saveAddress(server, who, usdtTrc20.id, address)).code).toBe(0);
    // Twelve records, deposits and withdrawals interleaved in this order: D1 W1 D2 W2 D3 W3 D4 W4 D5 W5 D6 D7.
    // One withdrawal is under review at a time, so each is decided before the next: W1 rejected with a reason,
    // W2 approved (paid), W3 canceled by the customer, W4 rejected, W5 left waiting.
    const decideWithdrawal: ((nth: number) => Promise<void>)[] = [
      async (nth) => decided(server, finance.token, { kind: 'withdrawal', id: (await reviewIdOf('withdrawal', 'withdrawal', who.uid, nth)).reviewId, decision: 'reject', reason: 'address on a sanctions list' }, 'rejected'),
      async (nth) => decided(server, finance.token, { kind: 'withdrawal', id: (await reviewIdOf('withdrawal', 'withdrawal', who.uid, nth)).reviewId, decision: 'approve' }, 'approved'),
      async (nth) => {
        const third = await reviewIdOf('withdrawal', 'withdrawal', who.uid, nth);
        expect((await call(server, '/v1/waa/withdraw/cancel', { id: third.subjectId }, who.token)).code).toBe(0);
      },
      async (nth) => decided(server, finance.token, { kind: 'withdrawal', id: (await reviewIdOf('withdrawal', 'withdrawal', who.uid, nth)).reviewId, decision: 'reject', reason: 'second look' }, 'rejected'),
      async () => undefined,
    ];
    for (let index = 1; index <= 5; index += 1) {
      await deposit(who, `${1000 + index}`);
      await withdraw(who, `${100 + index}`, `${99 + index}`);
      await decideWithdrawal[index - 1]!(index - 1);
    }
    await deposit(who, '1006');
    await deposit(who, '1007');
    // D1 rejected with a reason, D2 approved.
    await decided(server, finance.token, { kind: 'deposit', id: (await reviewIdOf('deposit', 'deposit', who.uid, 0)).reviewId, decision: 'reject', reason: 'proof unreadable' }, 'rejected');
    await decided(server, finance.token, { kind: 'deposit', id: (await reviewIdOf('deposit', 'deposit', who.uid, 1)).reviewId, decision: 'approve' }, 'approved');
  });
  afterAll(async () => {
    await server?.close();
  });

  const amountsOf = (list: FundRecord[]) => list.map((record) => `${record.actionType === 0 ? 'D' : 'W'}${record.payPrice}`);

  it('lists deposits and withdrawals together, newest first, paged by 10 with nothing repeated or missing', async () => {
    const first = await records(who);
    const second = await records(who, { pageNum: 2 });
    expect(first.pages).toBe(2);
    expect(second.pages).toBe(2);
    expect(first.list).toHaveLength(10);
    expect(amountsOf([...first.list, ...second.list])).toEqual([
      'D1007.00', 'D1006.00', 'W105.00', 'D1005.00', 'W104.00', 'D1004.00', 'W103.00', 'D1003.00', 'W102.00', 'D1002.00',
      'W101.00', 'D1001.00',
    ]);
    expect((await records(who, { pageNum: 3 })).list).toEqual([]);
    // Another page size pages the same order.
    const fives = [await records(who, { pageSize: 5 }), await records(who, { pageNum: 2, pageSize: 5 }), await records(who, { pageNum: 3, pageSize: 5 })];
    expect(fives.map((page) => page.pages)).toEqual([3, 3, 3]);
    expect(fives.flatMap((page) => page.list).map((record) => record.id)).toEqual([...first.list, ...second.list].map((record) => record.id));
  });

  it('shows each record with its type, status, amounts, fee, masked destination and failure reason', async () => {
    const all = [...(await records(who)).list, ...(await records(who, { pageNum: 2 })).list];
    const byAmount = (text: string) => all.find((record) => `${record.actionType === 0 ? 'D' : 'W'}${record.payPrice}` === text)!;
    expect(byAmount('D1001.00')).toMatchObject({ actionType: 0, currency: 'USDT', network: 'TRC20', payState: 2, failReason: 'proof unreadable', canceled: false, fee: null, destination: null, withdrawUsdPrice: null });
    expect(byAmount('D1002.00')).toMatchObject({ actionType: 0, payState: 1, failReason: null });
    expect(byAmount('D1002.00').decidedTimeTs).not.toBeNull();
    expect(byAmount('D1003.00')).toMatchObject({ payState: 0, decidedTimeTs: null });
    expect(byAmount('W101.00')).toMatchObject({
      actionType: 1,
      currency: 'USDT',
      network: 'TRC20',
      payState: 2,
      failReason: 'address on a sanctions list',
      canceled: false,
      fee: '1.00',
      practical: '100.00',
      depositUsdPrice: null,
      destination: 'TAzNLU****wbKY',
    });
    expect(byAmount('W102.00')).toMatchObject({ actionType: 1, payState: 1, failReason: null, canceled: false, practical: '101.00' });
    expect(byAmount('W103.00')).toMatchObject({ actionType: 1, payState: 2, failReason: null, canceled: true });
    expect(byAmount('W104.00')).toMatchObject({ actionType: 1, payState: 2, failReason: 'second look', canceled: false });
    expect(byAmount('W105.00')).toMatchObject({ actionType: 1, payState: 0, decidedTimeTs: null });
    // The whole address is never in the answer.
    expect(JSON.stringify(all)).not.toContain(address);
  });

  it('filters by type and by status, each alone and together, paging what is left', async () => {
    const deposits = await records(who, { type: 0 });
    expect(amountsOf(deposits.list)).toEqual(['D1007.00', 'D1006.00', 'D1005.00', 'D1004.00', 'D1003.00', 'D1002.00', 'D1001.00']);
    expect(deposits.pages).toBe(1);
    const withdrawals = await records(who, { type: 1 });
    expect(amountsOf(withdrawals.list)).toEqual(['W105.00', 'W104.00', 'W103.00', 'W102.00', 'W101.00']);
    const failed = await records(who, { status: 2 });
    expect(amountsOf(failed.list)).toEqual(['W104.00', 'W103.00', 'W101.00', 'D1001.00']);
    expect(amountsOf((await records(who, { status: 1 })).list)).toEqual(['W102.00', 'D1002.00']);
    const waiting = await records(who, { status: 0 });
    expect(amountsOf(waiting.list)).toEqual(['D1007.00', 'D1006.00', 'W105.00', 'D1005.00', 'D1004.00', 'D1003.00']);
    expect(amountsOf((await records(who, { type: 1, status: 0 })).list)).toEqual(['W105.00']);
    expect(amountsOf((await records(who, { type: 0, status: 2 })).list)).toEqual(['D1001.00']);
    const waitingPaged = await records(who, { status: 0, pageSize: 4, pageNum: 2 });
    expect(waitingPaged).toMatchObject({ pages: 2 });
    expect(amountsOf(waitingPaged.list)).toEqual(['D1004.00', 'D1003.00']);
  });

  it('shows another customer none of these records', async () => {
    const stranger = await customer();
    expect(await records(stranger)).toEqual({ list: [], pages: 0 });
  });
});
