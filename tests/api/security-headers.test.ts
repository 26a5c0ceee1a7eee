import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brandConnectSources, chatFrameSources, registerSecurityHeaders } from '../../server/http/security-headers';
import { post, startTestServer, testBackends, type TestServer } from './harness';

const brandConfig = {
  apiRoot: 'https://api.brand.example',
  marketRoot: 'https://market.brand.example',
  exchangeRoot: 'https://exchange.brand.example',
  marketSocketUrl: 'wss://mq.brand.example/ws',
};

/** The policy as a map of directive → sources. */
function directives(header: string | string[] | number | undefined): Map<string, string[]> {
  expect(typeof header).toBe('string');
  return new Map(
    String(header)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

describe.each(testBackends())('security headers on $name', (backend) => {
  let server: TestServer;
  let staticDir = '';

  beforeAll(async () => {
    staticDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tradeweb-built-'));
    await fs.writeFile(path.join(staticDir, 'index.html'), '<!doctype html><title>app</title><script type="module" src="/assets/index.js"></script>');
    await fs.mkdir(path.join(staticDir, 'staff'));
    await fs.writeFile(path.join(staticDir, 'staff', 'index.html'), '<!doctype html><title>Staff console</title><script type="module" src="/assets/staff.js"></script>');
    // The brand's config.json (BRAND_CONFIG_PATH), beside the default brand's files.
    await fs.writeFile(path.join(staticDir, 'brand-config.json'), JSON.stringify(brandConfig));
    await fs.mkdir(path.join(staticDir, 'assets'));
    await fs.writeFile(path.join(staticDir, 'assets', 'index.js'), 'export {};');
    await fs.writeFile(path.join(staticDir, 'assets', 'heic2any-worker-0.0.4.js'), 'self.onmessage = () => undefined;');
    server = await startTestServer(backend, {
      STATIC_DIR: staticDir,
      BRAND_CONFIG_PATH: path.join(staticDir, 'brand-config.json'),
      CUSTOMER_SERVICE_LINK: '0|["https://chat.brand.example/room/1","https://t.me/x","",""]',
    });
  });
  afterAll(async () => {
    await server?.close();
    await fs.rm(staticDir, { recursive: true, force: true });
  });

  it('sends a strict policy, no framing, nosniff and a referrer policy on the app, config.json, an API answer and 404s; no HSTS without TLS', async () => {
    const answers = {
      page: await server.app.inject({ method: 'GET', url: '/' }),
      deepLink: await server.app.inject({ method: 'GET', url: '/quotation' }),
      staffConsole: await server.app.inject({ method: 'GET', url: '/staff/' }),
      staffDeepLink: await server.app.inject({ method: 'GET', url: '/staff/customers/7?tab=ledger' }),
      config: await server.app.inject({ method: 'GET', url: '/config.json' }),
      api: await post(server.app, '/v1/wa-na/getCustomerLink', {}),
      apiNotFound: await post(server.app, '/v1/wa-na/nothing', {}),
      fileNotFound: await server.app.inject({ method: 'GET', url: '/nothing.png' }),
    };
    expect(answers.page.statusCode).toBe(200);
    // The console's pages get the console's index.html; the customer SPA fallback keeps the rest.
    expect(answers.staffConsole.statusCode).toBe(200);
    expect(answers.staffConsole.body).toContain('<title>Staff console</title>');
    expect(answers.staffDeepLink.body).toContain('<title>Staff console</title>');
    expect(answers.deepLink.body).toContain('<title>app</title>');
    expect(answers.config.statusCode).toBe(200);
    expect(answers.api.json().code).toBe(0);
    expect(answers.apiNotFound.statusCode).toBe(404);
    expect(answers.fileNotFound.statusCode).toBe(404);

    for (const [name, answer] of Object.entries(answers)) {
      expect(answer.headers['x-frame-options'], name).toBe('DENY');
      expect(answer.headers['x-content-type-options'], name).toBe('nosniff');
      expect(answer.headers['referrer-policy'], name).toBe('strict-origin-when-cross-origin');
      expect(answer.headers['strict-transport-security'], name).toBeUndefined();
      const policy = directives(answer.headers['content-security-policy']);
      expect(policy.get('default-src'), name).toEqual(["'self'"]);
      expect(policy.get('script-src'), name).toEqual(["'self'"]);
      expect(policy.get('worker-src'), name).toEqual(["'self'"]);
      expect(policy.get('style-src'), name).toEqual(["'self'"]);
      expect(policy.get('object-src'), name).toEqual(["'none'"]);
      expect(policy.get('frame-ancestors'), name).toEqual(["'none'"]);
      expect(policy.get('img-src'), name).toEqual(["'self'", 'data:', 'blob:']);
      expect([...policy.get('connect-src')!].sort(), name).toEqual(
        [
          "'self'",
          'https://api.brand.example',
          'https://market.brand.example',
          'wss://market.brand.example',
          'https://exchange.brand.example',
          'wss://exchange.brand.example',
          'wss://mq.brand.example',
        ].sort(),
      );
      // The embedded customer-service chat, and nothing else, may be framed.
      expect(policy.get('frame-src'), name).toEqual(['https://chat.brand.example']);
      expect(String(answer.headers['content-security-policy']), name).not.toMatch(/unsafe-(inline|eval)/);
      expect(policy.has('upgrade-insecure-requests'), name).toBe(false);
    }
  });

  it("lets heic2any's decoder worker, and that file alone, evaluate code and reach nothing", async () => {
    const worker = await server.app.inject({ method: 'GET', url: '/assets/heic2any-worker-0.0.4.js' });
    expect(worker.statusCode).toBe(200);
    const policy = directives(worker.headers['content-security-policy']);
    expect(policy.get('default-src')).toEqual(["'none'"]);
    expect(policy.get('script-src')).toEqual(["'self'", "'unsafe-eval'"]);
    expect(worker.headers['x-content-type-options']).toBe('nosniff');
    for (const url of ['/assets/index.js', '/assets/heic2any-worker-0.0.4.js.map', '/assets/heic2any-worker-0.0.4.js/', '/user/deposit?next=/assets/heic2any-worker-0.0.4.js']) {
      const other = await server.app.inject({ method: 'GET', url });
      expect(String(other.headers['content-security-policy']), url).not.toContain('unsafe-eval');
    }
  });
});

describe('security headers behind TLS', () => {
  it('adds HSTS and upgrade-insecure-requests only when the deployment says so', async () => {
    for (const behindTls of [true, false]) {
      const app = Fastify({ logger: false });
      await registerSecurityHeaders(app, { brandConfigFile: '/nonexistent/config.json', behindTls, customerLink: async () => ({ url: '', telegram: '', whatsapp: '', email: '', mode: 0 }) });
      app.get('/x', async () => 'x');
      const answer = await app.inject({ method: 'GET', url: '/x' });
      const policy = directives(answer.headers['content-security-policy']);
      expect(answer.headers['strict-transport-security']).toBe(behindTls ? 'max-age=31536000; includeSubDomains' : undefined);
      expect(policy.has('upgrade-insecure-requests')).toBe(behindTls);
      expect(policy.get('connect-src')).toEqual(["'self'"]);
      expect(policy.get('frame-src')).toEqual(["'none'"]);
      await app.close();
    }
  });

  it('allows a chat frame only when the app embeds the chat', () => {
    const link = { url: 'https://chat.example/room?x=1', telegram: '', whatsapp: '', email: '', mode: 0 };
    expect(chatFrameSources(link)).toEqual(['https://chat.example']);
    // Opened in a new window (mode 1) next to other channels: never framed.
    expect(chatFrameSources({ ...link, mode: 1, telegram: 'https://t.me/x' })).toEqual([]);
    // The only channel is embedded whatever the mode.
    expect(chatFrameSources({ ...link, mode: 1 })).toEqual(['https://chat.example']);
    expect(chatFrameSources({ ...link, url: 'javascript:alert(1)' })).toEqual([]);
  });
});

describe('the sockets a brand config needs', () => {
  it('allows the socket origin of the market and exchange roots even when the API shares their origin', async () => {
    const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'tradeweb-brand-'));
    const configFile = path.join(directory, 'config.json');
    const oneOrigin = 'https://api.brand.example';
    await fs.writeFile(configFile, JSON.stringify({ apiRoot: oneOrigin, marketRoot: oneOrigin, exchangeRoot: oneOrigin }));
    try {
      expect(brandConnectSources(configFile, () => undefined).sort()).toEqual([oneOrigin, 'wss://api.brand.example'].sort());
    } finally {
      await fs.rm(directory, { recursive: true, force: true });
    }
  });
});
