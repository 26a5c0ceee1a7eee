import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedger, type Ledger } from '../../server/modules/ledger/ledger';
import { HouseAccountKind } from '../../server/modules/ledger/ledger-kinds';
import { ErrorCode } from '../../src/shared/errors/catalogue';
import { encodeField } from '../../src/shared/money/encoded-field';
import { formatMoney } from '../../src/shared/money/money';
import { readAccessToken } from '../../src/shared/session/token';
import { post, startTestServer, testBackends, type TestServer } from './harness';
import { call, loginByEmail, registerByEmail } from './identity-support';
import { decide, decided } from './reviews-support';
import { creditWallet, keyedCall, saveAddress, tronAddress, usdtTrc20Of, type CoinNetwork } from './support/money-controls';
import { createStaffAndSignIn, inviteEnrolAndSignIn, staffCall } from './support/staff';

type Staff = Awaited<ReturnType<typeof createStaffAndSignIn>>;
interface Customer {
  uid: number;
  token: string;
  aesKey: string;
  address: string;
}

const dayMs = 24 * 3600 * 1000;
let serial = 0;
const unique = () => `${Date.now().toString(36)}${(serial += 1)}`;

/**
 * Conflict of interest (issue 31's last gap): a finance member holding a customer account of
 * their own under another e-mail approved, alone and under every threshold, a withdrawal from
 * it. Now an account is linked to a member by the document they declared, by their mailbox,
 * or by a declaration, and a linked member decides none of its items; a member who declared
 * no document decides nothing. The thresholds are the defaults' order (FOUR_EYES_USD 1,000):
 * every withdrawal here is one a member may approve alone.
 */
describe.each(testBackends())('staff conflicts of interest on $name', (backend) => {
  let server: TestServer;
  let ledger: Ledger;
  let compliance: Staff;
  let independent: Staff;
  let usdtTrc20: CoinNetwork;

  beforeAll(async () => {
    server = await startTestServer(backend, { FOUR_EYES_USD: '1000', CODES_SENT_PER_10_MIN: '500', CODE_CHECKS_PER_10_MIN: '500', LOGIN_ATTEMPTS_PER_15_MIN: '500' });
    ledger = createLedger(server.database.db);
    [compliance, independent] = await Promise.all([createStaffAndSignIn(server, { roles: ['compliance'] }), createStaffAndSignIn(server, { roles: ['finance'] })]);
    const probe = await customerWith(`probe${unique()}@example.com`);
    usdtTrc20 = await usdtTrc20Of(server, probe.token);
  });
  afterAll(async () => {
    await server?.close();
  });

  async function customerWith(email: string): Promise<Customer> {
    await registerByEmail(server, email);
    const session = await loginByEmail(server, email);
    const info = (await call(server, '/v1/waa/user/info', {}, session.token)).data as { uid: number };
    return { uid: info.uid, token: session.token, aesKey: readAccessToken(session.token)!.aesKey, address: tronAddress() };
  }

  /** The customer's junior verification with `idCard`, approved by the compliance member. */
  async function verifiedWith(who: Customer, idCard: string) {
    const submitted = (await post(server.app, '/v1/waa/user/firstAuth/submit', { locale: 'en', realName: 'Mina Park', idCard }, { authorization: `Bearer ${who.token}`, 'idempotency-key': crypto.randomUUID() })).json() as {
      code: number;
      msg: string;
    };
    expect(submitted.code, submitted.msg).toBe(0);
    const item = await server.database.db.selectFrom('review_item').select('id').where('kind', '=', 'juniorIdentity').where('uid', '=', who.uid).where('status', '=', 'pending').executeTakeFirstOrThrow();
    await decided(server, compliance.token, { kind: 'juniorIdentity', id: item.id, decision: 'approve' }, 'approved');
  }

  /** A verified customer with a saved address (its hold waited out) and 5,000 USDT, who asks to withdraw 500. */
  async function withdrawalFrom(email: string, idCard = `J-${unique()}`) {
    const who = await customerWith(email);
    await verifiedWith(who, idCard);
    const saved = await saveAddress(server, who, usdtTrc20.id, who.address);
    expect(saved.code, saved.msg).toBe(0);
    const dayAgo = new Date(Date.now() - dayMs - 60_000);
    await server.database.db.updateTable('saved_crypto_address').set({ created_at: dayAgo } as never).where('uid', '=', who.uid).execute();
    await server.database.db.updateTable('app_user').set({ security_changed_at: dayAgo }).where('uid', '=', who.uid).where('security_changed_at', 'is not', null).execute();
    await creditWallet(server, ledger, who.uid, '5000');
    const asked = await keyedCall(
      server,
      '/v1/waa/withdraw/submit',
      { num: '500', practicalNum: '499', currencyId: usdtTrc20.currencyId, coinId: usdtTrc20.id, paymentAddress: encodeField(who.address, who.aesKey), locale: 'en' },
      who.token,
    );
    expect(asked.code, asked.msg).toBe(0);
    const item = await server.database.db.selectFrom('review_item').select(['id', 'needs_two_approvals']).where('kind', '=', 'withdrawal').where('uid', '=', who.uid).executeTakeFirstOrThrow();
    // One member may approve it alone: the attack needs no accomplice.
    expect(item.needs_two_approvals).toBe(false);
    return { who, id: item.id };
  }

  const paidOut = () => ledger.balance({ owner: null, book: 'real', kind: HouseAccountKind.withdrawals, currency: 'USDT' });
  const statusOf = async (id: number) => (await server.database.db.selectFrom('review_item').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

  it("refuses a member's approval of a withdrawal from an account verified with their own document, under another e-mail; an independent member pays it", async () => {
    const document = `P${unique().toUpperCase()}`;
    const insider = await createStaffAndSignIn(server, { roles: ['finance'], document });
    // The customer account typed the number differently: compared as the document prints it.
    const { id } = await withdrawalFrom(`private${unique()}@mail.example`, `${document.slice(0, 3)}-${document.slice(3).toLowerCase()}`);
    const before = await paidOut();

    // Before: approved and paid, 499 USDT to the member's own address.
    const refused = await decide(server, insider.token, { kind: 'withdrawal', id, decision: 'approve' });
    expect(refused.code).toBe(ErrorCode.STAFF_CUSTOMER_LINKED);
    expect(refused.msg).toContain('linked to you');
    // A rejection is a decision too.
    expect((await decide(server, insider.token, { kind: 'withdrawal', id, decision: 'reject', reason: 'mine' })).code).toBe(ErrorCode.STAFF_CUSTOMER_LINKED);
    expect(await statusOf(id)).toBe('pending');
    expect(await paidOut()).toBe(before);
    const decisions = await server.database.db.selectFrom('review_decision').select('staff_id').where('review_id', '=', id).execute();
    expect(decisions).toEqual([]);

    await decided(server, independent.token, { kind: 'withdrawal', id, decision: 'approve' }, 'approved');
    expect(formatMoney((await paidOut()) - before)).toBe('499.00');
  });

  it("refuses one admin's invited member an approval of the admin's own withdrawal: the puppet is not independent of who made it", async () => {
    const document = `A${unique().toUpperCase()}`;
    const admin = await createStaffAndSignIn(server, { roles: ['admin'], document });
    const { id } = await withdrawalFrom(`admin-private${unique()}@mail.example`, document);
    // The admin cannot approve it: it is theirs.
    expect((await decide(server, admin.token, { kind: 'withdrawal', id, decision: 'approve' })).code).toBe(ErrorCode.STAFF_CUSTOMER_LINKED);
    // Nor can a member they invited to an address they read, who declared a document of its own.
    const puppet = await inviteEnrolAndSignIn(server, admin.token, { roles: ['finance'], nowMs: Date.now });
    const before = await paidOut();
    const refused = await decide(server, puppet.token, { kind: 'withdrawal', id, decision: 'approve' });
    expect(refused.code).toBe(ErrorCode.STAFF_CUSTOMER_LINKED_RELATED);
    expect(refused.msg).toContain('a member you created or who created you');
    expect(await statusOf(id)).toBe('pending');
    expect(await paidOut()).toBe(before);
    // The puppet still decides other customers' items: the link is to the admin's accounts only.
    const other = await withdrawalFrom(`unrelated${unique()}@mail.example`);
    await decided(server, puppet.token, { kind: 'withdrawal', id: other.id, decision: 'approve' }, 'approved');
  });

  it('links an account whose e-mail is the member’s own mailbox (case and +tag aside)', async () => {
    const local = `mina.park${unique()}`;
    const insider = await createStaffAndSignIn(server, { roles: ['finance'], email: `${local}@brand.example` });
    const { id } = await withdrawalFrom(`${local.toUpperCase()}+savings@brand.example`);
    expect((await decide(server, insider.token, { kind: 'withdrawal', id, decision: 'approve' })).code).toBe(ErrorCode.STAFF_CUSTOMER_LINKED);
    expect(await statusOf(id)).toBe('pending');
  });

  it('links an account the member declared, or compliance recorded for them, and shows the links to the member and to admins', async () => {
    const insider = await createStaffAndSignIn(server, { roles: ['finance'] });
    const declaredOne = await withdrawalFrom(`declared${unique()}@mail.example`);
    const recordedOne = await withdrawalFrom(`recorded${unique()}@mail.example`);
    expect((await staffCall(server, '/v1/staff/me/declareAccount', { uid: declaredOne.who.uid }, insider.token)).code).toBe(0);
    // Declaring it again changes nothing.
    expect((await staffCall(server, '/v1/staff/me/declareAccount', { uid: declaredOne.who.uid }, insider.token)).code).toBe(0);
    expect((await staffCall(server, '/v1/staff/staff/recordAccountLink', { staffId: insider.staffId, uid: recordedOne.who.uid }, compliance.token)).code).toBe(0);
    for (const { id } of [declaredOne, recordedOne]) {
      expect((await decide(server, insider.token, { kind: 'withdrawal', id, decision: 'approve' })).code).toBe(ErrorCode.STAFF_CUSTOMER_LINKED);
    }

    const mine = await staffCall(server, '/v1/staff/me/declarations', {}, insider.token);
    expect(mine.data).toMatchObject({
      document: { masked: expect.stringMatching(/^ST\*+[0-9a-f]{2}$/i) },
      accounts: [
        { uid: declaredOne.who.uid, recordedBy: insider.email },
        { uid: recordedOne.who.uid, recordedBy: compliance.email },
      ],
    });
    const admin = await createStaffAndSignIn(server, { roles: ['admin'] });
    const listed = await staffCall(server, '/v1/staff/staff/list', { page: 1, limit: 100 }, admin.token);
    const row = (listed.data as { list: { staffId: number; documentDeclared: boolean; linkedUids: number[] }[] }).list.find((member) => member.staffId === insider.staffId);
    expect(row).toMatchObject({ documentDeclared: true, linkedUids: [declaredOne.who.uid, recordedOne.who.uid] });
    // An unknown account is refused; nothing is recorded.
    expect((await staffCall(server, '/v1/staff/me/declareAccount', { uid: 99_999_999 }, insider.token)).code).toBe(ErrorCode.DATA_NOT_FOUND);
  });

  it('lets a member decide nothing before declaring their document, once, and one document for one member only', async () => {
    const { id } = await withdrawalFrom(`undeclared${unique()}@mail.example`);
    const newcomer = await createStaffAndSignIn(server, { roles: ['finance'], document: null });
    const refused = await decide(server, newcomer.token, { kind: 'withdrawal', id, decision: 'approve' });
    expect(refused.code).toBe(ErrorCode.STAFF_DOCUMENT_UNDECLARED);
    expect(await staffCall(server, '/v1/staff/me/declarations', {}, newcomer.token)).toMatchObject({ code: 0, data: { document: null, accounts: [] } });

    const document = `D${unique().toUpperCase()}`;
    // Another member already holds this document: a second staff account of one person is refused.
    await createStaffAndSignIn(server, { roles: ['finance'], document });
    expect((await staffCall(server, '/v1/staff/me/declareDocument', { documentNumber: ` ${document.toLowerCase()} ` }, newcomer.token)).code).toBe(ErrorCode.STAFF_DOCUMENT_DECLARED);
    expect((await staffCall(server, '/v1/staff/me/declareDocument', { documentNumber: `N${unique()}` }, newcomer.token)).code).toBe(0);
    // Declared once: it cannot be changed to escape a link.
    expect((await staffCall(server, '/v1/staff/me/declareDocument', { documentNumber: `M${unique()}` }, newcomer.token)).code).toBe(ErrorCode.STAFF_DOCUMENT_DECLARED);
    await decided(server, newcomer.token, { kind: 'withdrawal', id, decision: 'approve' }, 'approved');

    // In parallel: one member's two numbers, and two members' one number: one declaration each time, the other refused.
    const racer = await createStaffAndSignIn(server, { roles: ['finance'], document: null });
    const raced = await Promise.all([`R${unique()}`, `S${unique()}`].map((documentNumber) => staffCall(server, '/v1/staff/me/declareDocument', { documentNumber }, racer.token)));
    expect(raced.map((answer) => answer.code).sort()).toEqual([0, ErrorCode.STAFF_DOCUMENT_DECLARED]);
    const [first, second] = await Promise.all([createStaffAndSignIn(server, { roles: ['finance'], document: null }), createStaffAndSignIn(server, { roles: ['finance'], document: null })]);
    const shared = `T${unique()}`;
    const both = await Promise.all([first, second].map((member) => staffCall(server, '/v1/staff/me/declareDocument', { documentNumber: shared }, member.token)));
    expect(both.map((answer) => answer.code).sort()).toEqual([0, ErrorCode.STAFF_DOCUMENT_DECLARED]);

    // The trail holds the mask, never the number or its digest.
    const trail = JSON.stringify(await server.database.db.selectFrom('staff_audit').select(['action', 'after']).where('action', '=', 'staff.declareDocument').execute());
    expect(trail).not.toContain(document);
    const digest = (await server.database.db.selectFrom('staff_member').select('document_digest').where('id', '=', newcomer.staffId).executeTakeFirstOrThrow()).document_digest!;
    expect(trail).not.toContain(digest);
  });
});
