import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffAccessAllows, staffRouteAccess, type StaffAccess } from '../../src/shared/staff/access';
import { reviewKindRole, reviewKinds, staffRoles, type StaffRole } from '../../src/shared/staff/roles';
import { startTestServer, testBackends, type TestServer } from './harness';
import { loginByEmail, registerByEmail } from './identity-support';
import { createStaffAndSignIn, staffCall } from './support/staff';

/** The bodies a route is called with: `{}`, or for a route whose access follows the review kind, one per kind. */
function probes(access: StaffAccess): { body: Record<string, unknown>; kindRole?: StaffRole }[] {
  if (access !== 'byReviewKind') return [{ body: {} }];
  return reviewKinds.map((kind) => ({ body: { kind }, kindRole: reviewKindRole[kind] }));
}

/**
 * The role matrix: every route the fully built server declared (the staff modules of other
 * streams included, as they are added) is called by a staff member of each single role, by
 * an admin and with a customer's token, and must be refused exactly where the shared route
 * table says: 2001 (HTTP 403) for a staff member without the role, 401 for a customer.
 */
describe.each(testBackends())('staff role matrix on $name', (backend) => {
  let server: TestServer;
  const tokens = new Map<StaffRole, string>();
  let customerToken: string;

  beforeAll(async () => {
    server = await startTestServer(backend);
    for (const role of staffRoles) tokens.set(role, (await createStaffAndSignIn(server, { roles: [role] })).token);
    const email = `matrix${Date.now().toString(36)}@example.com`;
    await registerByEmail(server, email);
    customerToken = (await loginByEmail(server, email)).token;
  });
  afterAll(async () => {
    await server?.close();
  });

  it("declares only paths of the shared route table, with the table's access, the staff core's own among them", () => {
    const table = server.app.staffRoutes.table();
    for (const { path, access } of table) expect(access, path).toEqual(staffRouteAccess[path as keyof typeof staffRouteAccess]);
    const paths = table.map((entry) => entry.path);
    expect(new Set(paths).size).toBe(paths.length);
    for (const path of ['/v1/staff/me', '/v1/staff/password', '/v1/staff/logout', '/v1/staff/staff/list', '/v1/staff/staff/create', '/v1/staff/staff/setRoles', '/v1/staff/staff/disable', '/v1/staff/audit/list']) {
      expect(paths).toContain(path);
    }
  });

  it('refuses each role exactly where the table says, lets admin call everything, and answers a customer 401', async () => {
    const table = server.app.staffRoutes.table();
    const refusedWhereAllowed: string[] = [];
    const allowedWhereRefused: string[] = [];
    for (const { path, access } of table) {
      for (const { body, kindRole } of probes(access)) {
        const label = `${path} ${JSON.stringify(body)}`;
        const customer = await staffCall(server, path, body, customerToken);
        expect(customer, `customer on ${label}`).toMatchObject({ status: 401, code: 400 });
        const nobody = await staffCall(server, path, body);
        expect(nobody, `no token on ${label}`).toMatchObject({ status: 401, code: 400 });
        for (const role of staffRoles) {
          const answer = await staffCall(server, path, body, tokens.get(role));
          const refused = answer.status === 403 && answer.code === 2001;
          const allowed = staffAccessAllows([role], access, kindRole);
          if (allowed && refused) refusedWhereAllowed.push(`${role} on ${label}`);
          if (!allowed && !refused) allowedWhereRefused.push(`${role} on ${label}: ${answer.status} ${answer.code}`);
          // A caller the table allows got past every check: not a sign-in refusal either.
          if (allowed) expect([400, 2002, 23519], `${role} on ${label}`).not.toContain(answer.code);
        }
      }
    }
    expect(refusedWhereAllowed).toEqual([]);
    expect(allowedWhereRefused).toEqual([]);
  });

  it('reads the review kind before the role: an unknown kind answers 1001, not 2001', async () => {
    const byKind = server.app.staffRoutes.table().filter((entry) => entry.access === 'byReviewKind');
    for (const { path } of byKind) {
      expect(await staffCall(server, path, { kind: 'lottery' }, tokens.get('support')), path).toMatchObject({ code: 1001 });
    }
  });
});
