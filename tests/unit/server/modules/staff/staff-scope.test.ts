import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contract } from '../../../../../src/shared/api/contract';
import { staffMe } from '../../../../../src/shared/api/staff';
import { registerErrorHandler } from '../../../../../server/http/error-handler';
import { registerStaffScope } from '../../../../../server/modules/staff/staff-scope';
import type { StaffSessions } from '../../../../../server/modules/staff/staff-sessions';

/** 'admin' and 'support' are live sessions of those roles, 'ended' an ended one; anything else is no staff token. */
const sessions = {
  check: async (bearer: string) => {
    if (bearer === 'ended') return { kind: 'ended' as const };
    if (bearer !== 'admin' && bearer !== 'support') return { kind: 'none' as const };
    return { kind: 'live' as const, session: { staffId: 1, familyId: 'f', email: 'a@example.com', roles: [bearer], mustChangePassword: false } };
  },
} as unknown as StaffSessions;

function bare() {
  const app = Fastify({ logger: false });
  registerErrorHandler(app);
  return { app, scope: registerStaffScope(app, sessions) };
}

describe('the staff scope', () => {
  it('fails at start for a staff path missing from the shared route table', () => {
    const { scope } = bare();
    const unlisted = contract('/v1/staff/secret/backdoor', z.strictObject({}), z.null());
    expect(() => scope.staffRoutes.route(unlisted, async () => null)).toThrow(/not in the staff route table/);
  });

  it('fails at start for a /v1/staff/ route declared outside the scope, however it is spelled', async () => {
    for (const path of ['/v1/staff/me', '/v1/STAFF/config/setSwitch', '/v1//staff/x']) {
      const { app } = bare();
      expect(() => app.post(path, async () => 'open'), path).toThrow(/declare it through the staff scope/);
    }
  });

  it('checks the token, then the role, before the body; lists what it declared', async () => {
    const { app, scope } = bare();
    const setRoles = contract('/v1/staff/staff/setRoles', z.strictObject({ staffId: z.number() }), z.null());
    scope.staffRoutes.route(setRoles, async () => null);
    scope.staffRoutes.route(staffMe, async (_body, request) => ({ staffId: request.staff.staffId, email: request.staff.email, roles: request.staff.roles, mustChangePassword: false }));
    const call = (token: string | undefined, body: unknown) =>
      app.inject({ method: 'POST', url: setRoles.path, payload: body as object, headers: token ? { authorization: `Bearer ${token}` } : {} });
    expect((await call(undefined, {})).statusCode).toBe(401);
    expect((await call('ended', {})).json()).toMatchObject({ code: 23519 });
    expect(await call('support', { wrong: true })).toMatchObject({ statusCode: 403 });
    expect((await call('support', { wrong: true })).json()).toMatchObject({ code: 2001 });
    expect((await call('admin', { wrong: true })).json()).toMatchObject({ code: 1001 });
    expect((await call('admin', { staffId: 3 })).json()).toMatchObject({ code: 0 });
    expect(scope.staffRoutes.table()).toEqual([
      { path: '/v1/staff/staff/setRoles', access: ['admin'] },
      { path: '/v1/staff/me', access: 'any' },
    ]);
  });
});
