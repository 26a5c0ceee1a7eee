import { describe, expect, it, vi } from 'vitest';
import { createHttpClient, newIdempotencyKey, trimStrings, type RequestFailure } from '../../../../src/app/api/http-client';
import { getCustomerLink } from '../../../../src/shared/api/anonymous';
import { marketHistoryRange } from '../../../../src/shared/api/market';
import { addOrder } from '../../../../src/shared/api/trading';
import { walletTransform } from '../../../../src/shared/api/wallet';

describe('request client', () => {
  const link = { url: '', telegram: 't', whatsapp: 'w', email: 'e', mode: 0 };
  function client(response: () => Promise<Response>, token: string | null = null) {
    const reported: RequestFailure[] = [];
    const lost: string[] = [];
    const fetchImpl = vi.fn((_url: string | URL | Request, _init?: RequestInit) => response());
    const http = createHttpClient({
      roots: { api: 'https://api.example', market: 'https://market.example', exchange: 'https://exchange.example' },
      timeoutMs: 0,
      getToken: () => token,
      getLanguage: () => 'de',
      report: (failure) => reported.push(failure),
      onSessionLost: (reason) => lost.push(reason),
      fetchImpl: fetchImpl as unknown as typeof fetch,
    });
    return { http, reported, lost, fetchImpl };
  }
  const json = (body: unknown, status = 200) => async () => new Response(JSON.stringify(body), { status });

  it('posts JSON with the language and the bearer token and answers the data', async () => {
    const { http, fetchImpl } = client(json({ code: 0, msg: 'success', data: link }), 'tok');
    await expect(http.call(getCustomerLink, {})).resolves.toEqual(link);
    const [url, init] = fetchImpl.mock.calls[0]!;
    expect(url).toBe('https://api.example/v1/wa-na/getCustomerLink');
    expect(init?.method).toBe('POST');
    expect(init?.headers).toMatchObject({ authorization: 'Bearer tok', 'accept-language': 'de' });
  });

  it('sends the Idempotency-Key it is given, the same one on a retry of that action, and none otherwise', async () => {
    const { http, fetchImpl } = client(json({ code: 0, msg: 'success', data: null }), 'tok');
    const body = { curr: 'USDT', currId: 1, type: 0 as const, num: '1', fee: '0', practical: '1' };
    const key = newIdempotencyKey();
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(newIdempotencyKey()).not.toBe(key);
    await http.call(walletTransform, body, { idempotencyKey: key });
    await http.call(walletTransform, body, { idempotencyKey: key });
    await http.call(getCustomerLink, {}).catch(() => undefined);
    expect(fetchImpl.mock.calls[0]![1]?.headers).toMatchObject({ 'Idempotency-Key': key });
    expect(fetchImpl.mock.calls[1]![1]?.headers).toMatchObject({ 'Idempotency-Key': key });
    expect(fetchImpl.mock.calls[2]![1]?.headers).not.toHaveProperty('Idempotency-Key');
  });

  it('fetches an owner-only file from the API root with the bearer token (GET), and refuses a failed answer without telling the user', async () => {
    const { http, fetchImpl, reported } = client(async () => new Response(new Uint8Array([0xff, 0xd8, 0xff]), { status: 200, headers: { 'content-type': 'image/jpeg' } }), 'tok');
    const blob = await http.fetchFile('/v1/waa/file/abc');
    expect(blob.type).toBe('image/jpeg');
    expect(blob.size).toBe(3);
    const [url, init] = fetchImpl.mock.calls[0]!;
    expect(url).toBe('https://api.example/v1/waa/file/abc');
    expect(init?.method).toBe('GET');
    expect(init?.headers).toMatchObject({ authorization: 'Bearer tok' });

    const missing = client(async () => new Response('{}', { status: 404 }), 'tok');
    await expect(missing.http.fetchFile('/v1/waa/file/gone')).rejects.toMatchObject({ failure: { kind: 'http', status: 404 } });
    expect(missing.reported).toEqual([]);
    expect(reported).toEqual([]);
  });

  it('sends each call to the root that serves it: exchange calls to exchangeRoot, market data to marketRoot', async () => {
    const { http, fetchImpl } = client(json({ code: 0, msg: 'success', data: '20260101000001' }), 'tok');
    const order = { tradePair: 'BTCUSDT', price: '0', orderQuantity: '1', multiple: 100, orderType: 0 as const, buyPoint: 2 as const, clientOrderId: 'c1' };
    await expect(http.call(addOrder, order)).resolves.toBe('20260101000001');
    expect(fetchImpl.mock.calls[0]![0]).toBe('https://exchange.example/exchange/addOrder');
    expect(fetchImpl.mock.calls[0]![1]?.headers).toMatchObject({ authorization: 'Bearer tok' });

    const bars = client(json({ code: 0, msg: 'success', data: [] }));
    await bars.http.call(marketHistoryRange, { symbol: 'BTCUSDT', period: '1min', from: 1, to: 2 });
    expect(bars.fetchImpl.mock.calls[0]![0]).toBe('https://market.example/market/history/limit');
  });

  it('ends the session on HTTP 401 from an exchange call, as from a signed-in API call', async () => {
    const unauthorized = client(json({ code: 400, msg: 'no', data: null }, 401), 'tok');
    await expect(unauthorized.http.call(addOrder, { tradePair: 'BTCUSDT', price: '0', orderQuantity: '1', multiple: 100, orderType: 0, buyPoint: 2, clientOrderId: 'c2' })).rejects.toThrow();
    expect(unauthorized.lost).toEqual(['unauthorized']);
  });

  it("hands each answer's Date header to the server clock with the device times around the call; an answer without one gives nothing", async () => {
    const samples: unknown[] = [];
    let device = Date.parse('2026-01-13T12:01:30.250Z');
    const http = createHttpClient({
      roots: { api: 'https://api.example', market: 'https://market.example', exchange: 'https://exchange.example' },
      timeoutMs: 0,
      getToken: () => null,
      getLanguage: () => 'en',
      report: () => undefined,
      onSessionLost: () => undefined,
      onServerDate: (sample) => samples.push(sample),
      nowMs: () => device,
      fetchImpl: (async () => {
        device += 80;
        return new Response(JSON.stringify({ code: 0, msg: 'success', data: link }), { headers: { date: 'Tue, 13 Jan 2026 12:00:00 GMT' } });
      }) as unknown as typeof fetch,
    });
    await http.call(getCustomerLink, {});
    expect(samples).toEqual([{ serverDateMs: Date.parse('2026-01-13T12:00:00Z'), sentAtMs: Date.parse('2026-01-13T12:01:30.250Z'), receivedAtMs: Date.parse('2026-01-13T12:01:30.330Z') }]);
    const { http: plain } = client(json({ code: 0, msg: 'success', data: link }));
    await plain.call(getCustomerLink, {});
    expect(samples).toHaveLength(1);
  });

  it('reports a server code, unless silent', async () => {
    const failing = client(json({ code: 1001, msg: 'bad', data: null }));
    await expect(failing.http.call(getCustomerLink, {})).rejects.toThrow('code 1001');
    expect(failing.reported).toEqual([{ kind: 'code', code: 1001, serverMessage: 'bad', messageLanguage: null, data: null }]);
    const silent = client(json({ code: 1001, msg: 'bad', data: null }));
    await expect(silent.http.call(getCustomerLink, {}, { silent: true })).rejects.toThrow();
    expect(silent.reported).toEqual([]);
  });

  it('a rate-limited answer (HTTP 429) reports its code with the seconds to wait', async () => {
    const limited = client(json({ code: 1033, msg: 'Retry in 42 seconds (1033)', data: { retryAfterSeconds: 42 } }, 429));
    await expect(limited.http.call(getCustomerLink, {})).rejects.toThrow('code 1033');
    expect(limited.reported).toEqual([{ kind: 'code', code: 1033, serverMessage: 'Retry in 42 seconds (1033)', messageLanguage: null, data: { retryAfterSeconds: 42 } }]);
  });

  it("reports the language the server wrote its message in (Content-Language), so the user may be shown the server's own reason", async () => {
    const german = client(async () => new Response(JSON.stringify({ code: 1016, msg: 'Die Mindesteinzahlung beträgt 30 USD (1016)', data: null }), { headers: { 'content-language': 'de' } }));
    await expect(german.http.call(getCustomerLink, {})).rejects.toThrow('code 1016');
    expect(german.reported).toEqual([{ kind: 'code', code: 1016, serverMessage: 'Die Mindesteinzahlung beträgt 30 USD (1016)', messageLanguage: 'de', data: null }]);
  });

  it('ends the session on 23519 and on HTTP 401 from a signed-in path', async () => {
    const ended = client(json({ code: 23519, msg: 'ended', data: null }), 'tok');
    await expect(ended.http.call(getCustomerLink, {})).rejects.toThrow();
    expect(ended.lost).toEqual(['ended-by-server']);
    const unauthorized = client(json({ code: 400, msg: 'no', data: null }, 401), 'tok');
    const signedIn = { ...getCustomerLink, path: '/v1/waa/user/info' };
    await expect(unauthorized.http.call(signedIn, {})).rejects.toThrow();
    expect(unauthorized.lost).toEqual(['unauthorized']);
  });

  it('leaves a newer session be when a request of the one before it is refused late (a sign-in after a password change)', async () => {
    let token = 'old session';
    const lost: string[] = [];
    const http = createHttpClient({
      roots: { api: 'https://api.example', market: 'https://market.example', exchange: 'https://exchange.example' },
      timeoutMs: 0,
      getToken: () => token,
      getLanguage: () => 'en',
      report: () => undefined,
      onSessionLost: (reason) => lost.push(reason),
      fetchImpl: (async () => {
        // The user signs in again while the old token's request is on its way.
        token = 'new session';
        return new Response(JSON.stringify({ code: 23519, msg: 'ended', data: null }));
      }) as unknown as typeof fetch,
    });
    await expect(http.call(getCustomerLink, {})).rejects.toThrow();
    expect(lost).toEqual([]);

    // Refused while still current: the engine is told which session to end, so that a
    // sign-in landing between this answer and the engine's sign-out is not the one ended.
    const ended: [string, string][] = [];
    const current = createHttpClient({
      roots: { api: 'https://api.example', market: 'https://market.example', exchange: 'https://exchange.example' },
      timeoutMs: 0,
      getToken: () => 'the session',
      getLanguage: () => 'en',
      report: () => undefined,
      onSessionLost: (reason, refused) => ended.push([reason, refused]),
      fetchImpl: (async () => new Response(JSON.stringify({ code: 23519, msg: 'ended', data: null }))) as unknown as typeof fetch,
    });
    await expect(current.call(getCustomerLink, {})).rejects.toThrow();
    expect(ended).toEqual([['ended-by-server', 'the session']]);
  });

  it('ends the session when the user info call answers 1002 (no such user), and only that call', async () => {
    const signedIn = { ...getCustomerLink, path: '/v1/waa/user/info' };
    const gone = client(json({ code: 1002, msg: 'no user', data: null }), 'tok');
    await expect(gone.http.call(signedIn, {})).rejects.toThrow('code 1002');
    expect(gone.lost).toEqual(['invalid']);
    const elsewhere = client(json({ code: 1002, msg: 'no user', data: null }), 'tok');
    await expect(elsewhere.http.call(getCustomerLink, {})).rejects.toThrow('code 1002');
    expect(elsewhere.lost).toEqual([]);
  });

  it('tells a malformed answer, an HTTP fault and a network failure apart', async () => {
    const malformed = client(json({ code: 0, data: { url: 5 } }));
    await expect(malformed.http.call(getCustomerLink, {})).rejects.toThrow();
    expect(malformed.reported[0]).toEqual({ kind: 'malformed' });
    const fault = client(async () => new Response('oops', { status: 502 }));
    await expect(fault.http.call(getCustomerLink, {})).rejects.toThrow();
    expect(fault.reported[0]).toEqual({ kind: 'http', status: 502 });
    const offline = client(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(offline.http.call(getCustomerLink, {})).rejects.toThrow();
    expect(offline.reported[0]).toEqual({ kind: 'network' });
  });

  it('answers a call as it came for a caller that checks it elsewhere (the start\'s switches), failing as a call does on transport and HTTP faults', async () => {
    const answer = { code: 0, msg: 'success', data: { items: [{ name: 'PHONE_REGISTER', enable: true }] } };
    const ok = client(json(answer));
    await expect(ok.http.answerOf({ path: '/v1/wa-na/system/systemConfig/getAllConfigStatusWeb', root: 'api' }, {}, { silent: true })).resolves.toEqual(answer);
    expect(ok.fetchImpl.mock.calls[0]![0]).toBe('https://api.example/v1/wa-na/system/systemConfig/getAllConfigStatusWeb');
    const fault = client(json({ code: 0, data: null }, 503));
    await expect(fault.http.answerOf({ path: '/v1/wa-na/x', root: 'api' }, {})).rejects.toMatchObject({ failure: { kind: 'http', status: 503 } });
    expect(fault.reported).toEqual([{ kind: 'http', status: 503 }]);
    const offline = client(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(offline.http.answerOf({ path: '/v1/wa-na/x', root: 'api' }, {}, { silent: true })).rejects.toMatchObject({ failure: { kind: 'network' } });
    expect(offline.reported).toEqual([]);
  });

  it('trims every string in a payload', () => {
    expect(trimStrings({ a: ' x ', b: [' y'], c: { d: 'z  ' }, n: 1 })).toEqual({ a: 'x', b: ['y'], c: { d: 'z' }, n: 1 });
  });
});
