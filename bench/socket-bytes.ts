/**
 * Issue 21, bytes on the wire. `BENCH_ONLY=socket-bytes npm run bench`.
 *
 * 1. Bytes per hour one phone-sized browser (390×844, headless Chromium) receives, counted
 *    at TCP level by a loopback proxy between it and the server (everything the server
 *    sends it: sockets and HTTP), for the idle home screen, the quotation list, a chart,
 *    the positions page with two open positions (demo account) and a hidden browser.
 *    "Before" is the all-prices behaviour (brand `followAllPrices`, no compression),
 *    measured in the same run as "after" (subscriptions that follow the screen, the quiet
 *    engine, permessage-deflate). Each window is extrapolated to an hour.
 * 2. Server CPU and memory per market connection with and without compression, at 100 and
 *    1,000 connections, each following the home screen's per-symbol topics.
 *
 * The default simulator (39 instruments) quotes throughout. The quiet wait is shortened
 * to the setting's minimum (5 s) so the hidden browser is measured in seconds.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { processTreeCpuSeconds } from './browser/process-cpu';

interface Section {
  title: string;
  header: readonly string[];
  rows: (readonly string[])[];
}

const serverPort = Number(process.env.BENCH_SOCKET_PORT ?? 8450);
const proxyPort = serverPort + 2;
const measureMs = Number(process.env.BENCH_SOCKET_MEASURE_MS ?? 20_000);
const settleMs = 4_000;
const quietAfterMs = 5_000;
/** The home screen's live symbols on a phone: three hot cards and the first quote rows. */
const homeSymbols = ['BTCUSDT', 'EURUSD', 'XAUUSD', 'ETHUSDT', 'GBPUSD', 'US500'];

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function startServer(options: { compression: boolean; staticDir: string }): Promise<ChildProcess> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-bytes-data-'));
  const child = spawn(path.resolve('node_modules/.bin/tsx'), ['server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(serverPort),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      STATIC_DIR: options.staticDir,
      LOG_LEVEL: 'warn',
      JWT_SECRET: crypto.randomBytes(32).toString('hex'),
      MARKET_SEED: '7',
      DEV_OUTBOX: '1',
      SOCKET_COMPRESSION: options.compression ? '1' : '0',
      MARKET_CONNECTIONS_PER_ADDRESS: '5000',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await waitFor(async () => (await fetch(`http://127.0.0.1:${serverPort}/healthz`)).ok, 180_000, 'the bench server');
  return child;
}

async function stopServer(child: ChildProcess) {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(10_000)]);
}

/** A loopback TCP proxy that counts the octets the server sends to the browser. */
function startCountingProxy(): Promise<{ received: () => number; reset: () => void; close: () => void }> {
  let received = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(serverPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    upstream.on('data', (chunk: Buffer) => (received += chunk.length));
    client.pipe(upstream);
    upstream.pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  return new Promise((resolve) =>
    server.listen(proxyPort, '127.0.0.1', () =>
      resolve({
        received: () => received,
        reset: () => void (received = 0),
        close: () => {
          for (const socket of sockets) socket.destroy();
          server.close();
        },
      }),
    ),
  );
}

type Screen = 'idle home' | 'quotation list' | 'chart (BTCUSDT)' | 'positions, two open' | 'hidden, two open positions' | 'hidden browser (signed out)';
const screens: Screen[] = ['idle home', 'quotation list', 'chart (BTCUSDT)', 'positions, two open', 'hidden, two open positions', 'hidden browser (signed out)'];

async function demoAccountWithTwoPositions(page: Page, origin: string): Promise<void> {
  const email = `bench-${Date.now().toString(36)}-${crypto.randomBytes(3).toString('hex')}@example.com`;
  const password = 'bench password 1';
  const post = async (url: string, data: unknown, token?: string) => {
    const answer = (await (await page.request.post(`${origin}${url}`, { data, headers: token ? { authorization: `Bearer ${token}` } : {} })).json()) as {
      code: number;
      msg: string;
      data: unknown;
    };
    if (answer.code !== 0) throw new Error(`${url}: ${answer.code} ${answer.msg}`);
    return answer.data;
  };
  await post('/v1/wa-na/sendMail', { email, type: '1', locale: 'en' });
  let code: string | undefined;
  await waitFor(
    async () => {
      const outbox = (await (await page.request.get(`${origin}/dev/outbox?to=${encodeURIComponent(email)}`)).json()) as { code?: string }[];
      code = outbox.filter((message) => message.code).at(-1)?.code;
      return code !== undefined;
    },
    20_000,
    'the sign-up code',
  );
  await post('/v1/wa-na/register', { username: email, password, type: 'E', code, locale: 'en' });
  const real = (await post('/v1/wa-na/login', { username: email, password, type: 'E' })) as { token: string };
  const demo = (await post('/v1/waa/user/switch', {}, real.token)) as { token: string; refreshToken: string };
  for (const tradePair of ['BTCUSDT', 'ETHUSDT']) {
    await post('/exchange/addOrderMock', { tradePair, price: '0', orderQuantity: '0.01', multiple: 20, orderType: 0, buyPoint: 2, clientOrderId: crypto.randomUUID() }, demo.token);
  }
  await page.waitForFunction(() => '__tradeweb' in window);
  await page.evaluate(
    (tokens) => (window as unknown as { __tradeweb: { engine: { signIn(tokens: unknown): Promise<unknown> } } }).__tradeweb.engine.signIn(tokens),
    demo,
  );
}

/** Every screen in one browser (one SharedWorker, as a visitor would), each measured for `measureMs`. */
async function measureScreens(origin: string, counter: Awaited<ReturnType<typeof startCountingProxy>>): Promise<Map<Screen, number>> {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-bytes-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    viewport: { width: 390, height: 844 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const bytesPerHour = new Map<Screen, number>();
  async function measure(screen: Screen) {
    await sleep(settleMs);
    counter.reset();
    await sleep(measureMs);
    bytesPerHour.set(screen, (counter.received() * 3_600_000) / measureMs);
  }
  try {
    await page.goto(`${origin}/`);
    await page.getByTestId('bid-BTCUSDT').filter({ hasText: /\d/ }).waitFor({ timeout: 60_000 });
    await measure('idle home');
    await page.goto(`${origin}/quotation`);
    await page.locator('.quote-row').first().waitFor({ timeout: 30_000 });
    await measure('quotation list');
    await page.goto(`${origin}/BTCUSDT/chart`);
    await measure('chart (BTCUSDT)');
    await page.goto(`${origin}/`);
    await demoAccountWithTwoPositions(page, origin);
    await page.goto(`${origin}/position`);
    await measure('positions, two open');
    // Hidden: the page says so as a switched-away tab would, then the quiet wait passes.
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
      Object.defineProperty(document, 'hidden', { value: true, configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await sleep(quietAfterMs);
    await measure('hidden, two open positions');
    await page.evaluate(() =>
      (window as unknown as { __tradeweb: { engine: { signOut(reason: string): Promise<unknown> } } }).__tradeweb.engine.signOut('logout'),
    );
    await measure('hidden browser (signed out)');
  } finally {
    await context.close();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  }
  return bytesPerHour;
}

interface Variant {
  name: string;
  compression: boolean;
  followAllPrices: boolean;
}

const variants: Variant[] = [
  { name: 'before (all prices, no compression)', compression: false, followAllPrices: true },
  { name: 'subscriptions only (no compression)', compression: false, followAllPrices: false },
  { name: 'after (subscriptions, quiet engine, compression)', compression: true, followAllPrices: false },
];

async function browserBytes(staticDir: string): Promise<Section> {
  const configPath = path.join(staticDir, 'config.json');
  const brandConfig = JSON.parse(fs.readFileSync(configPath, 'utf8')) as Record<string, unknown>;
  const results = new Map<string, Map<Screen, number>>();
  // BENCH_SOCKET_VARIANTS=2 measures only the third (after); the table keeps every column.
  const chosen = process.env.BENCH_SOCKET_VARIANTS?.split(',').map(Number);
  for (const variant of variants.filter((_, index) => !chosen || chosen.includes(index))) {
    // The built site's own config.json, per variant (the server reads it at start).
    fs.writeFileSync(configPath, JSON.stringify({ ...brandConfig, followAllPrices: variant.followAllPrices, quietEngineAfterMs: quietAfterMs }));
    const server = await startServer({ compression: variant.compression, staticDir });
    const counter = await startCountingProxy();
    try {
      results.set(variant.name, await measureScreens(`http://127.0.0.1:${proxyPort}`, counter));
    } finally {
      counter.close();
      await stopServer(server);
    }
  }
  const mb = (bytes: number | undefined) => (bytes === undefined ? '–' : `${(bytes / 1e6).toFixed(2)} MB`);
  const before = results.get(variants[0]!.name) ?? new Map<Screen, number>();
  const after = results.get(variants[2]!.name) ?? new Map<Screen, number>();
  return {
    title: `Bytes per hour received by one browser (390×844), TCP level through a loopback proxy, default simulator, ${measureMs / 1000} s per screen extrapolated`,
    header: ['screen', ...variants.map((variant) => variant.name), 'before ÷ after'],
    rows: screens.map((screen) => {
      const ratio = (before.get(screen) ?? 0) / Math.max(1, after.get(screen) ?? 0);
      return [screen, ...variants.map((variant) => mb(results.get(variant.name)?.get(screen))), `${ratio.toFixed(1)}×`];
    }),
  };
}

function residentBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb * 1024;
}

/** The server process itself (tsx runs it as a child of the launcher). */
function serverPid(launcher: ChildProcess): number {
  const children = fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === launcher.pid && fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('server/main.ts');
      } catch {
        return false;
      }
    });
  return children[0] ?? launcher.pid!;
}

/** Market clients in their own process (bench/socket-clients.ts), each following the home screen's symbols on `prefix`. */
async function openMarketClients(count: number, compression: boolean, prefix: string): Promise<{ messages: () => number; close: () => Promise<void> }> {
  const child = spawn(path.resolve('node_modules/.bin/tsx'), ['bench/socket-clients.ts', String(serverPort), String(count), compression ? '1' : '0', prefix], {
    env: { ...process.env, BENCH_SYMBOLS: homeSymbols.join(',') },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let messages = 0;
  let ready = false;
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    for (const line of chunk.split('\n').filter(Boolean)) {
      if (line === 'ready') ready = true;
      else messages = Number(line);
    }
  });
  await waitFor(async () => ready, 120_000, `${count} market clients`);
  return {
    messages: () => messages,
    close: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(10_000)]);
    },
  };
}

/** What one home screen follows: every tick (before this glance topic) or a glance. */
const clientTopics = [
  { name: 'every tick (/topic/price/…)', prefix: '/topic/price/' },
  { name: 'glance (/topic/price-1s/…)', prefix: '/topic/price-1s/' },
] as const;

async function serverCostPerConnection(staticDir: string): Promise<Section> {
  const rows: string[][] = [];
  const windowMs = Number(process.env.BENCH_SOCKET_CPU_MS ?? 10_000);
  for (const compression of [false, true]) {
    const launcher = await startServer({ compression, staticDir });
    const pid = serverPid(launcher);
    try {
      await sleep(2_000);
      // The server's own cost with no client, in the same run: the baseline.
      const idleStart = processTreeCpuSeconds(pid);
      await sleep(windowMs);
      const idleCpu = processTreeCpuSeconds(pid) - idleStart;
      for (const topics of clientTopics) {
        for (const count of [100, 1000]) {
          const rssBefore = residentBytes(pid);
          const clients = await openMarketClients(count, compression, topics.prefix);
          await sleep(3_000);
          const rssAfter = residentBytes(pid);
          const cpuStart = processTreeCpuSeconds(pid);
          const messagesStart = clients.messages();
          await sleep(windowMs);
          const cpu = processTreeCpuSeconds(pid) - cpuStart - idleCpu;
          // The child reports once a second: count whole seconds of its figures.
          const delivered = clients.messages() - messagesStart;
          await clients.close();
          await sleep(2_000);
          rows.push([
            compression ? 'permessage-deflate (12-bit window, memLevel 4)' : 'none',
            topics.name,
            String(count),
            `${((cpu * 1000) / (windowMs / 1000) / count).toFixed(3)} ms/s`,
            `${((rssAfter - rssBefore) / count / 1024).toFixed(0)} KB`,
            `${(delivered / (windowMs / 1000) / count).toFixed(1)}`,
            delivered > 0 ? `${((cpu * 1e6) / delivered).toFixed(1)} µs` : '–',
          ]);
        }
      }
    } finally {
      await stopServer(launcher);
    }
  }
  return {
    title: `Server CPU and memory per market connection (each following the home screen's ${homeSymbols.length} symbols; clients in their own process), idle server CPU subtracted, ${windowMs / 1000} s windows`,
    header: ['compression', 'topics', 'connections', 'server CPU per connection', 'resident memory per connection', 'messages/s per connection', 'server CPU per message'],
    rows,
  };
}

export async function runSocketBytesBench(): Promise<Section[]> {
  const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-bytes-site-'));
  const { build } = await import('vite');
  await build({ configFile: path.resolve('vite.config.ts'), logLevel: 'warn', build: { outDir: staticDir, emptyOutDir: true, sourcemap: false } });
  const sections: Section[] = [];
  const only = process.env.BENCH_SOCKET_PARTS?.split(',');
  if (!only || only.includes('browser')) sections.push(await browserBytes(staticDir));
  if (!only || only.includes('cpu')) sections.push(await serverCostPerConnection(staticDir));
  fs.rmSync(staticDir, { recursive: true, force: true });
  return sections;
}
