import crypto from 'node:crypto';
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
  options: { roles: StaffRole[]; email?: string; nowMs?: () => number; document?: string | null },
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
  await declareOwnDocument(server, session.token, options.document);
  return { token: session.token, refreshToken: session.refreshToken, staffId: created.staffId, email: created.email, secret };
}

/**
 * A member's own identity document declared, as every member does before deciding a review
 * item (conflict of interest): a number of their own unless the test names one; `null` leaves
 * the member undeclared.
 */
async function declareOwnDocument(server: Pick<TestServer, 'app'>, token: string, document: string | null | undefined) {
  if (document === null) return;
  const declared = await staffCall(server, '/v1/staff/me/declareDocument', { documentNumber: document ?? `STAFF-${crypto.randomUUID()}` }, token);
  expect(declared.code, declared.msg).toBe(0);
}

/** The invitation token a member's invitation message carries (the link's fragment), as the member's mail shows it. */
export async function invitationTokenFor(server: Pick<TestServer, 'app' | 'delivery'>, email: string): Promise<string> {
  await server.app.identity.settled();
  const messages = await server.delivery.outboxFor(email);
  const link = messages.filter((message) => message.purpose === 'staff invitation').at(-1)?.code;
  expect(link, `an invitation sent to ${email}`).toMatch(/\/staff\/enrol#[A-Za-z0-9_-]{40,}$/);
  return link!.slice(link!.indexOf('#') + 1);
}

/**
 * A member an admin invited (`staff/create`), enrolled as they would from their mail: their own
 * password ({@link staffPassword}) and authenticator, confirmed with a first code, then signed
 * in with the next step's code (the confirming one is spent). `nowMs` is the server's clock.
 */
export async function inviteEnrolAndSignIn(
  server: Pick<TestServer, 'app' | 'delivery'>,
  adminToken: string,
  options: { roles: StaffRole[]; email?: string; nowMs: () => number; document?: string | null },
): Promise<{ token: string; refreshToken: string; staffId: number; email: string; secret: string }> {
  const email = options.email ?? `invited${Date.now().toString(36)}${(members += 1)}@example.com`;
  const created = await staffCall(server, '/v1/staff/staff/create', { email, roles: options.roles }, adminToken);
  expect(created.code, created.msg).toBe(0);
  const { staffId } = created.data as { staffId: number };
  const invitation = await invitationTokenFor(server, email);
  const enrolled = await staffCall(server, '/v1/staff/enrol', { token: invitation, password: staffPassword });
  expect(enrolled.code, enrolled.msg).toBe(0);
  const secret = secretOf((enrolled.data as { otpauthUrl: string }).otpauthUrl);
  const confirmed = await staffCall(server, '/v1/staff/enrol/confirm', { token: invitation, code: totpCode(secret, options.nowMs()) });
  expect(confirmed.code, confirmed.msg).toBe(0);
  // The next step's code: within the accepted drift, and later than the spent one.
  const login = await staffCall(server, '/v1/staff/login', { email, password: staffPassword, code: totpCode(secret, options.nowMs() + 30_000) });
  expect(login.code, login.msg).toBe(0);
  const session = login.data as { token: string; refreshToken: string; mustChangePassword: boolean };
  expect(session.mustChangePassword).toBe(false);
  await declareOwnDocument(server, session.token, options.document);
  return { token: session.token, refreshToken: session.refreshToken, staffId, email, secret };
}

/** A dual-controlled change as two admins make it: one proposes, the other approves; answers the proposal's id. */
export async function proposeAndApprove(server: Pick<TestServer, 'app'>, path: string, body: unknown, proposerToken: string, approverToken: string): Promise<number> {
  const proposed = await staffCall(server, path, body, proposerToken);
  expect(proposed.code, proposed.msg).toBe(0);
  const { proposalId, status } = proposed.data as { proposalId: number; status: string };
  expect(status).toBe('proposed');
  const approved = await staffCall(server, '/v1/staff/config/proposals/decide', { proposalId, decision: 'approve', requestId: crypto.randomUUID() }, approverToken);
  expect(approved.code, approved.msg).toBe(0);
  expect(approved.data).toEqual({ status: 'approved' });
  return proposalId;
}
