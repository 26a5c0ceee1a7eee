import { sql, type Kysely, type Transaction } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../server/auth/totp';
import { createLedger, type Ledger } from '../../server/modules/ledger/ledger';
import type { Database } from '../../server/db/schema';
import { ErrorCode } from '../../src/shared/errors/catalogue';
import { money } from '../../src/shared/money/money';
import { startTestServer, testBackends, type TestServer } from './harness';
import { auditRowsOf, decide, decided, decisionRows, itemStatus, newCustomer, newRequestId, registerTestKinds, submitReview, type EffectRun } from './reviews-support';
import { createStaffAndSignIn, secretOf, staffCall } from './support/staff';

type Staff = Awaited<ReturnType<typeof createStaffAndSignIn>>;

/**
 * A transaction kept open until the test commits it: a change another staff member's call
 * must wait for (PostgreSQL only: PGlite has one connection, so its transactions never overlap).
 */
async function openTransaction(db: Kysely<Database>, work: (trx: Transaction<Database>) => Promise<void>) {
  let release = () => undefined as void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let backendPid = 0;
  let ready = () => undefined as void;
  const started = new Promise<void>((resolve) => (ready = resolve));
  const done = db.transaction().execute(async (trx) => {
    backendPid = Number((await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0]?.pid);
    await work(trx);
    ready();
    await released;
  });
  await started;
  return {
    /** Whether some other connection is waiting for a lock this transaction holds. */
    async blocksAnother(): Promise<boolean> {
      const waiting = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where ${backendPid} = any(pg_blocking_pids(pid))`.execute(db);
      return (waiting.rows[0]?.n ?? 0) > 0;
    },
    async commit() {
      release();
      await done;
    },
  };
}

/** Waits until `call` either answers or is held up by `held`'s locks; says which. */
async function answeredOrBlocked<T>(call: Promise<T>, held: { blocksAnother(): Promise<boolean> }): Promise<'answered' | 'blocked'> {
  let answered = false;
  void call.then(
    () => (answered = true),
    () => (answered = true),
  );
  for (;;) {
    if (answered) return 'answered';
    if (await held.blocksAnother()) return 'blocked';
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * The staff rules that protect money and the back office itself, attacked with parallel
 * calls: two approvers on one item, one approver twice on a four-eyes item, a request id
 * replayed with another decision, a member disabled while their call runs, and admins
 * escalating, disabling or demoting (themselves, or each other at the same moment).
 */
describe.each(testBackends())('staff races and escalations on $name', (backend) => {
  let server: TestServer;
  let ledger: Ledger;
  let runs: EffectRun[];
  let adminA: Staff;
  let financeA: Staff;
  let financeB: Staff;
  let customer: { uid: number };
  const runsOf = (id: number) => runs.filter((run) => run.id === id);
  const realCash = (uid: number) => ledger.cashBalance(uid, 'real');
  const member = (staffId: number) => server.database.db.selectFrom('staff_member').select(['roles', 'disabled_at']).where('id', '=', staffId).executeTakeFirstOrThrow();
  const staffByEmail = (email: string) => server.database.db.selectFrom('staff_member').select('id').where('email', '=', email).executeTakeFirst();
  const auditCount = async () => Number((await server.database.db.selectFrom('staff_audit').select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow()).n);
  let mailbox = 0;
  const newEmail = () => `race${Date.now().toString(36)}${(mailbox += 1)}@example.com`;

  beforeAll(async () => {
    server = await startTestServer(backend, { FOUR_EYES_USD: '1000', CODES_SENT_PER_10_MIN: '500', CODE_CHECKS_PER_10_MIN: '500' });
    ledger = createLedger(server.database.db);
    runs = registerTestKinds(server, ledger, ['repayment', 'withdrawal', 'loan']);
    adminA = await createStaffAndSignIn(server, { roles: ['admin'] });
    financeA = await createStaffAndSignIn(server, { roles: ['finance'] });
    financeB = await createStaffAndSignIn(server, { roles: ['finance'] });
    customer = await newCustomer(server, 'race');
  });
  afterAll(async () => {
    await server?.close();
  });

  describe('review decisions', () => {
    it('lets one of two approvers racing on one item decide it, approve against reject: one decision, one audit row, the winner\'s effect once', async () => {
      const before = await realCash(customer.uid);
      const id = await submitReview(server, { kind: 'repayment', uid: customer.uid, facts: { amount: '25' }, amountUsd: '25' });
      const [approval, rejection] = await Promise.all([
        decide(server, financeA.token, { kind: 'repayment', id, decision: 'approve' }),
        decide(server, financeB.token, { kind: 'repayment', id, decision: 'reject', reason: 'no proof' }),
      ]);
      expect([approval.code, rejection.code].sort((a, b) => a - b)).toEqual([0, ErrorCode.REVIEW_ALREADY_DECIDED]);
      const approved = approval.code === 0;
      expect(await itemStatus(server, id)).toBe(approved ? 'approved' : 'rejected');
      expect(await realCash(customer.uid)).toBe(approved ? before + money('25') : before);
      expect(runsOf(id).map((run) => [run.outcome, run.decidedBy])).toEqual([approved ? ['approved', financeA.staffId] : ['rejected', financeB.staffId]]);
      expect(await decisionRows(server, id)).toHaveLength(1);
      expect(await auditRowsOf(server, id)).toHaveLength(1);
    });

    it('refuses the same approver approving a four-eyes item twice at once (two clicks, two request ids): awaiting_second, no effect', async () => {
      const id = await submitReview(server, { kind: 'withdrawal', uid: customer.uid, amountUsd: '1000' });
      const answers = await Promise.all([
        decide(server, financeA.token, { kind: 'withdrawal', id, decision: 'approve' }),
        decide(server, financeA.token, { kind: 'withdrawal', id, decision: 'approve' }),
      ]);
      expect(answers.map((answer) => answer.code).sort((a, b) => a - b)).toEqual([0, ErrorCode.REVIEW_SAME_APPROVER]);
      expect(answers.find((answer) => answer.code === 0)?.data).toEqual({ status: 'awaiting_second' });
      expect(await itemStatus(server, id)).toBe('awaiting_second');
      expect(runsOf(id)).toEqual([]);
      expect(await decisionRows(server, id)).toHaveLength(1);
      expect(await auditRowsOf(server, id)).toHaveLength(1);
      // The same goes for a loan, whatever its size; another approver then completes it, once.
      const loan = await submitReview(server, { kind: 'loan', uid: customer.uid, amountUsd: '1' });
      const loanAnswers = await Promise.all([1, 2, 3].map(() => decide(server, financeB.token, { kind: 'loan', id: loan, decision: 'approve' })));
      expect(loanAnswers.map((answer) => answer.code).sort((a, b) => a - b)).toEqual([0, ErrorCode.REVIEW_SAME_APPROVER, ErrorCode.REVIEW_SAME_APPROVER]);
      await decided(server, financeA.token, { kind: 'loan', id: loan, decision: 'approve' }, 'approved');
      expect(runsOf(loan).map((run) => run.decidedBy)).toEqual([financeA.staffId]);
    });

    it('refuses a replayed requestId carrying the other decision (1016) and changes nothing; a retry with an edited reason answers the first decision', async () => {
      const before = await realCash(customer.uid);
      const id = await submitReview(server, { kind: 'repayment', uid: customer.uid, facts: { amount: '12.5' }, amountUsd: '12.5' });
      const requestId = newRequestId();
      await decided(server, financeA.token, { kind: 'repayment', id, decision: 'approve', requestId }, 'approved');
      const flipped = await decide(server, financeA.token, { kind: 'repayment', id, decision: 'reject', reason: 'changed my mind', requestId });
      expect(flipped.code).toBe(ErrorCode.INCORRECT_PARAMETER_VALUE);

      const rejectedId = await submitReview(server, { kind: 'repayment', uid: customer.uid, facts: { amount: '7' }, amountUsd: '7' });
      const rejectId = newRequestId();
      await decided(server, financeA.token, { kind: 'repayment', id: rejectedId, decision: 'reject', reason: 'blurred proof', requestId: rejectId }, 'rejected');
      expect((await decide(server, financeA.token, { kind: 'repayment', id: rejectedId, decision: 'approve', requestId: rejectId })).code).toBe(ErrorCode.INCORRECT_PARAMETER_VALUE);
      // A reason edited before the retry of a click whose answer was lost: the same click, the first reason stands.
      await decided(server, financeA.token, { kind: 'repayment', id: rejectedId, decision: 'reject', reason: 'another reason', requestId: rejectId }, 'rejected');
      expect((await decisionRows(server, rejectedId)).map((row) => row.reason)).toEqual(['blurred proof']);

      expect(await itemStatus(server, id)).toBe('approved');
      expect(await itemStatus(server, rejectedId)).toBe('rejected');
      expect(await realCash(customer.uid)).toBe(before + money('12.5'));
      expect(runsOf(id).map((run) => run.outcome)).toEqual(['approved']);
      expect(runsOf(rejectedId).map((run) => run.outcome)).toEqual(['rejected']);
      expect(await decisionRows(server, id)).toHaveLength(1);
      expect(await auditRowsOf(server, rejectedId)).toHaveLength(1);
    });

    it('lets one of an approval and a reject sent at once with one requestId through; the other is refused (1016), never answered as its own', async () => {
      const before = await realCash(customer.uid);
      const id = await submitReview(server, { kind: 'repayment', uid: customer.uid, facts: { amount: '3' }, amountUsd: '3' });
      const requestId = newRequestId();
      const [approval, rejection] = await Promise.all([
        decide(server, financeA.token, { kind: 'repayment', id, decision: 'approve', requestId }),
        decide(server, financeA.token, { kind: 'repayment', id, decision: 'reject', reason: 'duplicate', requestId }),
      ]);
      expect([approval.code, rejection.code].sort((a, b) => a - b)).toEqual([0, ErrorCode.INCORRECT_PARAMETER_VALUE]);
      const approved = approval.code === 0;
      expect(await itemStatus(server, id)).toBe(approved ? 'approved' : 'rejected');
      expect(await realCash(customer.uid)).toBe(approved ? before + money('3') : before);
      expect(await decisionRows(server, id)).toHaveLength(1);
      expect(await auditRowsOf(server, id)).toHaveLength(1);
    });

    it('refuses a decision whose reviewer lost the role after the call was let in (2001): no decision, no money, no audit row', async () => {
      const reviewer = await createStaffAndSignIn(server, { roles: ['finance'] });
      const before = await realCash(customer.uid);
      const id = await submitReview(server, { kind: 'repayment', uid: customer.uid, facts: { amount: '60' }, amountUsd: '60' });
      // The reviewer as the staff scope handed them to the handler, before an admin's demotion committed.
      const actor = { staffId: reviewer.staffId, email: reviewer.email, roles: ['finance' as const], address: '10.3.3.3' };
      expect((await staffCall(server, '/v1/staff/staff/setRoles', { staffId: reviewer.staffId, roles: ['support'] }, adminA.token)).code).toBe(0);
      const auditBefore = await auditCount();
      await expect(server.app.reviews.decide(actor, { kind: 'repayment', id, decision: 'approve', requestId: newRequestId() })).rejects.toMatchObject({ code: ErrorCode.STAFF_ROLE_REQUIRED });
      expect(await itemStatus(server, id)).toBe('pending');
      expect(await realCash(customer.uid)).toBe(before);
      expect(await decisionRows(server, id)).toHaveLength(0);
      expect(await auditCount()).toBe(auditBefore);
    });

    it.skipIf(backend.name === 'pglite')('makes a decision wait for a disabling being committed, then refuses it (23519): no decision, no money, no audit row', async () => {
      const member = await createStaffAndSignIn(server, { roles: ['finance'] });
      const before = await realCash(customer.uid);
      const id = await submitReview(server, { kind: 'repayment', uid: customer.uid, facts: { amount: '50' }, amountUsd: '50' });
      const auditBefore = await auditCount();
      // An admin's disabling, written but not yet committed: the member's token still passes the scope's check.
      const disabling = await openTransaction(server.database.db, async (trx) => {
        await trx.updateTable('staff_member').set({ disabled_at: new Date() }).where('id', '=', member.staffId).execute();
        await trx.updateTable('staff_session_family').set({ revoked_at: new Date(), revoked_reason: 'disabled' }).where('staff_id', '=', member.staffId).execute();
      });
      const decision = decide(server, member.token, { kind: 'repayment', id, decision: 'approve' });
      expect(await answeredOrBlocked(decision, disabling)).toBe('blocked');
      await disabling.commit();
      expect((await decision).code).toBe(ErrorCode.SESSION_ENDED);
      expect(await itemStatus(server, id)).toBe('pending');
      expect(await realCash(customer.uid)).toBe(before);
      expect(runsOf(id)).toEqual([]);
      expect(await decisionRows(server, id)).toHaveLength(0);
      expect(await auditCount()).toBe(auditBefore);
    });
  });

  describe('role escalation', () => {
    it('refuses every non-admin (any mix of the other roles) creating an admin or granting themselves admin (2001); nothing is created or changed', async () => {
      for (const roles of [['support'], ['finance'], ['compliance'], ['support', 'finance', 'compliance']] as const) {
        const climber = await createStaffAndSignIn(server, { roles: [...roles] });
        const email = newEmail();
        expect(await staffCall(server, '/v1/staff/staff/create', { email, roles: ['admin'] }, climber.token)).toMatchObject({ status: 403, code: ErrorCode.STAFF_ROLE_REQUIRED });
        expect(await staffByEmail(email)).toBeUndefined();
        expect(await staffCall(server, '/v1/staff/staff/setRoles', { staffId: climber.staffId, roles: [...roles, 'admin'] }, climber.token)).toMatchObject({ status: 403, code: ErrorCode.STAFF_ROLE_REQUIRED });
        expect((await member(climber.staffId)).roles).toEqual([...roles]);
        expect(await staffCall(server, '/v1/staff/staff/disable', { staffId: adminA.staffId }, climber.token)).toMatchObject({ status: 403, code: ErrorCode.STAFF_ROLE_REQUIRED });
      }
      expect((await member(adminA.staffId)).disabled_at).toBeNull();
    });

    it('refuses an admin who has not yet replaced the one-time password (2002), and an unknown role (1016)', async () => {
      const email = newEmail();
      const created = await server.app.staff.management.create({ email, roles: ['admin'] }, { staffId: null, address: 'cli' });
      const login = await staffCall(server, '/v1/staff/login', { email, password: created.oneTimePassword, code: totpCode(secretOf(created.otpauthUrl), Date.now()) });
      const fresh = (login.data as { token: string }).token;
      const other = newEmail();
      expect((await staffCall(server, '/v1/staff/staff/create', { email: other, roles: ['admin'] }, fresh)).code).toBe(ErrorCode.STAFF_PASSWORD_CHANGE_REQUIRED);
      expect(await staffByEmail(other)).toBeUndefined();
      expect((await staffCall(server, '/v1/staff/staff/create', { email: other, roles: ['superadmin'] }, adminA.token)).code).toBe(ErrorCode.INCORRECT_PARAMETER_CONTENT);
      expect((await staffCall(server, '/v1/staff/staff/setRoles', { staffId: financeA.staffId, roles: ['root'] }, adminA.token)).code).toBe(ErrorCode.INCORRECT_PARAMETER_CONTENT);
      expect(await staffByEmail(other)).toBeUndefined();
      expect((await member(financeA.staffId)).roles).toEqual(['finance']);
    });

    it('refuses an admin disabling themselves or dropping their own admin role (2006), so the last admin stays', async () => {
      const auditBefore = await auditCount();
      expect((await staffCall(server, '/v1/staff/staff/disable', { staffId: adminA.staffId }, adminA.token)).code).toBe(ErrorCode.STAFF_SELF_PROTECTED);
      expect((await staffCall(server, '/v1/staff/staff/setRoles', { staffId: adminA.staffId, roles: ['support'] }, adminA.token)).code).toBe(ErrorCode.STAFF_SELF_PROTECTED);
      expect(await member(adminA.staffId)).toEqual({ roles: ['admin'], disabled_at: null });
      expect(await auditCount()).toBe(auditBefore);
    });

    it('lets only one of two admins disabling each other at once succeed: the other is ended (23519), one admin stays', async () => {
      const first = await createStaffAndSignIn(server, { roles: ['admin'] });
      const second = await createStaffAndSignIn(server, { roles: ['admin'] });
      const auditBefore = await auditCount();
      const answers = await Promise.all([
        staffCall(server, '/v1/staff/staff/disable', { staffId: second.staffId }, first.token),
        staffCall(server, '/v1/staff/staff/disable', { staffId: first.staffId }, second.token),
      ]);
      expect(answers.map((answer) => answer.code).sort((a, b) => a - b)).toEqual([0, ErrorCode.SESSION_ENDED]);
      const disabled = [(await member(first.staffId)).disabled_at !== null, (await member(second.staffId)).disabled_at !== null];
      expect(disabled.filter(Boolean)).toHaveLength(1);
      expect(await auditCount()).toBe(auditBefore + 1);
    });

    it('lets only one of two admins demoting each other at once succeed: the other is refused (2001), one admin stays', async () => {
      const first = await createStaffAndSignIn(server, { roles: ['admin'] });
      const second = await createStaffAndSignIn(server, { roles: ['admin'] });
      const auditBefore = await auditCount();
      const answers = await Promise.all([
        staffCall(server, '/v1/staff/staff/setRoles', { staffId: second.staffId, roles: ['support'] }, first.token),
        staffCall(server, '/v1/staff/staff/setRoles', { staffId: first.staffId, roles: ['support'] }, second.token),
      ]);
      expect(answers.map((answer) => answer.code).sort((a, b) => a - b)).toEqual([0, ErrorCode.STAFF_ROLE_REQUIRED]);
      const admins = [(await member(first.staffId)).roles, (await member(second.staffId)).roles].filter((roles) => roles.includes('admin'));
      expect(admins).toHaveLength(1);
      expect(await auditCount()).toBe(auditBefore + 1);
    });

    it('refuses a staff change by an admin disabled or demoted after the call was let in, and keeps nothing of it', async () => {
      const actorMember = await createStaffAndSignIn(server, { roles: ['admin'] });
      const target = await createStaffAndSignIn(server, { roles: ['support'] });
      // The admin as the staff scope handed them to the handler, before another admin's change committed.
      const actor = { staffId: actorMember.staffId, email: actorMember.email, roles: ['admin' as const], address: '10.2.2.2' };
      expect((await staffCall(server, '/v1/staff/staff/setRoles', { staffId: actorMember.staffId, roles: ['support'] }, adminA.token)).code).toBe(0);
      const auditBefore = await auditCount();
      const email = newEmail();
      await expect(server.app.staff.management.invite(actor, { email, roles: ['admin'] })).rejects.toMatchObject({ code: ErrorCode.STAFF_ROLE_REQUIRED });
      await expect(server.app.staff.management.setRoles(actor, { staffId: target.staffId, roles: ['admin'] })).rejects.toMatchObject({ code: ErrorCode.STAFF_ROLE_REQUIRED });
      expect((await staffCall(server, '/v1/staff/staff/disable', { staffId: actorMember.staffId }, adminA.token)).code).toBe(0);
      await expect(server.app.staff.management.disable(actor, { staffId: target.staffId })).rejects.toMatchObject({ code: ErrorCode.SESSION_ENDED });
      expect(await staffByEmail(email)).toBeUndefined();
      expect(await member(target.staffId)).toEqual({ roles: ['support'], disabled_at: null });
      expect(await auditCount()).toBe(auditBefore + 1);
    });
  });
});
