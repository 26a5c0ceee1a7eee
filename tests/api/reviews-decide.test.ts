import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/shared/errors/catalogue';
import { money } from '../../src/shared/money/money';
import { createLedger, type Ledger } from '../../server/modules/ledger/ledger';
import { reconcileBooks } from '../../server/modules/ledger/reconciliation';
import { startTestServer, testBackends, type TestServer } from './harness';
import { createStaffAndSignIn } from './support/staff';
import {
  auditRowsOf,
  decide,
  decided,
  decisionRows,
  itemStatus,
  newCustomer,
  newRequestId,
  registerTestKinds,
  submitReview,
  type EffectRun,
} from './reviews-support';

type Staff = Awaited<ReturnType<typeof createStaffAndSignIn>>;

describe.each(testBackends())('review decisions on $name', (backend) => {
  let server: TestServer;
  let ledger: Ledger;
  let runs: EffectRun[];
  let financeA: Staff;
  let financeB: Staff;
  let customer: { uid: number };
  const runsOf = (id: number) => runs.filter((run) => run.id === id);
  const realCash = (uid: number) => ledger.cashBalance(uid, 'real');

  beforeAll(async () => {
    server = await startTestServer(backend, { FOUR_EYES_USD: '1000', CODES_SENT_PER_10_MIN: '500', CODE_CHECKS_PER_10_MIN: '500' });
    ledger = createLedger(server.database.db);
    runs = registerTestKinds(server, ledger, ['repayment', 'withdrawal', 'loan', 'identity']);
    financeA = await createStaffAndSignIn(server, { roles: ['finance'] });
    financeB = await createStaffAndSignIn(server, { roles: ['finance'] });
    customer = await newCustomer(server);
  });
  afterAll(async () => {
    if (server) {
      // However the runs went, the books still balance and agree with the orders.
      expect([...(await ledger.check()), ...(await reconcileBooks(server.database.db))]).toEqual([]);
      await server.close();
    }
  });

  it('approves a money item (a repayment) once: the credit, one decision row, one audit row with the status before and after', async () => {
    const before = await realCash(customer.uid);
    const id = await submitReview(server, { kind: 'repayment', uid: customer.uid, facts: { amount: '250.75' }, amountUsd: '250.75' });
    expect(await itemStatus(server, id)).toBe('pending');

    await decided(server, financeA.token, { kind: 'repayment', id, decision: 'approve' }, 'approved');
    expect(await realCash(customer.uid)).toBe(before + money('250.75'));
    expect(runsOf(id)).toEqual([{ kind: 'repayment', id, outcome: 'approved', reason: null, decidedBy: financeA.staffId }]);
    expect(await decisionRows(server, id)).toHaveLength(1);
    const audit = await auditRowsOf(server, id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ staff_id: financeA.staffId, action: 'reviews.decide', target_type: 'review', uid: customer.uid });
    expect(audit[0]?.before).toMatchObject({ status: 'pending' });
    expect(audit[0]?.after).toMatchObject({ status: 'approved', decision: 'approve' });

    // A decided item is never decided again, by anyone, either way; nothing more is credited.
    expect((await decide(server, financeB.token, { kind: 'repayment', id, decision: 'approve' })).code).toBe(ErrorCode.REVIEW_ALREADY_DECIDED);
    expect((await decide(server, financeB.token, { kind: 'repayment', id, decision: 'reject', reason: 'late' })).code).toBe(ErrorCode.REVIEW_ALREADY_DECIDED);
    expect(await realCash(customer.uid)).toBe(before + money('250.75'));
    expect(await decisionRows(server, id)).toHaveLength(1);
    expect(await auditRowsOf(server, id)).toHaveLength(1);
  });

  it('lets one of two parallel approvals by different staff through: one credit, the other 2003', async () => {
    const before = await realCash(customer.uid);
    const id = await submitReview(server, { kind: 'repayment', uid: customer.uid, facts: { amount: '100' }, amountUsd: '100' });
    const answers = await Promise.all([
      decide(server, financeA.token, { kind: 'repayment', id, decision: 'approve' }),
      decide(server, financeB.token, { kind: 'repayment', id, decision: 'approve' }),
    ]);
    expect(answers.map((answer) => answer.code).sort()).toEqual([0, ErrorCode.REVIEW_ALREADY_DECIDED]);
    expect(answers.find((answer) => answer.code === 0)?.data).toEqual({ status: 'approved' });
    expect(await realCash(customer.uid)).toBe(before + money('100'));
    expect(runsOf(id)).toHaveLength(1);
    expect(await decisionRows(server, id)).toHaveLength(1);
    expect(await auditRowsOf(server, id)).toHaveLength(1);
  });

  it('asks two different approvers for a withdrawal at FOUR_EYES_USD, and runs its effect once, on the second', async () => {
    const id = await submitReview(server, { kind: 'withdrawal', uid: customer.uid, facts: { amount: '1000 USDT' }, amountUsd: '1000' });
    await decided(server, financeA.token, { kind: 'withdrawal', id, decision: 'approve' }, 'awaiting_second');
    expect(runsOf(id)).toEqual([]);

    const same = await decide(server, financeA.token, { kind: 'withdrawal', id, decision: 'approve' });
    expect(same.code).toBe(ErrorCode.REVIEW_SAME_APPROVER);
    expect(same.status).toBe(200);
    expect(await itemStatus(server, id)).toBe('awaiting_second');

    await decided(server, financeB.token, { kind: 'withdrawal', id, decision: 'approve' }, 'approved');
    expect(runsOf(id)).toEqual([{ kind: 'withdrawal', id, outcome: 'approved', reason: null, decidedBy: financeB.staffId }]);
    expect((await decisionRows(server, id)).map((row) => [row.staff_id, row.resulting_status])).toEqual([
      [financeA.staffId, 'awaiting_second'],
      [financeB.staffId, 'approved'],
    ]);
    expect((await auditRowsOf(server, id)).map((row) => [row.before, row.after])).toEqual([
      [expect.objectContaining({ status: 'pending' }), expect.objectContaining({ status: 'awaiting_second' })],
      [expect.objectContaining({ status: 'awaiting_second' }), expect.objectContaining({ status: 'approved' })],
    ]);
  });

  it('approves a withdrawal just below FOUR_EYES_USD with one approval', async () => {
    const id = await submitReview(server, { kind: 'withdrawal', uid: customer.uid, facts: { amount: '999.99999999 USD' }, amountUsd: '999.99999999' });
    await decided(server, financeA.token, { kind: 'withdrawal', id, decision: 'approve' }, 'approved');
    expect(runsOf(id)).toHaveLength(1);
  });

  it('always asks two approvals for a loan, however small', async () => {
    const id = await submitReview(server, { kind: 'loan', uid: customer.uid, facts: { amount: '50000' }, amountUsd: '5' });
    await decided(server, financeB.token, { kind: 'loan', id, decision: 'approve' }, 'awaiting_second');
    expect((await decide(server, financeB.token, { kind: 'loan', id, decision: 'approve' })).code).toBe(ErrorCode.REVIEW_SAME_APPROVER);
    expect(runsOf(id)).toEqual([]);
    await decided(server, financeA.token, { kind: 'loan', id, decision: 'approve' }, 'approved');
    expect(runsOf(id).map((run) => run.outcome)).toEqual(['approved']);
  });

  it('rejects only with a reason, runs the reject effect with it, and refuses any later approval (2003)', async () => {
    const before = await realCash(customer.uid);
    const id = await submitReview(server, { kind: 'repayment', uid: customer.uid, facts: { amount: '75' }, amountUsd: '75' });
    for (const reason of [undefined, '', '   ']) {
      const answer = await decide(server, financeA.token, { kind: 'repayment', id, decision: 'reject', ...(reason === undefined ? {} : { reason }) });
      expect(answer.code).toBe(ErrorCode.REVIEW_REASON_REQUIRED);
    }
    expect(await itemStatus(server, id)).toBe('pending');
    expect(await decisionRows(server, id)).toHaveLength(0);
    expect(await auditRowsOf(server, id)).toHaveLength(0);

    await decided(server, financeA.token, { kind: 'repayment', id, decision: 'reject', reason: '  proof unreadable ' }, 'rejected');
    expect(runsOf(id)).toEqual([{ kind: 'repayment', id, outcome: 'rejected', reason: 'proof unreadable', decidedBy: financeA.staffId }]);
    expect((await decide(server, financeB.token, { kind: 'repayment', id, decision: 'approve' })).code).toBe(ErrorCode.REVIEW_ALREADY_DECIDED);
    expect(await realCash(customer.uid)).toBe(before);
    expect((await decisionRows(server, id)).map((row) => row.reason)).toEqual(['proof unreadable']);
  });

  it('lets the first approver of a two-approval item still reject it', async () => {
    const id = await submitReview(server, { kind: 'withdrawal', uid: customer.uid, facts: { amount: '5000' }, amountUsd: '5000' });
    await decided(server, financeA.token, { kind: 'withdrawal', id, decision: 'approve' }, 'awaiting_second');
    await decided(server, financeA.token, { kind: 'withdrawal', id, decision: 'reject', reason: 'address on a sanctions list' }, 'rejected');
    expect(runsOf(id).map((run) => run.outcome)).toEqual(['rejected']);
  });

  it("takes a withdrawal its customer canceled out of the queue: rejected, no effect, staff can no longer decide it", async () => {
    const cancel = (subjectRef: string) =>
      server.database.db.transaction().execute((trx) => server.app.reviews.cancel(trx, { kind: 'withdrawal', subjectRef, note: 'by the customer' }));
    const id = await submitReview(server, { kind: 'withdrawal', uid: customer.uid, subjectRef: 'withdrawal-cancel-1', facts: { amount: '3000 USDT' }, amountUsd: '3000' });
    await decided(server, financeA.token, { kind: 'withdrawal', id, decision: 'approve' }, 'awaiting_second');
    expect(await cancel('withdrawal-cancel-1')).toBe(true);
    expect(await itemStatus(server, id)).toBe('rejected');
    expect((await decide(server, financeB.token, { kind: 'withdrawal', id, decision: 'approve' })).code).toBe(ErrorCode.REVIEW_ALREADY_DECIDED);
    expect(runsOf(id)).toEqual([]);
    expect(await cancel('withdrawal-cancel-1')).toBe(false);
    const shown = await server.database.db.selectFrom('review_item').select('facts').where('id', '=', id).executeTakeFirstOrThrow();
    expect(shown.facts).toEqual({ amount: '3000 USDT', canceled: 'by the customer' });

    // Staff first: the cancel is refused and the approval stands.
    const approved = await submitReview(server, { kind: 'withdrawal', uid: customer.uid, subjectRef: 'withdrawal-cancel-2', amountUsd: '20' });
    await decided(server, financeA.token, { kind: 'withdrawal', id: approved, decision: 'approve' }, 'approved');
    expect(await cancel('withdrawal-cancel-2')).toBe(false);
    expect(await itemStatus(server, approved)).toBe('approved');
  });

  it('answers a replayed requestId with the first decision and changes nothing, in sequence', async () => {
    const before = await realCash(customer.uid);
    const id = await submitReview(server, { kind: 'repayment', uid: customer.uid, facts: { amount: '40' }, amountUsd: '40' });
    const requestId = newRequestId();
    await decided(server, financeA.token, { kind: 'repayment', id, decision: 'approve', requestId }, 'approved');
    await decided(server, financeA.token, { kind: 'repayment', id, decision: 'approve', requestId }, 'approved');
    expect(await realCash(customer.uid)).toBe(before + money('40'));
    expect(await decisionRows(server, id)).toHaveLength(1);
    expect(await auditRowsOf(server, id)).toHaveLength(1);

    // The replay of an awaiting_second step answers awaiting_second, even after the item moved on.
    const large = await submitReview(server, { kind: 'withdrawal', uid: customer.uid, facts: {}, amountUsd: '2500' });
    const firstStep = newRequestId();
    await decided(server, financeA.token, { kind: 'withdrawal', id: large, decision: 'approve', requestId: firstStep }, 'awaiting_second');
    await decided(server, financeB.token, { kind: 'withdrawal', id: large, decision: 'approve' }, 'approved');
    await decided(server, financeA.token, { kind: 'withdrawal', id: large, decision: 'approve', requestId: firstStep }, 'awaiting_second');
    expect(await decisionRows(server, large)).toHaveLength(2);

    // The same request id on another item is a client's mistake, not a replay.
    const other = await submitReview(server, { kind: 'repayment', uid: customer.uid, facts: { amount: '1' }, amountUsd: '1' });
    expect((await decide(server, financeA.token, { kind: 'repayment', id: other, decision: 'approve', requestId })).code).toBe(ErrorCode.INCORRECT_PARAMETER_VALUE);
    expect(await itemStatus(server, other)).toBe('pending');
  });

  it('answers parallel replays of one requestId alike: one decision, one audit row, one credit', async () => {
    const before = await realCash(customer.uid);
    const id = await submitReview(server, { kind: 'repayment', uid: customer.uid, facts: { amount: '33.33' }, amountUsd: '33.33' });
    const requestId = newRequestId();
    const answers = await Promise.all(Array.from({ length: 5 }, () => decide(server, financeA.token, { kind: 'repayment', id, decision: 'approve', requestId })));
    expect(answers.map((answer) => [answer.code, answer.data])).toEqual(Array.from({ length: 5 }, () => [0, { status: 'approved' }]));
    expect(await realCash(customer.uid)).toBe(before + money('33.33'));
    expect(runsOf(id)).toHaveLength(1);
    expect(await decisionRows(server, id)).toHaveLength(1);
    expect(await auditRowsOf(server, id)).toHaveLength(1);
  });

  it('keeps nothing of a decision whose effect fails: status, decision row, audit row and any credit roll back with it', async () => {
    const id = await submitReview(server, { kind: 'withdrawal', uid: customer.uid, facts: { failPayout: 'yes' }, amountUsd: '10' });
    const answer = await decide(server, financeA.token, { kind: 'withdrawal', id, decision: 'approve' });
    expect(answer.status).toBe(500);
    expect(await itemStatus(server, id)).toBe('pending');
    expect(await decisionRows(server, id)).toHaveLength(0);
    expect(await auditRowsOf(server, id)).toHaveLength(0);

    // A credit already posted in the effect goes too: it shares the decision's transaction.
    const before = await realCash(customer.uid);
    const deposit = await submitReview(server, { kind: 'repayment', uid: customer.uid, facts: { amount: '60', failAfterCredit: 'yes' }, amountUsd: '60' });
    expect((await decide(server, financeA.token, { kind: 'repayment', id: deposit, decision: 'approve' })).status).toBe(500);
    expect(await realCash(customer.uid)).toBe(before);
    expect(await itemStatus(server, deposit)).toBe('pending');
    expect(await decisionRows(server, deposit)).toHaveLength(0);
    expect(await auditRowsOf(server, deposit)).toHaveLength(0);
  });

  it('refuses to decide or queue a kind no module registered, instead of approving it silently', async () => {
    // An item left by a module that no longer registers its kind (juniorIdentity's effect taken away, as if no module owned it).
    server.app.reviews.forgetKindEffect('juniorIdentity');
    const compliance = await createStaffAndSignIn(server, { roles: ['compliance'] });
    const row = await server.database.db
      .insertInto('review_item')
      .values({ kind: 'juniorIdentity', uid: customer.uid, subject_ref: 'orphan-1', facts: '{}', amount_usd: null, needs_two_approvals: false })
      .returning('id')
      .executeTakeFirstOrThrow();
    const answer = await decide(server, compliance.token, { kind: 'juniorIdentity', id: row.id, decision: 'approve' });
    expect(answer.status).toBe(500);
    expect(await itemStatus(server, row.id)).toBe('pending');
    expect(await decisionRows(server, row.id)).toHaveLength(0);
    await expect(submitReview(server, { kind: 'juniorIdentity', uid: customer.uid })).rejects.toThrow(/juniorIdentity.*no registered effect/);
  });

  it('answers a retried submission of the same subject with the same item', async () => {
    const first = await submitReview(server, { kind: 'repayment', uid: customer.uid, subjectRef: 'deposit-retried', facts: { amount: '5' }, amountUsd: '5' });
    const again = await submitReview(server, { kind: 'repayment', uid: customer.uid, subjectRef: 'deposit-retried', facts: { amount: '5' }, amountUsd: '5' });
    expect(again).toBe(first);
    const rows = await server.database.db.selectFrom('review_item').select('id').where('subject_ref', '=', 'deposit-retried').execute();
    expect(rows).toHaveLength(1);
  });

  it('queues no item whose USD worth four-eyes could not judge exactly (more than 8 decimals, negative)', async () => {
    const before = await server.database.db.selectFrom('review_item').select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow();
    for (const amountUsd of ['999.999999999', '-5', '1e3']) {
      await expect(submitReview(server, { kind: 'withdrawal', uid: customer.uid, amountUsd })).rejects.toThrow(RangeError);
    }
    const after = await server.database.db.selectFrom('review_item').select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow();
    expect(Number(after.count)).toBe(Number(before.count));
  });

  it('answers an unknown item or an item of another kind as not found (1008)', async () => {
    const id = await submitReview(server, { kind: 'repayment', uid: customer.uid, facts: { amount: '1' }, amountUsd: '1' });
    expect((await decide(server, financeA.token, { kind: 'withdrawal', id, decision: 'approve' })).code).toBe(ErrorCode.DATA_NOT_FOUND);
    expect((await decide(server, financeA.token, { kind: 'repayment', id: 99_999_999, decision: 'approve' })).code).toBe(ErrorCode.DATA_NOT_FOUND);
    expect(await itemStatus(server, id)).toBe('pending');
  });
});
