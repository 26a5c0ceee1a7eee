import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSettings } from '../../server/settings';
import { post, startTestServer, testBackends, type TestServer } from './harness';

const brandApp = 'https://app.brand.example';

/** Whether a socket to `url` opens when the browser says it comes from `origin` (undefined: not a browser). */
function socketOpens(url: string, origin: string | undefined): Promise<{ opened: boolean; status?: number }> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, origin ? { origin } : {});
    socket.on('open', () => {
      socket.terminate();
      resolve({ opened: true });
    });
    socket.on('unexpected-response', (_request, response) => {
      socket.terminate();
      resolve({ opened: false, status: response.statusCode });
    });
    socket.on('error', () => resolve({ opened: false }));
  });
}

describe('ALLOWED_ORIGINS', () => {
  it('takes exact origins and refuses anything else, saying what it expects', () => {
    expect(readSettings({ ALLOWED_ORIGINS: ' https://app.brand.example , http://localhost:5173' }).allowedOrigins).toEqual(['https://app.brand.example', 'http://localhost:5173']);
    expect(readSettings({}).allowedOrigins).toEqual([]);
    for (const wrong of ['*', 'app.brand.example', 'https://app.brand.example/trade', 'ftp://files.example', 'https://*.brand.example']) {
      expect(() => readSettings({ ALLOWED_ORIGINS: wrong }), wrong).toThrow(/ALLOWED_ORIGINS: expected comma-separated origins/);
    }
  });
});

describe.each(testBackends())('a brand app on another origin, on $name', (backend) => {
  let server: TestServer;
  let host = '';

  beforeAll(async () => {
    server = await startTestServer(backend, { ALLOWED_ORIGINS: brandApp });
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    host = `127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('lets the listed origin call the API, preflight included, and read the server clock', async () => {
    const preflight = await server.app.inject({
      method: 'OPTIONS',
      url: '/v1/waa/user/balance',
      headers: { origin: brandApp, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type,idempotency-key' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(brandApp);
    expect(String(preflight.headers['access-control-allow-methods'])).toContain('POST');
    expect(String(preflight.headers['access-control-allow-headers'])).toContain('idempotency-key');

    const answer = await post(server.app, '/v1/wa-na/getCustomerLink', {}, { origin: brandApp });
    expect(answer.json().code).toBe(0);
    expect(answer.headers['access-control-allow-origin']).toBe(brandApp);
    expect(String(answer.headers['access-control-expose-headers'])).toContain('Date');
  });

  it('gives another origin no permission: the browser keeps the answer from its page', async () => {
    const answer = await post(server.app, '/v1/wa-na/getCustomerLink', {}, { origin: 'https://phishing.example' });
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await server.app.inject({ method: 'OPTIONS', url: '/v1/waa/user/balance', headers: { origin: 'https://phishing.example', 'access-control-request-method': 'POST' } });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  it("opens the market and positions sockets for the listed origin, the server's own and non-browsers, and refuses any other page's", async () => {
    for (const path of ['/market/stomp', '/exchange/ws']) {
      const url = `ws://${host}${path}`;
      expect(await socketOpens(url, brandApp), `${path} from the brand's app`).toEqual({ opened: true });
      expect(await socketOpens(url, `http://${host}`), `${path} from the server's own pages`).toEqual({ opened: true });
      expect(await socketOpens(url, undefined), `${path} from a client that is not a browser`).toEqual({ opened: true });
      expect(await socketOpens(url, 'https://phishing.example'), `${path} from another site`).toEqual({ opened: false, status: 403 });
    }
  });
});

describe.each(testBackends())('no origin listed, on $name', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers without CORS headers: only pages of its own origin may read its answers', async () => {
    const answer = await post(server.app, '/v1/wa-na/getCustomerLink', {}, { origin: brandApp });
    expect(answer.json().code).toBe(0);
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
  });
});
