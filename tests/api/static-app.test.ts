import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testBackends, type TestServer } from './harness';

/**
 * The built app as the server serves it, from a folder shaped like the build's output
 * (index.html, config.json, the console's page and content-hashed assets).
 */
async function builtAppFolder(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tradeweb-built-'));
  await fs.mkdir(path.join(dir, 'assets'));
  await fs.mkdir(path.join(dir, 'staff'));
  await fs.writeFile(path.join(dir, 'index.html'), '<!doctype html><title>TradeWeb</title><script type="module" src="/assets/app-Bx7dQ2.js"></script>');
  await fs.writeFile(path.join(dir, 'staff', 'index.html'), '<!doctype html><title>Console</title>');
  await fs.writeFile(path.join(dir, 'config.json'), JSON.stringify({ siteName: 'Built' }));
  await fs.writeFile(path.join(dir, 'assets', 'app-Bx7dQ2.js'), `export const app = ${JSON.stringify('x'.repeat(4000))};\n`);
  return dir;
}

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
});
