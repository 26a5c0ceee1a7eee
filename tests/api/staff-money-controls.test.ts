import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { totpCode } from '../../server/auth/totp';
import { createLedger, type Ledger } from '../../server/modules/ledger/ledger';
import type { StaffCurrency } from '../../src/shared/api/staff';
import { ErrorCode } from '../../src/shared/errors/catalogue';
import { scriptedSource, startTestServer, testBackends, type TestServer } from './harness';
import { call, loginByEmail, registerByEmail } from './identity-support';
import { decide, decided, itemStatus, newCustomer, registerTestKinds, submitReview, type EffectRun } from './reviews-support';
import { createStaffAndSignIn, invitationTokenFor, inviteEnrolAndSignIn, secretOf, staffCall, staffPassword } from './support/staff';

type Staff = Awaited<ReturnType<typeof createStaffAndSignIn>>;

// A Tuesday noon (every market open); the tests move it on by TOTP steps and days.
let clock = Date.parse('2026-01-13T12:00:00Z');
const nowMs = () => clock;
/** The next TOTP step: a code of a new step is not a replay of the last one. */
const nextStep = () => void (clock += 30_000);
let mailbox = 0;
const newEmail = (prefix = 'member') => `${prefix}${(mailbox += 1)}${crypto.randomBytes(3).toString('hex')}@example.com`;

/**
 * Issue 31, findings 3 and 4 and the controls around them: no admin learns a member's
 * credentials (enrolment by invitation), the two approvals of a four-eyes item and the two
 * admins of a money setting must be independent (segregation of duties), and a change that
 * moves money waits for a second admin (dual control).
 */
describe.each(testBackends())('money controls: enrolment, segregation of duties, dual control on $name', (backend) => {
  let server: TestServer;
  let ledger: Ledger;
  let runs: EffectRun[];
  let adminA: Staff;
  let adminB: Staff;
  let customer: { uid: number };
  const script = scriptedSource();
  const paidOut = (id: number) => runs.filter((run) => run.id === id && run.outcome === 'approved').length;

  beforeAll(async () => {
    server = await startTestServer(
      backend,
      { FOUR_EYES_USD: '1000', SOLO_APPROVALS_USD: '2000', STALE_PRICE_MS: '600000', CODES_SENT_PER_10_MIN: '500', CODE_CHECKS_PER_10_MIN: '500', LOGIN_ATTEMPTS_PER_15_MIN: '500' },
      { marketSource: script.source, nowMs },
    );
    ledger = createLedger(server.database.db);
    script.push([{ symbol: 'BTCUSDT', timeMs: clock, bid: 6_700_000, ask: 6_700_002, volume: 1 }]);
    runs = registerTestKinds(server, ledger, ['withdrawal']);
    adminA = await createStaffAndSignIn(server, { roles: ['admin'], nowMs });
    adminB = await createStaffAndSignIn(server, { roles: ['admin'], nowMs });
    customer = await newCustomer(server);
  }, 300_000);
  afterAll(async () => {
    await server?.close();
  });

  describe('enrolment by invitation', () => {
    it('answers the admin where the invitation went and nothing that signs in; until the member enrols no password works (finding 3)', async () => {
      const email = newEmail('finance');
      const created = await staffCall(server, '/v1/staff/staff/create', { email, roles: ['finance'] }, adminA.token);
      expect(created.code, created.msg).toBe(0);
      expect(Object.keys(created.data as object).sort()).toEqual(['invitationSentTo', 'staffId']);
      expect((created.data as { invitationSentTo: string }).invitationSentTo).toBe(email);
      const invitation = await invitationTokenFor(server, email);
      // The answer and the audit trail carry neither the link's token nor any credential.
      const trail = JSON.stringify(await server.database.db.selectFrom('staff_audit').select(['before', 'after']).execute());
      expect(JSON.stringify(created)).not.toContain(invitation);
      expect(trail).not.toContain(invitation);
      // The admin has nothing to sign in with: the member has no password and no authenticator yet.
      for (const password of ['x', staffPassword, invitation]) {
        expect((await staffCall(server, '/v1/staff/login', { email, password, code: '123456' })).code).toBe(ErrorCode.INCORRECT_ACCOUNT_OR_PASSWORD);
      }
    });

    it('lets the invited member set their password and authenticator, confirm a first code, then sign in; the link works once', async () => {
      const email = newEmail('support');
      expect((await staffCall(server, '/v1/staff/staff/create', { email, roles: ['support'] }, adminA.token)).code).toBe(0);
      const invitation = await invitationTokenFor(server, email);
      const enrolled = await staffCall(server, '/v1/staff/enrol', { token: invitation, password: staffPassword });
      expect(enrolled.code, enrolled.msg).toBe(0);
      const secret = secretOf((enrolled.data as { otpauthUrl: string }).otpauthUrl);
      // Chosen, but not confirmed: still no sign-in.
      expect((await staffCall(server, '/v1/staff/login', { email, password: staffPassword, code: totpCode(secret, nowMs()) })).code).toBe(ErrorCode.INCORRECT_ACCOUNT_OR_PASSWORD);
      nextStep();
      // A second use of the link to choose the password again is refused.
      expect((await staffCall(server, '/v1/staff/enrol', { token: invitation, password: 'another horse 8' })).code).toBe(ErrorCode.STAFF_INVITATION_USED);
      const wrong = totpCode(secret, nowMs()) === '000000' ? '111111' : '000000';
      expect((await staffCall(server, '/v1/staff/enrol/confirm', { token: invitation, code: wrong })).code).toBe(ErrorCode.INVALID_VERIFICATION_CODE);
      const confirmCode = totpCode(secret, nowMs());
      expect((await staffCall(server, '/v1/staff/enrol/confirm', { token: invitation, code: confirmCode })).code).toBe(0);
      // TOTP replay: the code that confirmed is spent; signing in with it is refused, the next step's works.
      expect((await staffCall(server, '/v1/staff/login', { email, password: staffPassword, code: confirmCode })).code).toBe(ErrorCode.INCORRECT_ACCOUNT_OR_PASSWORD);
      expect((await staffCall(server, '/v1/staff/enrol/confirm', { token: invitation, code: totpCode(secret, nowMs() + 30_000) })).code).toBe(ErrorCode.STAFF_INVITATION_USED);
      nextStep();
      const login = await staffCall(server, '/v1/staff/login', { email, password: staffPassword, code: totpCode(secret, nowMs()) });
      expect(login.code, login.msg).toBe(0);
      expect(login.data).toMatchObject({ roles: ['support'], mustChangePassword: false });
      const actions = await server.database.db.selectFrom('staff_audit').select('action').where('target_type', '=', 'staff').where('action', 'like', 'staff.enrol%').execute();
      expect(actions.map((row) => row.action)).toEqual(expect.arrayContaining(['staff.enrol', 'staff.enrolConfirm']));
    });

    it('refuses an unknown link (2008) and an expired one (2009), with the same answer shape', async () => {
      const unknown = await staffCall(server, '/v1/staff/enrol', { token: crypto.randomBytes(32).toString('base64url'), password: staffPassword });
      expect(unknown).toMatchObject({ status: 200, code: ErrorCode.STAFF_INVITATION_INVALID, data: null });
      const email = newEmail('late');
      expect((await staffCall(server, '/v1/staff/staff/create', { email, roles: ['support'] }, adminA.token)).code).toBe(0);
      const invitation = await invitationTokenFor(server, email);
      const sent = clock;
      clock += 72 * 3_600_000 + 1_000;
      try {
        const expired = await staffCall(server, '/v1/staff/enrol', { token: invitation, password: staffPassword });
        expect(expired).toMatchObject({ status: 200, code: ErrorCode.STAFF_INVITATION_EXPIRED, data: null });
        expect(Object.keys(expired).sort()).toEqual(Object.keys(unknown).sort());
      } finally {
        // Back to a time the admins' sessions are valid at, a step later than any code spent.
        clock = sent + 30_000;
      }
    });
  });

  describe('an invitation sent again', () => {
    const listed = async (staffId: number) => {
      for (let page = 1; ; page += 1) {
        const answer = await staffCall(server, '/v1/staff/staff/list', { page, limit: 100 }, adminA.token);
        expect(answer.code, answer.msg).toBe(0);
        const { list, pages } = answer.data as { list: { staffId: number; enrolled: boolean; invitationExpiresTime: number | null }[]; pages: number };
        const member = list.find((row) => row.staffId === staffId);
        if (member || page >= pages) return member;
      }
    };
    const enrol = (token: string) => staffCall(server, '/v1/staff/enrol', { token, password: staffPassword });

    it('gives a member whose link expired a new single-use link, voids the older one (2016), is audited and listed, and makes the sender related to the member', async () => {
      const email = newEmail('resent');
      const created = await staffCall(server, '/v1/staff/staff/create', { email, roles: ['finance'] }, adminA.token);
      expect(created.code, created.msg).toBe(0);
      const { staffId } = created.data as { staffId: number };
      const first = await invitationTokenFor(server, email);
      expect((await listed(staffId))?.invitationExpiresTime).toBe(clock + 72 * 3_600_000);
      // The link's 72 hours pass unused.
      const expiredAt = clock - 1_000;
      await server.database.db.updateTable('staff_invitation').set({ expires_at: new Date(expiredAt) }).where('staff_id', '=', staffId).execute();
      expect((await enrol(first)).code).toBe(ErrorCode.STAFF_INVITATION_EXPIRED);
      // The list shows when it ended (the console says "expired" and offers to send it again).
      expect((await listed(staffId))?.invitationExpiresTime).toBe(expiredAt);

      // Only an admin may send it again; the answer says where it went, nothing that signs in.
      const finance = await createStaffAndSignIn(server, { roles: ['finance', 'compliance', 'support'], nowMs });
      expect((await staffCall(server, '/v1/staff/staff/resendInvitation', { staffId }, finance.token)).code).toBe(ErrorCode.STAFF_ROLE_REQUIRED);
      const resent = await staffCall(server, '/v1/staff/staff/resendInvitation', { staffId }, adminB.token);
      expect(resent.code, resent.msg).toBe(0);
      expect(resent.data).toEqual({ staffId, invitationSentTo: email });
      const second = await invitationTokenFor(server, email);
      expect(second).not.toBe(first);
      expect(JSON.stringify(resent)).not.toContain(second);
      expect((await listed(staffId))?.invitationExpiresTime).toBe(clock + 72 * 3_600_000);
      const audit = await server.database.db.selectFrom('staff_audit').selectAll().where('action', '=', 'staff.resendInvitation').where('target_id', '=', String(staffId)).execute();
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({ staff_id: adminB.staffId, target_type: 'staff' });
      const change = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown>;
      expect(change(audit[0]!.before)).toEqual({ email, invitationExpiresTime: expiredAt });
      expect(change(audit[0]!.after)).toEqual({ email, invitationExpiresTime: clock + 72 * 3_600_000 });
      expect(JSON.stringify(audit)).not.toContain(second);

      // Sent again while that one is still open: the one before stops working too.
      expect((await staffCall(server, '/v1/staff/staff/resendInvitation', { staffId }, adminB.token)).code).toBe(0);
      const third = await invitationTokenFor(server, email);
      expect((await enrol(first)).code).toBe(ErrorCode.STAFF_INVITATION_REPLACED);
      expect((await enrol(second)).code).toBe(ErrorCode.STAFF_INVITATION_REPLACED);
      const enrolled = await enrol(third);
      expect(enrolled.code, enrolled.msg).toBe(0);
      const secret = secretOf((enrolled.data as { otpauthUrl: string }).otpauthUrl);
      expect((await staffCall(server, '/v1/staff/enrol/confirm', { token: third, code: totpCode(secret, nowMs()) })).code).toBe(0);
      expect((await listed(staffId))).toMatchObject({ enrolled: true, invitationExpiresTime: null });
      // Enrolled: nothing to send again.
      expect((await staffCall(server, '/v1/staff/staff/resendInvitation', { staffId }, adminB.token)).code).toBe(ErrorCode.STAFF_NOT_INVITABLE);
      expect((await staffCall(server, '/v1/staff/staff/resendInvitation', { staffId: adminA.staffId }, adminB.token)).code).toBe(ErrorCode.STAFF_NOT_INVITABLE);

      // The admin who sent the link the member enrolled through is not independent of them.
      nextStep();
      const login = await staffCall(server, '/v1/staff/login', { email, password: staffPassword, code: totpCode(secret, nowMs()) });
      expect(login.code, login.msg).toBe(0);
      const member = login.data as { token: string };
      // Their own document declared, as every member's before a decision: what refuses them here is the relation.
      expect((await staffCall(server, '/v1/staff/me/declareDocument', { documentNumber: `RESENT-${crypto.randomUUID()}` }, member.token)).code).toBe(0);
      const id = await submitReview(server, { kind: 'withdrawal', uid: customer.uid, facts: { amount: '5000 USDT' }, amountUsd: '5000' });
      await decided(server, adminB.token, { kind: 'withdrawal', id, decision: 'approve' }, 'awaiting_second');
      expect((await decide(server, member.token, { kind: 'withdrawal', id, decision: 'approve' })).code).toBe(ErrorCode.STAFF_DUTIES_RELATED);
      expect(paidOut(id)).toBe(0);
    });
  });

  describe('segregation of duties', () => {
    it('refuses the second approval of a member the first approver created within the period (finding 3): nothing paid', async () => {
      const id = await submitReview(server, { kind: 'withdrawal', uid: customer.uid, facts: { amount: '5000 USDT' }, amountUsd: '5000' });
      await decided(server, adminA.token, { kind: 'withdrawal', id, decision: 'approve' }, 'awaiting_second');
      // The attack: the admin makes a finance member (even one who enrolled with someone's help) and approves again as it.
      nextStep();
      const madeByA = await inviteEnrolAndSignIn(server, adminA.token, { roles: ['finance'], nowMs });
      expect((await decide(server, madeByA.token, { kind: 'withdrawal', id, decision: 'approve' })).code).toBe(ErrorCode.STAFF_DUTIES_RELATED);
      expect(await itemStatus(server, id)).toBe('awaiting_second');
      expect(paidOut(id)).toBe(0);
      // An independent member's approval pays it: two people, not one.
      nextStep();
      const independent = await createStaffAndSignIn(server, { roles: ['finance'], nowMs });
      await decided(server, independent.token, { kind: 'withdrawal', id, decision: 'approve' }, 'approved');
      expect(paidOut(id)).toBe(1);
    });

    it('refuses two members one admin invited within the period as the two approvers: the admin, reading both invitations, would be both pairs of eyes', async () => {
      nextStep();
      const first = await inviteEnrolAndSignIn(server, adminA.token, { roles: ['finance'], nowMs });
      nextStep();
      const second = await inviteEnrolAndSignIn(server, adminA.token, { roles: ['finance'], nowMs });
      const id = await submitReview(server, { kind: 'withdrawal', uid: customer.uid, facts: { amount: '5000 USDT' }, amountUsd: '5000' });
      await decided(server, first.token, { kind: 'withdrawal', id, decision: 'approve' }, 'awaiting_second');
      expect((await decide(server, second.token, { kind: 'withdrawal', id, decision: 'approve' })).code).toBe(ErrorCode.STAFF_DUTIES_RELATED);
      expect(paidOut(id)).toBe(0);
      // A member the same admin did not make completes it.
      await decided(server, adminB.token, { kind: 'withdrawal', id, decision: 'approve' }, 'approved');
      expect(paidOut(id)).toBe(1);
    });

    it('lets one member approve alone at most SOLO_APPROVALS_USD over 24 hours across customers: past it, items under four-eyes wait for a second member', async () => {
      nextStep();
      const [solo, other] = [await createStaffAndSignIn(server, { roles: ['finance'], nowMs }), await createStaffAndSignIn(server, { roles: ['finance'], nowMs })];
      // The attack: many accounts (sock puppets), each just under four-eyes, all approved by one member.
      const puppets = [await newCustomer(server), await newCustomer(server), await newCustomer(server), await newCustomer(server)];
      const items = [];
      for (const puppet of puppets) items.push(await submitReview(server, { kind: 'withdrawal', uid: puppet.uid, amountUsd: '900' }));
      await decided(server, solo.token, { kind: 'withdrawal', id: items[0]!, decision: 'approve' }, 'approved');
      // 900 so far: of two approvals at once, one takes it to 1,800 alone; the other (2,700) waits, whichever commits first.
      const raced = await Promise.all([items[1]!, items[2]!].map((id) => decide(server, solo.token, { kind: 'withdrawal', id, decision: 'approve' })));
      expect(raced.map((answer) => (answer.data as { status: string }).status).sort()).toEqual(['approved', 'awaiting_second']);
      await decided(server, solo.token, { kind: 'withdrawal', id: items[3]!, decision: 'approve' }, 'awaiting_second');
      expect(items.map(paidOut).reduce((sum, runs) => sum + runs, 0)).toBe(2);
      const waiting = [items[1]!, items[2]!, items[3]!].filter((id) => paidOut(id) === 0);
      expect((await decide(server, solo.token, { kind: 'withdrawal', id: waiting[0]!, decision: 'approve' })).code).toBe(ErrorCode.REVIEW_SAME_APPROVER);
      // A second member completes them; their own solo budget is untouched by it (a second approval is not a solo one).
      for (const id of waiting) await decided(server, other.token, { kind: 'withdrawal', id, decision: 'approve' }, 'approved');
      expect(items.map(paidOut)).toEqual([1, 1, 1, 1]);
      const small = await submitReview(server, { kind: 'withdrawal', uid: puppets[0]!.uid, amountUsd: '900' });
      await decided(server, other.token, { kind: 'withdrawal', id: small, decision: 'approve' }, 'approved');
    });

    it('refuses the second approval of a member whose roles the first approver changed within the period, whichever approves first', async () => {
      nextStep();
      const member = await createStaffAndSignIn(server, { roles: ['finance'], nowMs });
      expect((await staffCall(server, '/v1/staff/staff/setRoles', { staffId: member.staffId, roles: ['finance', 'support'] }, adminB.token)).code).toBe(0);
      const first = await submitReview(server, { kind: 'withdrawal', uid: customer.uid, amountUsd: '2500' });
      await decided(server, adminB.token, { kind: 'withdrawal', id: first, decision: 'approve' }, 'awaiting_second');
      expect((await decide(server, member.token, { kind: 'withdrawal', id: first, decision: 'approve' })).code).toBe(ErrorCode.STAFF_DUTIES_RELATED);
      const second = await submitReview(server, { kind: 'withdrawal', uid: customer.uid, amountUsd: '2500' });
      await decided(server, member.token, { kind: 'withdrawal', id: second, decision: 'approve' }, 'awaiting_second');
      expect((await decide(server, adminB.token, { kind: 'withdrawal', id: second, decision: 'approve' })).code).toBe(ErrorCode.STAFF_DUTIES_RELATED);
      expect(paidOut(first) + paidOut(second)).toBe(0);
    });

    it('voids the first approval of a member disabled before the second: pending again, audited, two fresh approvals needed', async () => {
      nextStep();
      const [approver, second, third] = [
        await createStaffAndSignIn(server, { roles: ['finance'], nowMs }),
        await createStaffAndSignIn(server, { roles: ['finance'], nowMs }),
        await createStaffAndSignIn(server, { roles: ['finance'], nowMs }),
      ];
      const id = await submitReview(server, { kind: 'withdrawal', uid: customer.uid, amountUsd: '3000' });
      await decided(server, approver.token, { kind: 'withdrawal', id, decision: 'approve' }, 'awaiting_second');
      expect((await staffCall(server, '/v1/staff/staff/disable', { staffId: approver.staffId }, adminA.token)).code).toBe(0);
      expect(await itemStatus(server, id)).toBe('pending');
      const voided = await server.database.db.selectFrom('staff_audit').select(['staff_id', 'uid']).where('action', '=', 'reviews.voidApproval').where('target_id', '=', String(id)).execute();
      expect(voided).toEqual([{ staff_id: adminA.staffId, uid: customer.uid }]);
      // What would have been the second approval is now a first one; a third member completes it.
      await decided(server, second.token, { kind: 'withdrawal', id, decision: 'approve' }, 'awaiting_second');
      expect(paidOut(id)).toBe(0);
      await decided(server, third.token, { kind: 'withdrawal', id, decision: 'approve' }, 'approved');
      expect(paidOut(id)).toBe(1);
      const got = await staffCall(server, '/v1/staff/reviews/get', { kind: 'withdrawal', id }, third.token);
      const decisions = (got.data as { decisions: { voidedTime: number | null }[] }).decisions;
      expect(decisions.map((decision) => decision.voidedTime !== null)).toEqual([true, false, false]);
    });
  });

  describe('dual control of valuation and fees', () => {
    const currencies = async () => ((await staffCall(server, '/v1/staff/config/currencies', {}, adminA.token)).data as { list: StaffCurrency[] }).list;
    const currency = async (code: string) => (await currencies()).find((item) => item.code === code)!;
    const termsOf = (item: StaffCurrency) => ({ id: item.id, code: item.code, name: item.name, decimals: item.decimals, icon: item.icon, valuedByProduct: item.valuedByProduct, transferFeeRate: item.transferFeeRate, enabled: item.enabled, sort: item.sort });

    it('refuses USDT valued by the BTCUSDT price, proposed or not (finding 4): the peg stays', async () => {
      const usdt = await currency('USDT');
      const answer = await staffCall(server, '/v1/staff/config/setCurrency', { ...termsOf(usdt), valuedByProduct: 'BTCUSDT' }, adminA.token);
      expect(answer.code).toBe(ErrorCode.VALUATION_SOURCE_MISMATCH);
      expect((await currency('USDT')).valuedByProduct).toBeNull();
      expect(Number((await server.database.db.selectFrom('config_proposal').select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow()).n)).toBe(0);
    });

    it('changes nothing on one admin\'s setCurrency until a second admin approves; the proposer cannot approve (finding 4)', async () => {
      const btc = await currency('BTC');
      const proposed = await staffCall(server, '/v1/staff/config/setCurrency', { ...termsOf(btc), transferFeeRate: '0.5' }, adminA.token);
      expect(proposed.code, proposed.msg).toBe(0);
      const { proposalId, status } = proposed.data as { proposalId: number; status: string };
      expect(status).toBe('proposed');
      expect((await currency('BTC')).transferFeeRate).toBe(btc.transferFeeRate);
      // The console's list: who proposed it, when, before and after.
      const listed = (await staffCall(server, '/v1/staff/config/proposals/list', { status: 'proposed' }, adminB.token)).data as { list: { id: number; proposedBy: { email: string }; before: { transferFeeRate: string }; after: { transferFeeRate: string } }[] };
      expect(listed.list.find((item) => item.id === proposalId)).toMatchObject({ proposedBy: { email: adminA.email }, before: { transferFeeRate: btc.transferFeeRate }, after: { transferFeeRate: '0.5' } });
      const own = await staffCall(server, '/v1/staff/config/proposals/decide', { proposalId, decision: 'approve', requestId: crypto.randomUUID() }, adminA.token);
      expect(own.code).toBe(ErrorCode.PROPOSAL_OWN);
      expect((await currency('BTC')).transferFeeRate).toBe(btc.transferFeeRate);
      const approved = await staffCall(server, '/v1/staff/config/proposals/decide', { proposalId, decision: 'approve', requestId: crypto.randomUUID() }, adminB.token);
      expect(approved.data).toEqual({ status: 'approved' });
      expect((await currency('BTC')).transferFeeRate).toBe('0.5');
      const trail = await server.database.db.selectFrom('staff_audit').select(['staff_id', 'action']).where('action', 'in', ['config.propose', 'config.setCurrency', 'config.approveProposal']).where('target_id', 'in', [String(btc.id), String(proposalId)]).orderBy('id').execute();
      expect(trail).toEqual([
        { staff_id: adminA.staffId, action: 'config.propose' },
        { staff_id: adminB.staffId, action: 'config.setCurrency' },
        { staff_id: adminB.staffId, action: 'config.approveProposal' },
      ]);
      // Put back, by two admins.
      const back = await staffCall(server, '/v1/staff/config/setCurrency', { ...termsOf(btc) }, adminB.token);
      const decidedBack = await staffCall(server, '/v1/staff/config/proposals/decide', { proposalId: (back.data as { proposalId: number }).proposalId, decision: 'approve', requestId: crypto.randomUUID() }, adminA.token);
      expect(decidedBack.data).toEqual({ status: 'approved' });
    });

    it('refuses a stale proposal whose setting changed since, and an approver the proposer created within the period', async () => {
      const eth = await currency('ETH');
      const first = (await staffCall(server, '/v1/staff/config/setCurrency', { ...termsOf(eth), sort: 7 }, adminA.token)).data as { proposalId: number };
      const second = (await staffCall(server, '/v1/staff/config/setCurrency', { ...termsOf(eth), name: 'Ether' }, adminA.token)).data as { proposalId: number };
      expect((await staffCall(server, '/v1/staff/config/proposals/decide', { proposalId: first.proposalId, decision: 'approve', requestId: crypto.randomUUID() }, adminB.token)).data).toEqual({ status: 'approved' });
      const stale = await staffCall(server, '/v1/staff/config/proposals/decide', { proposalId: second.proposalId, decision: 'approve', requestId: crypto.randomUUID() }, adminB.token);
      expect(stale.code).toBe(ErrorCode.PROPOSAL_STALE);
      expect(await currency('ETH')).toMatchObject({ name: eth.name, sort: 7 });
      // An admin made by the proposer cannot be the second admin.
      nextStep();
      const madeByA = await inviteEnrolAndSignIn(server, adminA.token, { roles: ['admin'], nowMs });
      const product = (await staffCall(server, '/v1/staff/config/products', {}, adminA.token)).data as { list: { productCode: string; feeRate: string }[] };
      const target = product.list[0]!;
      const fee = (await staffCall(server, '/v1/staff/config/setProduct', { productCode: target.productCode, fields: { feeRate: '0.05' } }, adminA.token)).data as { proposalId: number };
      expect((await staffCall(server, '/v1/staff/config/proposals/decide', { proposalId: fee.proposalId, decision: 'approve', requestId: crypto.randomUUID() }, madeByA.token)).code).toBe(ErrorCode.STAFF_DUTIES_RELATED);
      const after = (await staffCall(server, '/v1/staff/config/products', {}, adminA.token)).data as { list: { productCode: string; feeRate: string }[] };
      expect(after.list.find((item) => item.productCode === target.productCode)?.feeRate).toBe(target.feeRate);
      // Disabling the proposer voids what they proposed.
      expect((await staffCall(server, '/v1/staff/staff/disable', { staffId: madeByA.staffId }, adminB.token)).code).toBe(0);
    });
  });

  describe('audited reads', () => {
    it('writes one audit row per staff read of a customer\'s personal or money data, with who, what, whom, when and from where', async () => {
      nextStep();
      const reader = await createStaffAndSignIn(server, { roles: ['finance'], nowMs });
      const item = await submitReview(server, { kind: 'withdrawal', uid: customer.uid, amountUsd: '10' });
      const reads: [string, unknown][] = [
        ['/v1/staff/customers/search', { query: String(customer.uid) }],
        ['/v1/staff/customers/get', { uid: customer.uid }],
        ['/v1/staff/customers/ledger', { uid: customer.uid }],
        ['/v1/staff/reviews/get', { kind: 'withdrawal', id: item }],
      ];
      for (const [path, body] of reads) {
        const answer = await staffCall(server, path, body, reader.token, '203.0.113.9');
        expect(answer.code, `${path}: ${answer.msg}`).toBe(0);
      }
      const trail = await staffCall(server, '/v1/staff/audit/list', { staffId: reader.staffId, uid: customer.uid, limit: 100 }, adminA.token);
      const rows = (trail.data as { list: { action: string; staffId: number; targetId: string | null; address: string | null; time: number }[] }).list;
      expect(rows.map((row) => row.action).sort()).toEqual(['customers.get', 'customers.ledger', 'customers.search', 'reviews.get']);
      for (const row of rows) expect(row).toMatchObject({ staffId: reader.staffId, address: '203.0.113.9', time: clock });
    });
  });

  describe('customer two-factor set-up', () => {
    it('cannot overwrite a secret an enable committed between its read and its write: the second factor stays on', async () => {
      const email = newEmail('customer');
      await registerByEmail(server, email);
      const session = await loginByEmail(server, email);
      const { secret } = (await call(server, '/v1/waa/user/twoFactor/setup', {}, session.token)).data as { secret: string };
      nextStep();
      const db = server.database.db;
      const realUpdate = db.updateTable.bind(db);
      let armed = true;
      // Between the second set-up's read (factor off) and its write, the first secret's enable commits.
      const interleave = async () => {
        const enabled = await call(server, '/v1/waa/user/twoFactor/enable', { code: totpCode(secret, nowMs()) }, session.token);
        expect(enabled.code, enabled.msg).toBe(0);
      };
      const delayedExecution = <T extends object>(builder: T): T =>
        new Proxy(builder, {
          get(target, property, receiver) {
            const value: unknown = Reflect.get(target, property, receiver);
            if (typeof value !== 'function') return value;
            if (property === 'execute' || property === 'executeTakeFirst' || property === 'executeTakeFirstOrThrow') {
              return async (...args: unknown[]) => {
                await interleave();
                return (value as (...inner: unknown[]) => unknown).apply(target, args);
              };
            }
            return (...args: unknown[]) => {
              const next: unknown = (value as (...inner: unknown[]) => unknown).apply(target, args);
              return next !== null && typeof next === 'object' && 'execute' in next ? delayedExecution(next) : next;
            };
          },
        });
      const spy = vi.spyOn(db, 'updateTable').mockImplementation(((table: 'app_user') => {
        const builder = realUpdate(table);
        if (!armed || table !== 'app_user') return builder;
        armed = false;
        return delayedExecution(builder);
      }) as typeof db.updateTable);
      let second;
      try {
        second = await call(server, '/v1/waa/user/twoFactor/setup', {}, session.token);
      } finally {
        spy.mockRestore();
      }
      expect(armed).toBe(false);
      expect(second.code).toBe(ErrorCode.STATUS_UNCHANGED);
      expect((await call(server, '/v1/waa/user/twoFactor/status', {}, session.token)).data).toEqual({ enabled: true });
    });
  });
});
