import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressedCopies } from '../../vite.config';
import { compressAboveBytes } from '../../server/http/compression';
import { startTestServer, testBackends, type TestServer } from './harness';

const appScript = `export const app = ${JSON.stringify('tradeweb '.repeat(800))};\n`;
const appPage = `<!doctype html><title>TradeWeb</title><script type="module" src="/assets/app-Bx7dQ2.js"></script>${'<!-- the page -->'.repeat(80)}`;
const consolePage = `<!doctype html><title>Console</title>${'<!-- the console -->'.repeat(80)}`;
const stringsFile = JSON.stringify({ greeting: 'hello '.repeat(300) });

/** Runs the build's own compression step (vite.config.ts) over a folder, as `vite build` does after writing. */
async function compressLikeTheBuild(dir: string) {
  const plugin: Plugin = precompressedCopies();
  const call = <T>(hook: unknown, ...args: unknown[]) => (hook as (...values: unknown[]) => T).call({}, ...args);
  call(plugin.configResolved, { root: dir, build: { outDir: '.' } } as unknown as ResolvedConfig);
  await call<Promise<void>>(plugin.writeBundle);
}

/**
 * The built app as the server serves it, from a folder shaped like the build's output
 * (index.html, config.json, the console's page, content-hashed assets and a file kept by name),
 * with the compressed copies the build writes.
 */
async function builtAppFolder(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tradeweb-built-'));
  await fs.mkdir(path.join(dir, 'assets'));
  await fs.mkdir(path.join(dir, 'staff'));
  await fs.mkdir(path.join(dir, 'themes'));
  await fs.writeFile(path.join(dir, 'index.html'), appPage);
  await fs.writeFile(path.join(dir, 'staff', 'index.html'), consolePage);
  await fs.writeFile(path.join(dir, 'config.json'), JSON.stringify({ siteName: 'Built' }));
  await fs.writeFile(path.join(dir, 'assets', 'app-Bx7dQ2.js'), appScript);
  await fs.writeFile(path.join(dir, 'assets', 'en-C6eK7q1W.js'), `export default JSON.parse(${JSON.stringify(stringsFile)});`);
  await fs.writeFile(path.join(dir, 'themes', 'light.css'), `:root { ${'--tone: #0b1220; '.repeat(100)}}`);
  await compressLikeTheBuild(dir);
  return dir;
}

const acceptsAll = { 'accept-encoding': 'gzip, deflate, br' };

describe.each(testBackends())('the built app, compressed and cached ($name)', (backend) => {
  let server: TestServer;
  let staticDir: string;

  beforeAll(async () => {
    staticDir = await builtAppFolder();
    server = await startTestServer(backend, { STATIC_DIR: staticDir });
  });
  afterAll(async () => {
    await server?.close();
    await fs.rm(staticDir, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) => server.app.inject({ method: 'GET', url, headers });

  it('writes a brotli and a gzip copy of each text file at build time, none of the editable config.json', async () => {
    const files = (await fs.readdir(staticDir, { recursive: true })).map(String).sort();
    expect(files).toEqual(expect.arrayContaining(['assets/app-Bx7dQ2.js.br', 'assets/app-Bx7dQ2.js.gz', 'index.html.br', 'index.html.gz', 'staff/index.html.br', 'themes/light.css.gz']));
    expect(files.filter((file) => file.startsWith('config.json.'))).toEqual([]);
  });

  it('sends brotli to a browser that accepts it: the decoded bytes are the file, hashed files kept for a year', async () => {
    const answer = await get('/assets/app-Bx7dQ2.js', acceptsAll);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(String(answer.headers.vary)).toMatch(/accept-encoding/i);
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(answer.rawPayload.length).toBeLessThan(appScript.length / 10);
    expect(brotliDecompressSync(answer.rawPayload).toString()).toBe(appScript);
  });

  it('sends gzip to a client that accepts only gzip, and the file itself to one that accepts neither', async () => {
    const gzipped = await get('/assets/app-Bx7dQ2.js', { 'accept-encoding': 'gzip' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(appScript);

    for (const headers of [{}, { 'accept-encoding': 'identity' }] as Record<string, string>[]) {
      const plain = await get('/assets/app-Bx7dQ2.js', headers);
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(appScript);
      expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
  });

  it('has the page revalidated at every visit: no-cache with an ETag, and an unchanged page answers 304 without a body', async () => {
    for (const url of ['/', '/wallet', '/index.html']) {
      const page = await get(url, acceptsAll);
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['cache-control'], url).toBe('no-cache');
      expect(page.headers['content-encoding'], url).toBe('br');
      expect(brotliDecompressSync(page.rawPayload).toString(), url).toBe(appPage);
      const etag = String(page.headers.etag ?? '');
      expect(etag, url).not.toBe('');
      const again = await get(url, { ...acceptsAll, 'if-none-match': etag });
      expect(again.statusCode, url).toBe(304);
      expect(again.rawPayload.length, url).toBe(0);
      // Only what updates the stored page: its security headers stay as the 200 brought them.
      expect(again.headers.etag, url).toBe(etag);
      expect(again.headers['cache-control'], url).toBe('no-cache');
      expect(again.headers['content-security-policy'], url).toBeUndefined();
      expect(page.headers['content-security-policy'], url).toBeDefined();
    }
  });

  it('revalidates config.json and the other files kept by name the same way', async () => {
    for (const url of ['/config.json', '/themes/light.css']) {
      const first = await get(url, acceptsAll);
      expect(first.statusCode, url).toBe(200);
      expect(first.headers['cache-control'], url).toBe('no-cache');
      const etag = String(first.headers.etag ?? '');
      expect(etag, url).not.toBe('');
      expect((await get(url, { ...acceptsAll, 'if-none-match': etag })).statusCode, url).toBe(304);
    }
    // The brand's (brands/default, the default BRAND_DIR), never a config.json left in the build.
    const config = await get('/config.json');
    expect(config.json()).toEqual(JSON.parse(await fs.readFile('brands/default/config.json', 'utf8')));
  });

  it("serves the brand folder's public files at the site's root beside the built ones", async () => {
    const favicon = await get('/favicon.svg');
    expect(favicon.statusCode).toBe(200);
    expect(favicon.headers['content-type']).toContain('image/svg+xml');
    expect(favicon.rawPayload.equals(await fs.readFile('brands/default/public/favicon.svg'))).toBe(true);
    expect((await get('/banners/banner-2.svg')).statusCode).toBe(200);
    expect((await get('/themes/light.css')).statusCode).toBe(200);
  });

  it("serves the staff console's page and deep links compressed and revalidated too", async () => {
    for (const url of ['/staff/', '/staff/customers/7']) {
      const page = await get(url, { 'accept-encoding': 'gzip' });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-encoding'], url).toBe('gzip');
      expect(page.headers['cache-control'], url).toBe('no-cache');
      expect(page.headers.etag, url).toBeDefined();
      expect(gunzipSync(page.rawPayload).toString(), url).toBe(consolePage);
    }
  });

  it('compresses a large JSON answer of the API and leaves a small one as it is', async () => {
    const call = (url: string, headers: Record<string, string>) =>
      server.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', ...headers }, payload: '{}' });
    const productsUrl = '/v1/wa-na/forex/product/list';
    const plain = await call(productsUrl, {});
    expect(plain.statusCode).toBe(200);
    expect(plain.rawPayload.length).toBeGreaterThan(compressAboveBytes);
    const compressed = await call(productsUrl, acceptsAll);
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(String(compressed.headers.vary)).toMatch(/accept-encoding/i);
    expect(compressed.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(JSON.parse(brotliDecompressSync(compressed.rawPayload).toString())).toEqual(plain.json());

    // The customer-service link: a few dozen bytes (the switches' answer has outgrown 1 KB).
    const small = await call('/v1/wa-na/getCustomerLink', acceptsAll);
    expect(small.statusCode).toBe(200);
    expect(small.rawPayload.length).toBeLessThan(compressAboveBytes);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toMatchObject({ code: 0 });
  });

  it("opens the sockets for a browser's upgrade, which accepts br and gzip like every request it makes", async () => {
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `ws://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
    const market = new WebSocket(`${base}/market/stomp`, ['v12.stomp'], { headers: acceptsAll });
    const firstFrame = new Promise<string>((resolve, reject) => {
      market.once('message', (data) => resolve(String(data)));
      market.once('error', reject);
    });
    await new Promise((resolve, reject) => market.once('open', resolve).once('error', reject));
    market.send('CONNECT\naccept-version:1.2\nhost:/\nheart-beat:0,0\n\n\0');
    expect(await firstFrame).toMatch(/^CONNECTED\n/);
    market.terminate();

    // The exchange socket upgrades, then waits for the account's token (not sent here).
    const exchange = new WebSocket(`${base}/exchange/ws`, { headers: acceptsAll });
    const upgraded = await new Promise<boolean>((resolve) => exchange.once('open', () => resolve(true)).once('error', () => resolve(false)));
    expect(upgraded).toBe(true);
    exchange.terminate();
  });
});


describe.each(testBackends())('a brand configuration beside the built app ($name)', (backend) => {
  let server: TestServer;
  let staticDir: string;
  let brandDir: string;

  beforeAll(async () => {
    staticDir = await builtAppFolder();
    brandDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tradeweb-brand-'));
    await fs.writeFile(path.join(brandDir, 'config.json'), JSON.stringify({ siteName: 'Second brand' }));
    // Before: "Method '[ 'HEAD', 'GET' ]' already declared for route '/config.json'" and no server.
    server = await startTestServer(backend, { STATIC_DIR: staticDir, BRAND_CONFIG_PATH: path.join(brandDir, 'config.json') });
  });
  afterAll(async () => {
    await server?.close();
    await fs.rm(staticDir, { recursive: true, force: true });
    await fs.rm(brandDir, { recursive: true, force: true });
  });

  it("starts, and /config.json answers the brand's file, not the built one; the app is served beside it", async () => {
    const config = await server.app.inject({ method: 'GET', url: '/config.json' });
    expect(config.statusCode).toBe(200);
    expect(config.json()).toEqual({ siteName: 'Second brand' });
    const page = await server.app.inject({ method: 'GET', url: '/wallet' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>TradeWeb</title>');
    expect((await server.app.inject({ method: 'GET', url: '/assets/app-Bx7dQ2.js' })).statusCode).toBe(200);
  });

  it("revalidates the brand's file by an ETag of its content: 304 while it is unchanged, the new file once it changes", async () => {
    const first = await server.app.inject({ method: 'GET', url: '/config.json' });
    expect(first.headers['cache-control']).toBe('no-cache');
    const etag = String(first.headers.etag ?? '');
    expect(etag).not.toBe('');
    const unchanged = await server.app.inject({ method: 'GET', url: '/config.json', headers: { 'if-none-match': etag } });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.rawPayload.length).toBe(0);

    await fs.writeFile(path.join(brandDir, 'config.json'), JSON.stringify({ siteName: 'Second brand, renamed' }));
    const changed = await server.app.inject({ method: 'GET', url: '/config.json', headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({ siteName: 'Second brand, renamed' });
    expect(changed.headers.etag).not.toBe(etag);
  });
});
