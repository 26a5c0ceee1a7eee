import { expect } from 'vitest';
import { totpCode } from '../../../server/auth/totp';
import type { StaffRole } from '../../../src/shared/staff/roles';
import { post, type TestServer } from '../harness';

/** The password every test staff member changes their one-time password to. */
export const staffPassword = 'staff horse battery 9';

let members = 0;

/** The base32 secret an otpauth URL enrols, for computing codes as an authenticator app would. */
export function secretOf(otpauthUrl: string): string {
  const secret = new URL(otpauthUrl).searchParams.get('secret');
  expect(secret, 'the otpauth URL names a secret').toMatch(/^[A-Z2-7]+$/);
  return secret!;
}

/** A staff call as the console makes it: the answer's HTTP status and envelope. */
export async function staffCall(server: Pick<TestServer, 'app'>, path: string, body: unknown = {}, token?: string, address?: string) {
  const response = address
    ? await server.app.inject({
        method: 'POST',
        url: path,
        remoteAddress: address,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        payload: JSON.stringify(body),
      })
    : await post(server.app, path, body, token ? { authorization: `Bearer ${token}` } : {});
  return { status: response.statusCode, ...(response.json() as { code: number; msg: string; data: unknown }) };
}

/**
 * A signed-in staff member with `roles`, as an operator would make one: created through
 * the same function as `npm run staff -- create`, signed in with the one-time password and
 * a TOTP code computed from the enrolled secret (at `nowMs()`, the server's clock when the
 * test drives one), and the one-time password changed to {@link staffPassword}.
 */
export async function createStaffAndSignIn(
  server: Pick<TestServer, 'app'>,
  options: { roles: StaffRole[]; email?: string; nowMs?: () => number },
): Promise<{ token: string; refreshToken: string; staffId: number; email: string; secret: string }> {
  const nowMs = options.nowMs ?? Date.now;
  const email = options.email ?? `staff${Date.now().toString(36)}${(members += 1)}@example.com`;
  const created = await server.app.staff.management.create({ email, roles: options.roles }, { staffId: null, address: 'cli' });
  const secret = secretOf(created.otpauthUrl);
  const login = await staffCall(server, '/v1/staff/login', { email, password: created.oneTimePassword, code: totpCode(secret, nowMs()) });
  expect(login.code, login.msg).toBe(0);
  const session = login.data as { token: string; refreshToken: string; mustChangePassword: boolean };
  expect(session.mustChangePassword).toBe(true);
  const changed = await staffCall(server, '/v1/staff/password', { oldPassword: created.oneTimePassword, newPassword: staffPassword }, session.token);
  expect(changed.code, changed.msg).toBe(0);
  return { token: session.token, refreshToken: session.refreshToken, staffId: created.staffId, email: created.email, secret };
}
