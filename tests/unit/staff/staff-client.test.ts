import { describe, expect, it } from 'vitest';
import { customersSearch, staffMe } from '../../../src/shared/api/staff';
import { createStaffClient, StaffRequestError, type SignedOutReason, type StaffFailure, type StaffTokens, type TokenStore } from '../../../src/staff/api/staff-client';

function memoryStore(initial: StaffTokens | null): TokenStore & { current: StaffTokens | null } {
  const store = {
    current: initial,
    read: () => store.current,
    write: (tokens: StaffTokens | null) => {
      store.current = tokens;
    },
  };
  return store;
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const me = { staffId: 3, email: 'ops@example.com', roles: ['support'], mustChangePassword: false };

/** A fake staff server: access token `access-N` is good while N is the latest rotation; refresh token `refresh-N` rotates once. */
function fakeServer(options: { refreshWorks: boolean }) {
  let generation = 1;
  const calls: string[] = [];
  const fetchImpl: typeof fetch = async (input, init) => {
    const path = String(input);
    const body = JSON.parse(String(init?.body ?? '{}')) as { refreshToken?: string };
    const auth = new Headers(init?.headers).get('authorization');
    calls.push(`${path} ${auth ?? ''}`.trim());
    if (path.endsWith('/v1/staff/refresh')) {
      if (!options.refreshWorks || body.refreshToken !== `refresh-${generation}`) return json(200, { code: 1004, msg: 'refresh refused', data: null });
      generation += 1;
      return json(200, { code: 0, msg: 'ok', data: { token: `access-${generation}`, refreshToken: `refresh-${generation}` } });
    }
    if (auth !== `Bearer access-${generation}`) return json(401, { code: 5, msg: 'not signed in', data: null });
    if (path.endsWith('/v1/staff/me')) return json(200, { code: 0, msg: 'ok', data: me });
    if (path.includes('/v1/staff/file/')) return new Response(new Blob(['image bytes'], { type: 'image/png' }), { status: 200 });
    return json(200, { code: 23519, msg: 'session ended', data: null });
  };
  return { fetchImpl, calls, rotate: () => (generation += 1) };
}

function client(store: TokenStore, fetchImpl: typeof fetch) {
  const reports: StaffFailure[] = [];
  const signedOut: SignedOutReason[] = [];
  const staff = createStaffClient({
    apiRoot: 'http://console.test',
    tokens: store,
    getLanguage: () => 'en',
    report: (failure) => reports.push(failure),
    onSignedOut: (reason) => signedOut.push(reason),
    fetchImpl,
  });
  return { staff, reports, signedOut };
}

describe('the staff request client', () => {
  it('sends the bearer token and answers the call', async () => {
    const server = fakeServer({ refreshWorks: true });
    const { staff } = client(memoryStore({ token: 'access-1', refreshToken: 'refresh-1' }), server.fetchImpl);
    await expect(staff.call(staffMe, {})).resolves.toEqual(me);
    expect(server.calls).toEqual(['http://console.test/v1/staff/me Bearer access-1']);
  });

  it('refreshes once on 401, keeps the rotated tokens and retries the call', async () => {
    const server = fakeServer({ refreshWorks: true });
    const store = memoryStore({ token: 'access-1', refreshToken: 'refresh-1' });
    server.rotate(); // the access token has expired server-side
    store.current = { token: 'access-1', refreshToken: 'refresh-2' };
    const { staff, signedOut } = client(store, server.fetchImpl);
    await expect(staff.call(staffMe, {})).resolves.toEqual(me);
    expect(store.current).toEqual({ token: 'access-3', refreshToken: 'refresh-3' });
    expect(signedOut).toEqual([]);
  });

  it('shares one refresh between calls that fail together, so the one-use refresh token is not replayed', async () => {
    const server = fakeServer({ refreshWorks: true });
    server.rotate();
    const store = memoryStore({ token: 'access-1', refreshToken: 'refresh-2' });
    const { staff, signedOut } = client(store, server.fetchImpl);
    const answers = await Promise.all([staff.call(staffMe, {}), staff.call(staffMe, {}), staff.call(staffMe, {})]);
    expect(answers).toEqual([me, me, me]);
    expect(server.calls.filter((call) => call.includes('/refresh'))).toHaveLength(1);
    expect(signedOut).toEqual([]);
  });

  it('forgets the tokens and returns to sign-in when the refresh is refused', async () => {
    const server = fakeServer({ refreshWorks: false });
    server.rotate();
    const store = memoryStore({ token: 'access-1', refreshToken: 'refresh-1' });
    const { staff, signedOut } = client(store, server.fetchImpl);
    await expect(staff.call(staffMe, {})).rejects.toBeInstanceOf(StaffRequestError);
    expect(store.current).toBeNull();
    expect(signedOut).toEqual(['expired']);
  });

  it('signs out on 23519 (the session was ended) and reports the code', async () => {
    const server = fakeServer({ refreshWorks: true });
    const store = memoryStore({ token: 'access-1', refreshToken: 'refresh-1' });
    const { staff, signedOut, reports } = client(store, server.fetchImpl);
    await expect(staff.call(customersSearch, { query: 'a' })).rejects.toMatchObject({ failure: { kind: 'code', code: 23519 } });
    expect(store.current).toBeNull();
    expect(signedOut).toEqual(['ended-by-server']);
    expect(reports).toEqual([{ kind: 'code', code: 23519, serverMessage: 'session ended', messageLanguage: null, data: null }]);
  });

  it('fetches a review file with the bearer token, refreshing once when the token has expired', async () => {
    const server = fakeServer({ refreshWorks: true });
    server.rotate();
    const store = memoryStore({ token: 'access-1', refreshToken: 'refresh-2' });
    const { staff } = client(store, server.fetchImpl);
    const blob = await staff.fetchFile('/v1/staff/file/9');
    expect(blob.type).toBe('image/png');
    expect(await blob.text()).toBe('image bytes');
    expect(server.calls.filter((call) => call.includes('/file/'))).toEqual([
      'http://console.test/v1/staff/file/9 Bearer access-1',
      'http://console.test/v1/staff/file/9 Bearer access-3',
    ]);
  });

  it('sends the staff token only to the staff file route under its own API root, never to another address', async () => {
    const server = fakeServer({ refreshWorks: true });
    const { staff } = client(memoryStore({ token: 'access-1', refreshToken: 'refresh-1' }), server.fetchImpl);
    for (const url of ['https://collector.example.net/v1/staff/file/9', '//collector.example.net/v1/staff/file/9', '/v1/staff/me', '/v1/staff/file/../me', '/v1/staff/file/%2e%2e/me']) {
      await expect(staff.fetchFile(url), url).rejects.toBeInstanceOf(StaffRequestError);
    }
    expect(server.calls).toEqual([]);
  });

  it('does not refresh on a refused sign-in (no session to rotate)', async () => {
    const fetchImpl: typeof fetch = async () => json(200, { code: 1004, msg: 'wrong credentials', data: null });
    const store = memoryStore(null);
    const { staff, reports, signedOut } = client(store, fetchImpl);
    await expect(staff.signIn({ email: 'ops@example.com', password: 'x', code: '123456' })).rejects.toMatchObject({ failure: { kind: 'code', code: 1004 } });
    expect(store.current).toBeNull();
    expect(signedOut).toEqual([]);
    expect(reports).toHaveLength(1);
  });
});
