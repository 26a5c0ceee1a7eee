import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../server/auth/totp';
import type { AuditRow } from '../../src/shared/api/staff';
import { startTestServer, testBackends, type TestServer } from './harness';
import { createStaffAndSignIn, invitationTokenFor, secretOf, staffCall, staffPassword } from './support/staff';

let mailbox = 0;
const newEmail = () => `audited${Date.now().toString(36)}${(mailbox += 1)}@example.com`;

describe.each(testBackends())('staff management and the audit trail on $name', (backend) => {
  let server: TestServer;
  let admin: Awaited<ReturnType<typeof createStaffAndSignIn>>;
  let compliance: Awaited<ReturnType<typeof createStaffAndSignIn>>;

  async function auditRows(filter: Record<string, unknown> = {}): Promise<AuditRow[]> {
    const answer = await staffCall(server, '/v1/staff/audit/list', { limit: 100, ...filter }, compliance.token);
    expect(answer.code, answer.msg).toBe(0);
    return (answer.data as { list: AuditRow[] }).list;
  }

  /** The audit rows an action wrote: it must write exactly one. */
  async function theRowOf<T>(action: () => Promise<T>): Promise<{ result: T; row: AuditRow }> {
    const before = await auditRows();
    const result = await action();
    const after = await auditRows();
    const added = after.filter((row) => !before.some((old) => old.id === row.id));
    expect(added).toHaveLength(1);
    return { result, row: added[0]! };
  }

  beforeAll(async () => {
    server = await startTestServer(backend);
    admin = await createStaffAndSignIn(server, { roles: ['admin'] });
    compliance = await createStaffAndSignIn(server, { roles: ['compliance'] });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('staff/create invites: it answers where the invitation went, hands out no credential, and writes one row without the link', async () => {
    const email = newEmail();
    const { result, row } = await theRowOf(() => staffCall(server, '/v1/staff/staff/create', { email, roles: ['finance', 'support'] }, admin.token));
    expect(result.code, result.msg).toBe(0);
    expect(result.data).toEqual({ staffId: expect.any(Number), invitationSentTo: email });
    expect(row).toMatchObject({ staffId: admin.staffId, staffEmail: admin.email, action: 'staff.create', targetType: 'staff', before: null, after: { email, roles: ['support', 'finance'], disabled: false } });
    expect(row.address).toBeTruthy();
    const invitation = await invitationTokenFor(server, email);
    expect(JSON.stringify(row)).not.toContain(invitation);
    const list = await staffCall(server, '/v1/staff/staff/list', { limit: 100 }, admin.token);
    expect((list.data as { list: { email: string; enrolled: boolean; lastSignInTime: number | null }[] }).list.find((member) => member.email === email)).toMatchObject({ enrolled: false, lastSignInTime: null });
  });

  it('refuses an e-mail that already has a staff account (1004) and writes nothing', async () => {
    const before = await auditRows();
    expect((await staffCall(server, '/v1/staff/staff/create', { email: admin.email.toUpperCase(), roles: ['support'] }, admin.token)).code).toBe(1004);
    expect(await auditRows()).toEqual(before);
  });

  it('staff/setRoles writes one row with the roles before and after; the new roles apply to the next call', async () => {
    const member = await createStaffAndSignIn(server, { roles: ['support'] });
    expect((await staffCall(server, '/v1/staff/audit/list', {}, member.token)).code).toBe(2001);
    const { result, row } = await theRowOf(() => staffCall(server, '/v1/staff/staff/setRoles', { staffId: member.staffId, roles: ['compliance', 'support'] }, admin.token));
    expect(result.code, result.msg).toBe(0);
    expect(row).toMatchObject({ action: 'staff.setRoles', targetId: String(member.staffId), before: { roles: ['support'] }, after: { roles: ['support', 'compliance'] } });
    expect((await staffCall(server, '/v1/staff/audit/list', {}, member.token)).code).toBe(0);
    expect((await staffCall(server, '/v1/staff/staff/setRoles', { staffId: member.staffId, roles: ['support', 'compliance'] }, admin.token)).code).toBe(1017);
  });

  it('staff/disable writes one row; an admin cannot disable themselves or take away their own admin role (2006)', async () => {
    const member = await createStaffAndSignIn(server, { roles: ['finance'] });
    const { result, row } = await theRowOf(() => staffCall(server, '/v1/staff/staff/disable', { staffId: member.staffId }, admin.token));
    expect(result.code, result.msg).toBe(0);
    expect(row).toMatchObject({ action: 'staff.disable', targetId: String(member.staffId), before: { disabled: false }, after: { disabled: true } });
    const rowsBefore = await auditRows();
    expect((await staffCall(server, '/v1/staff/staff/disable', { staffId: admin.staffId }, admin.token)).code).toBe(2006);
    expect((await staffCall(server, '/v1/staff/staff/setRoles', { staffId: admin.staffId, roles: ['support'] }, admin.token)).code).toBe(2006);
    // ADMIN_NOT_FOUND: no staff member of that id.
    expect((await staffCall(server, '/v1/staff/staff/disable', { staffId: 999_999 }, admin.token)).code).toBe(2022);
    expect((await staffCall(server, '/v1/staff/staff/setRoles', { staffId: 999_999, roles: ['support'] }, admin.token)).code).toBe(2022);
    expect(await auditRows()).toEqual(rowsBefore);
    expect((await staffCall(server, '/v1/staff/me', {}, admin.token)).data).toMatchObject({ roles: ['admin'] });
  });

  it('a password change writes one row that says the one-time password was replaced, never a password', async () => {
    const email = newEmail();
    const { oneTimePassword, otpauthUrl } = await server.app.staff.management.create({ email, roles: ['support'] }, { staffId: null, address: 'cli' });
    const login = await staffCall(server, '/v1/staff/login', { email, password: oneTimePassword, code: totpCode(secretOf(otpauthUrl), Date.now()) });
    const { token } = login.data as { token: string };
    const { row } = await theRowOf(() => staffCall(server, '/v1/staff/password', { oldPassword: oneTimePassword, newPassword: staffPassword }, token));
    expect(row).toMatchObject({ action: 'staff.changePassword', staffEmail: email, before: { mustChangePassword: true }, after: { mustChangePassword: false } });
    expect(JSON.stringify(row)).not.toContain(oneTimePassword);
    expect(JSON.stringify(row)).not.toContain(staffPassword);
  });

  it('audit/list filters by staff member, customer and action, newest first, in pages', async () => {
    const actor = { staffId: admin.staffId, email: admin.email, roles: ['admin' as const], address: '198.51.100.7' };
    for (const [uid, enable] of [[41, true], [42, false], [41, false]] as const) {
      await server.app.staff.audit.record(server.database.db, actor, { action: 'test.prohibit', targetType: 'customer', targetId: String(uid), uid, before: { prohibited: !enable }, after: { prohibited: enable } });
    }
    const forCustomer = await auditRows({ uid: 41 });
    expect(forCustomer.map((row) => row.targetId)).toEqual(['41', '41']);
    expect(forCustomer[0]!.id).toBeGreaterThan(forCustomer[1]!.id);
    expect(forCustomer[0]).toMatchObject({ after: { prohibited: false }, address: '198.51.100.7', staffEmail: admin.email });
    expect((await auditRows({ action: 'test.prohibit' })).map((row) => row.targetId)).toEqual(['41', '42', '41']);
    const byCompliance = await auditRows({ staffId: compliance.staffId });
    // Newest first: the member's own document declared, after the one-time password's change, after the sign-in (every sign-in is audited).
    expect(byCompliance.map((row) => row.action)).toEqual(['staff.declareDocument', 'staff.changePassword', 'staff.signIn']);
    const firstPage = await staffCall(server, '/v1/staff/audit/list', { action: 'test.prohibit', page: 1, limit: 2 }, compliance.token);
    const secondPage = await staffCall(server, '/v1/staff/audit/list', { action: 'test.prohibit', page: 2, limit: 2 }, compliance.token);
    expect(firstPage.data).toMatchObject({ pages: 2, list: [{ targetId: '41' }, { targetId: '42' }] });
    expect(secondPage.data).toMatchObject({ pages: 2, list: [{ targetId: '41' }] });
  });

  it('refuses to change or delete an audit row in the database itself', async () => {
    const { db } = server.database;
    const rows = await db.selectFrom('staff_audit').select('id').execute();
    expect(rows.length).toBeGreaterThan(0);
    await expect(db.updateTable('staff_audit').set({ action: 'rewritten' }).execute()).rejects.toThrow(/append-only/);
    await expect(db.deleteFrom('staff_audit').execute()).rejects.toThrow(/append-only/);
    await expect(sql`truncate staff_audit`.execute(db)).rejects.toThrow(/append-only/);
    expect(await db.selectFrom('staff_audit').select('id').execute()).toHaveLength(rows.length);
    expect(await db.selectFrom('staff_audit').select('action').where('action', '=', 'rewritten').execute()).toEqual([]);
  });
});
