import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedger, type Ledger } from '../../server/modules/ledger/ledger';
import { HouseAccountKind } from '../../server/modules/ledger/ledger-kinds';
import { reconcileBooks } from '../../server/modules/ledger/reconciliation';
import { ErrorCode } from '../../src/shared/errors/catalogue';
import { formatMoney, money } from '../../src/shared/money/money';
import { post, startTestServer, testBackends, type TestServer } from './harness';
import { call, loginByEmail, registerByEmail } from './identity-support';
import { decide, decided, newCustomer } from './reviews-support';
import { createStaffAndSignIn } from './support/staff';

type Customer = Awaited<ReturnType<typeof newCustomer>>;
type Staff = Awaited<ReturnType<typeof createStaffAndSignIn>>;
interface Envelope {
  code: number;
  msg: string;
  data: unknown;
}
interface Loan {
  id: number;
  uid: number;
  amount: string;
  amountOwed: string;
  days: number;
  guarantor: number;
  status: number;
  repaymentDate: number | null;
  rejectReason: string | null;
}
interface Repayment {
  id: number;
  amount: string;
  amountOwed: string;
  status: number;
}

async function moneyCall(server: TestServer, path: string, body: unknown, token: string, idempotencyKey: string | null = crypto.randomUUID()): Promise<Envelope> {
  const response = await post(server.app, path, body, { authorization: `Bearer ${token}`, ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) });
  return response.json() as Envelope;
}

describe.each(testBackends())('loans on $name', (backend) => {
  let server: TestServer;
  let ledger: Ledger;
  let financeA: Staff;
  let financeB: Staff;
  let guarantor: Customer;

  const request = (who: Customer, body: Record<string, unknown>, key?: string) =>
    moneyCall(server, '/v1/waa/loan/insert', { amount: 50000, days: 7, guarantor: guarantor.uid, remark: '', ...body }, who.token, key);
  const check = async (who: Customer) => {
    const answer = await call(server, '/v1/waa/loan/check', {}, who.token);
    expect(answer.code, answer.msg).toBe(0);
    return (answer.data as { dto: Loan | null }).dto;
  };
  const repay = (who: Customer, loan: Loan, amount: number, key?: string) => moneyCall(server, '/v1/waa/loan/repayment/insert', { loanId: loan.id, loanUid: loan.uid, amount }, who.token, key);
  const repayments = async (who: Customer, loan: Loan) => {
    const answer = await call(server, '/v1/waa/loan/repayment/get', { loanId: loan.id, loanUid: loan.uid }, who.token);
    expect(answer.code, answer.msg).toBe(0);
    return (answer.data as { dtoList: Repayment[] }).dtoList;
  };
  const cashOf = async (uid: number) => formatMoney(await ledger.cashBalance(uid, 'real'));
  const houseLoans = async () => formatMoney(await ledger.balance({ owner: null, book: 'real', kind: HouseAccountKind.loans }));
  const reviewOf = async (kind: 'loan' | 'repayment', subject: number) =>
    (await server.database.db.selectFrom('review_item').select(['id', 'status']).where('kind', '=', kind).where('subject_ref', '=', String(subject)).executeTakeFirstOrThrow());
  const books = async () => [...(await ledger.check()), ...(await reconcileBooks(server.database.db))];
  /** Cash leaves the customer's trading account (as a withdrawal would), so that it no longer covers a repayment. */
  const spendCash = (on: TestServer, uid: number, amount: string) =>
    on.database.db.transaction().execute(async (trx) => {
      const books = createLedger(on.database.db);
      await books.lockCash(trx, uid, 'real');
      await books.postInTransaction(trx, {
        idempotencyKey: `test-spend:${crypto.randomUUID()}`,
        book: 'real',
        kind: 'deposit',
        uid,
        postings: [
          { account: { owner: uid, book: 'real', kind: 'cash' }, amount: -money(amount) },
          { account: { owner: null, book: 'real', kind: 'deposits' }, amount: money(amount) },
        ],
      });
    });
  const fundCash = (uid: number, amount: string) => ledger.creditDeposit({ uid, amount: money(amount), idempotencyKey: `test-loan-cash:${crypto.randomUUID()}` });

  /** A customer with an approved loan of `amount` (two finance approvals). */
  async function borrower(amount = 50000) {
    const who = await newCustomer(server, 'borrower');
    expect((await request(who, { amount })).code).toBe(0);
    const loan = (await check(who))!;
    const review = await reviewOf('loan', loan.id);
    await decided(server, financeA.token, { kind: 'loan', id: review.id, decision: 'approve' }, 'awaiting_second');
    await decided(server, financeB.token, { kind: 'loan', id: review.id, decision: 'approve' }, 'approved');
    return { who, loan: (await check(who))! };
  }

  beforeAll(async () => {
    server = await startTestServer(backend, { CODES_SENT_PER_10_MIN: '500', CODE_CHECKS_PER_10_MIN: '500', SWITCHES: 'user/loan=1' });
    ledger = createLedger(server.database.db);
    financeA = await createStaffAndSignIn(server, { roles: ['finance'] });
    financeB = await createStaffAndSignIn(server, { roles: ['finance'] });
    guarantor = await newCustomer(server, 'guarantor');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers no loan at first and refuses bad requests with their codes, changing nothing', async () => {
    const who = await newCustomer(server, 'asker');
    expect(await check(who)).toBeNull();
    const refusals: [Record<string, unknown>, number, string | null][] = [
      [{ guarantor: '' }, ErrorCode.INCORRECT_PARAMETER_CONTENT, 'Please enter the guarantor'],
      [{ guarantor: who.uid }, ErrorCode.LOAN_GUARANTOR_INVALID, null],
      [{ guarantor: 99999999 }, ErrorCode.LOAN_GUARANTOR_INVALID, null],
      [{ guarantor: 'abc' }, ErrorCode.LOAN_GUARANTOR_INVALID, null],
      [{ amount: 40000 }, ErrorCode.INCORRECT_PARAMETER_CONTENT, null],
      [{ amount: 55000 }, ErrorCode.INCORRECT_PARAMETER_CONTENT, null],
      [{ amount: 1010000 }, ErrorCode.INCORRECT_PARAMETER_CONTENT, null],
      [{ days: 6 }, ErrorCode.INCORRECT_PARAMETER_CONTENT, null],
      [{ days: 31 }, ErrorCode.INCORRECT_PARAMETER_CONTENT, null],
      [{ amount: 50000.5 }, ErrorCode.INCORRECT_PARAMETER_CONTENT, null],
    ];
    for (const [body, code, message] of refusals) {
      const answer = await request(who, body);
      expect(answer.code, JSON.stringify(body)).toBe(code);
      if (message) expect(answer.msg).toContain(message);
    }
    // Without an Idempotency-Key a money call is refused before anything else.
    expect((await request(who, {}, '')).code).not.toBe(0);
    expect(await check(who)).toBeNull();
    // The edges of the sliders are accepted: 1,000,000 for 30 days.
    expect((await request(who, { amount: 1000000, days: 30, remark: 'shop stock' })).code).toBe(0);
    const loan = await check(who);
    expect(loan).toMatchObject({ amount: '1000000.00', amountOwed: '1000000.00', days: 30, guarantor: guarantor.uid, status: 0, repaymentDate: null });
  });

  it('keeps one open request at a time, a replayed key records once, and parallel requests make one', async () => {
    const who = await newCustomer(server, 'single');
    const key = crypto.randomUUID();
    expect((await request(who, {}, key)).code).toBe(0);
    expect((await request(who, {}, key)).code).toBe(0);
    expect((await request(who, { amount: 60000 })).code).toBe(ErrorCode.LOAN_ALREADY_OPEN);
    const rows = await server.database.db.selectFrom('loan').select('id').where('uid', '=', who.uid).execute();
    expect(rows).toHaveLength(1);
    expect(await server.database.db.selectFrom('review_item').select('id').where('kind', '=', 'loan').where('uid', '=', who.uid).execute()).toHaveLength(1);

    const racer = await newCustomer(server, 'racer');
    const answers = await Promise.all([request(racer, {}), request(racer, { amount: 70000 }), request(racer, { amount: 80000 })]);
    expect(answers.filter((answer) => answer.code === 0)).toHaveLength(1);
    expect(answers.filter((answer) => answer.code !== 0).every((answer) => answer.code === ErrorCode.LOAN_ALREADY_OPEN)).toBe(true);
    expect(await server.database.db.selectFrom('loan').select('id').where('uid', '=', racer.uid).execute()).toHaveLength(1);
  });

  it('needs two different finance approvers, then credits the trading cash once as a loan', async () => {
    const who = await newCustomer(server, 'fourEyes');
    const houseBefore = money(await houseLoans());
    expect((await request(who, { amount: 120000, days: 15 })).code).toBe(0);
    const loan = (await check(who))!;
    const review = await reviewOf('loan', loan.id);
    await decided(server, financeA.token, { kind: 'loan', id: review.id, decision: 'approve' }, 'awaiting_second');
    // One approval: still waiting, nothing credited.
    expect((await check(who))!.status).toBe(0);
    expect(await cashOf(who.uid)).toBe('0.00');
    // The same member cannot give the second approval.
    expect((await decide(server, financeA.token, { kind: 'loan', id: review.id, decision: 'approve' })).code).toBe(ErrorCode.REVIEW_SAME_APPROVER);
    expect(await cashOf(who.uid)).toBe('0.00');
    await decided(server, financeB.token, { kind: 'loan', id: review.id, decision: 'approve' }, 'approved');
    const active = (await check(who))!;
    expect(active).toMatchObject({ status: 1, amountOwed: '120000.00' });
    expect(active.repaymentDate! - Date.now()).toBeGreaterThan(14 * 86_400_000);
    expect(await cashOf(who.uid)).toBe('120000.00');
    expect(money(await houseLoans())).toBe(houseBefore - money('120000'));
    // Told as a coded "new message" the app words by its event, with the amount.
    const notices = (await call(server, '/v1/waa/notice/list', { page: 1 }, who.token)).data as { list: { alarmType: number | null; paymentPrice: string | null; params: Record<string, string> | null }[] };
    expect(notices.list[0]).toMatchObject({ alarmType: 629012, paymentPrice: '120000.00', params: { currency: 'USD', event: 'loanApproved' } });
    // Decided items stay decided: nothing more is credited.
    expect((await decide(server, financeA.token, { kind: 'loan', id: review.id, decision: 'approve' })).code).toBe(ErrorCode.REVIEW_ALREADY_DECIDED);
    expect(await cashOf(who.uid)).toBe('120000.00');
    // An active loan blocks a new request.
    expect((await request(who, {})).code).toBe(ErrorCode.LOAN_ALREADY_OPEN);
    expect(await books()).toEqual([]);
  });

  it('credits once when the two second approvals race', async () => {
    const who = await newCustomer(server, 'raceApprove');
    const financeC = await createStaffAndSignIn(server, { roles: ['finance'] });
    expect((await request(who, {})).code).toBe(0);
    const loan = (await check(who))!;
    const review = await reviewOf('loan', loan.id);
    await decided(server, financeA.token, { kind: 'loan', id: review.id, decision: 'approve' }, 'awaiting_second');
    const answers = await Promise.all([
      decide(server, financeB.token, { kind: 'loan', id: review.id, decision: 'approve' }),
      decide(server, financeC.token, { kind: 'loan', id: review.id, decision: 'approve' }),
    ]);
    expect(answers.map((answer) => answer.code).sort()).toEqual([0, ErrorCode.REVIEW_ALREADY_DECIDED]);
    expect(await cashOf(who.uid)).toBe('50000.00');
    const journals = await server.database.db.selectFrom('ledger_journal').select('id').where('kind', '=', 'loan-disbursement').where('uid', '=', who.uid).execute();
    expect(journals).toHaveLength(1);
    expect(await books()).toEqual([]);
  });

  it('a rejected loan sends notice 629021 with the reason and allows a new request', async () => {
    const who = await newCustomer(server, 'rejected');
    expect((await request(who, {})).code).toBe(0);
    const loan = (await check(who))!;
    const review = await reviewOf('loan', loan.id);
    expect((await decide(server, financeA.token, { kind: 'loan', id: review.id, decision: 'reject' })).code).toBe(ErrorCode.REVIEW_REASON_REQUIRED);
    await decided(server, financeA.token, { kind: 'loan', id: review.id, decision: 'reject', reason: 'guarantor unknown to us' }, 'rejected');
    expect(await check(who)).toMatchObject({ status: 2, rejectReason: 'guarantor unknown to us' });
    expect(await cashOf(who.uid)).toBe('0.00');
    const notices = (await call(server, '/v1/waa/notice/list', { page: 1 }, who.token)).data as { list: { alarmType: number | null; content: string; remark: string | null }[] };
    const notice = notices.list.find((item) => item.alarmType === 629021);
    expect(notice?.content).toContain('guarantor unknown to us');
    expect(notice?.remark).toBe('guarantor unknown to us');
    expect((await request(who, { amount: 60000 })).code).toBe(0);
    expect((await check(who))!.status).toBe(0);
  });

  it('repays in part and in full through finance, the debt and the cash moving together, the books clean', async () => {
    const { who, loan } = await borrower(50000);
    expect(await repayments(who, loan)).toEqual([]);
    expect((await repay(who, loan, 0)).code).toBe(ErrorCode.INCORRECT_PARAMETER_CONTENT);
    expect((await repay(who, loan, 0)).msg).toContain('The repayment amount cannot be 0');
    expect((await repay(who, loan, 150)).code).toBe(ErrorCode.INCORRECT_PARAMETER_CONTENT);
    expect((await repay(who, loan, 50100)).code).toBe(ErrorCode.REPAYMENT_ABOVE_OWED);
    expect(await repayments(who, loan)).toEqual([]);

    expect((await repay(who, loan, 20000)).code).toBe(0);
    // One waiting repayment at a time.
    expect((await repay(who, loan, 100)).code).toBe(ErrorCode.REPAYMENT_WAITING);
    let list = await repayments(who, loan);
    expect(list).toMatchObject([{ amount: '20000.00', amountOwed: '30000.00', status: 0 }]);
    // Waiting: the cash is untouched until finance approves.
    expect(await cashOf(who.uid)).toBe('50000.00');
    const first = await reviewOf('repayment', list[0]!.id);
    await decided(server, financeA.token, { kind: 'repayment', id: first.id, decision: 'approve' }, 'approved');
    expect(await cashOf(who.uid)).toBe('30000.00');
    expect(await check(who)).toMatchObject({ status: 1, amountOwed: '30000.00' });
    list = await repayments(who, loan);
    expect(list[0]).toMatchObject({ status: 1, amountOwed: '30000.00' });
    // The ledger and the books agree after a loan and a partial repayment.
    expect(await books()).toEqual([]);

    // The rest: the loan ends (100) and the house's loans account is back where it was for it.
    expect((await repay(who, loan, 30000)).code).toBe(0);
    const last = await reviewOf('repayment', (await repayments(who, loan))[0]!.id);
    await decided(server, financeA.token, { kind: 'repayment', id: last.id, decision: 'approve' }, 'approved');
    expect(await check(who)).toMatchObject({ status: 100, amountOwed: '0.00' });
    expect(await cashOf(who.uid)).toBe('0.00');
    expect((await repay(who, loan, 100)).code).toBe(ErrorCode.LOAN_NOT_ACTIVE);
    expect(await books()).toEqual([]);
    // An ended loan allows a new request.
    expect((await request(who, {})).code).toBe(0);
  });

  it('refuses an approval the cash no longer covers, debiting nothing (no negative balance)', async () => {
    const { who, loan } = await borrower(50000);
    expect((await repay(who, loan, 40000)).code).toBe(0);
    const item = await reviewOf('repayment', (await repayments(who, loan))[0]!.id);
    // The customer's cash is spent meanwhile (45,000 leave it).
    await spendCash(server, who.uid, '45000');
    expect(await cashOf(who.uid)).toBe('5000.00');
    expect((await decide(server, financeA.token, { kind: 'repayment', id: item.id, decision: 'approve' })).code).toBe(ErrorCode.INSUFFICIENT_BALANCE);
    expect(await cashOf(who.uid)).toBe('5000.00');
    expect(await check(who)).toMatchObject({ status: 1, amountOwed: '50000.00' });
    expect((await repayments(who, loan))[0]!.status).toBe(0);
    await decided(server, financeA.token, { kind: 'repayment', id: item.id, decision: 'reject', reason: 'not covered' }, 'rejected');
    expect(await ledger.check()).toEqual([]);
  });

  it('allows no repayment after a rejected one (the specification: p_loan_repayment_reject), changing no money', async () => {
    const { who, loan } = await borrower(50000);
    expect((await repay(who, loan, 10000)).code).toBe(0);
    const item = await reviewOf('repayment', (await repayments(who, loan))[0]!.id);
    await decided(server, financeB.token, { kind: 'repayment', id: item.id, decision: 'reject', reason: 'wrong amount' }, 'rejected');
    expect((await repayments(who, loan))[0]).toMatchObject({ status: 2, amount: '10000.00' });
    expect(await cashOf(who.uid)).toBe('50000.00');
    expect(await check(who)).toMatchObject({ status: 1, amountOwed: '50000.00' });
    const answer = await call(server, '/v1/waa/loan/repayment/get', { loanId: loan.id, loanUid: loan.uid }, who.token);
    expect((answer.data as { repayAfterRejection: boolean }).repayAfterRejection).toBe(false);
    expect(await repay(who, loan, 10000)).toMatchObject({ code: ErrorCode.INCORRECT_PARAMETER_CONTENT, msg: 'Your last repayment was rejected (1001)' });
    expect(await repayments(who, loan)).toHaveLength(1);
    expect(await books()).toEqual([]);
  });

  it('a replayed repayment key records one repayment; an overdue loan reads as status 4 and can still be repaid', async () => {
    const { who, loan } = await borrower(50000);
    const key = crypto.randomUUID();
    expect((await repay(who, loan, 5000, key)).code).toBe(0);
    expect((await repay(who, loan, 5000, key)).code).toBe(0);
    // The key is bound to its first request: another amount under it is refused (1016), not answered with the first.
    expect((await repay(who, loan, 6000, key)).code).toBe(ErrorCode.INCORRECT_PARAMETER_VALUE);
    expect(await repayments(who, loan)).toHaveLength(1);
    // The key is the call's: the same key on the loan request is refused, not answered with this one.
    expect((await request(who, {}, key)).code).toBe(ErrorCode.INCORRECT_PARAMETER_VALUE);
    const item = await reviewOf('repayment', (await repayments(who, loan))[0]!.id);
    await decided(server, financeA.token, { kind: 'repayment', id: item.id, decision: 'approve' }, 'approved');
    expect(await cashOf(who.uid)).toBe('45000.00');

    // Past its repayment date the loan reads as overdue (4): still active, still repayable.
    await server.database.db.updateTable('loan').set({ repayment_date: new Date(Date.now() - 60_000) }).where('id', '=', loan.id).execute();
    expect(await check(who)).toMatchObject({ status: 4, amountOwed: '45000.00' });
    expect((await repay(who, loan, 45000)).code).toBe(0);
    const last = await reviewOf('repayment', (await repayments(who, loan))[0]!.id);
    await decided(server, financeB.token, { kind: 'repayment', id: last.id, decision: 'approve' }, 'approved');
    expect(await check(who)).toMatchObject({ status: 100, amountOwed: '0.00' });
    expect(await books()).toEqual([]);
  });

  it('two parallel repayments when only one fits: one is recorded', async () => {
    const { who, loan } = await borrower(50000);
    await fundCash(who.uid, '1000');
    const answers = await Promise.all([repay(who, loan, 30000), repay(who, loan, 40000)]);
    expect(answers.filter((answer) => answer.code === 0)).toHaveLength(1);
    expect(answers.find((answer) => answer.code !== 0)?.code).toBe(ErrorCode.REPAYMENT_WAITING);
    const list = await repayments(who, loan);
    expect(list).toHaveLength(1);
    const item = await reviewOf('repayment', list[0]!.id);
    await decided(server, financeB.token, { kind: 'repayment', id: item.id, decision: 'approve' }, 'approved');
    const left = (await check(who))!;
    expect(money(left.amountOwed)).toBe(money('50000') - money(list[0]!.amount));
    expect(await books()).toEqual([]);
  });

  it('only the owner sees or repays a loan; the switch off refuses every call', async () => {
    const { who, loan } = await borrower(50000);
    const stranger = await newCustomer(server, 'stranger');
    expect((await call(server, '/v1/waa/loan/repayment/get', { loanId: loan.id, loanUid: loan.uid }, stranger.token)).code).toBe(ErrorCode.LOAN_NOT_ACTIVE);
    expect((await call(server, '/v1/waa/loan/repayment/get', { loanId: loan.id, loanUid: stranger.uid }, stranger.token)).code).toBe(ErrorCode.LOAN_NOT_ACTIVE);
    expect((await repay(stranger, loan, 100)).code).toBe(ErrorCode.LOAN_NOT_ACTIVE);
    expect((await repay(stranger, { ...loan, uid: stranger.uid }, 100)).code).toBe(ErrorCode.LOAN_NOT_ACTIVE);
    expect(await repayments(who, loan)).toEqual([]);

    const off = await startTestServer(backend, { SWITCHES: 'user/loan=0' });
    try {
      const email = `loanoff${Date.now().toString(36)}@example.com`;
      await registerByEmail(off, email);
      const session = await loginByEmail(off, email);
      expect((await call(off, '/v1/waa/loan/check', {}, session.token)).code).toBe(ErrorCode.LOAN_UNAVAILABLE);
      const answer = await post(off.app, '/v1/waa/loan/insert', { amount: 50000, days: 7, guarantor: 1, remark: '' }, { authorization: `Bearer ${session.token}`, 'idempotency-key': crypto.randomUUID() });
      expect((answer.json() as Envelope).code).toBe(ErrorCode.LOAN_UNAVAILABLE);
    } finally {
      await off.close();
    }
  });

  it('under LOAN_REPAY_AFTER_REJECTION a rejected repayment may be tried again, and one the cash does not cover is refused at once', async () => {
    const lenient = await startTestServer(backend, { CODES_SENT_PER_10_MIN: '500', CODE_CHECKS_PER_10_MIN: '500', SWITCHES: 'user/loan=1', LOAN_REPAY_AFTER_REJECTION: '1' });
    const saved = server;
    server = lenient;
    try {
      const approvers = [await createStaffAndSignIn(lenient, { roles: ['finance'] }), await createStaffAndSignIn(lenient, { roles: ['finance'] })];
      const who = await newCustomer(lenient, 'lenient');
      const surety = await newCustomer(lenient, 'surety');
      expect((await moneyCall(lenient, '/v1/waa/loan/insert', { amount: 50000, days: 7, guarantor: surety.uid, remark: '' }, who.token)).code).toBe(0);
      const loan = (await check(who))!;
      const review = await reviewOf('loan', loan.id);
      await decided(lenient, approvers[0]!.token, { kind: 'loan', id: review.id, decision: 'approve' }, 'awaiting_second');
      await decided(lenient, approvers[1]!.token, { kind: 'loan', id: review.id, decision: 'approve' }, 'approved');
      expect((await repay(who, loan, 10000)).code).toBe(0);
      const item = await reviewOf('repayment', (await repayments(who, loan))[0]!.id);
      await decided(lenient, approvers[0]!.token, { kind: 'repayment', id: item.id, decision: 'reject', reason: 'wrong amount' }, 'rejected');
      const answer = await call(lenient, '/v1/waa/loan/repayment/get', { loanId: loan.id, loanUid: loan.uid }, who.token);
      expect((answer.data as { repayAfterRejection: boolean }).repayAfterRejection).toBe(true);
      await spendCash(lenient, who.uid, '45000');
      expect((await repay(who, loan, 6000)).code).toBe(ErrorCode.INSUFFICIENT_BALANCE);
      expect((await repay(who, loan, 5000)).code).toBe(0);
      expect(await repayments(who, loan)).toMatchObject([{ status: 0, amount: '5000.00' }, { status: 2 }]);
    } finally {
      server = saved;
      await lenient.close();
    }
  });
});
