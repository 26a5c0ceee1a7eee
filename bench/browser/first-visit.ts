/**
 * Issue 37, what a phone downloads. `BENCH_ONLY=first-visit npm run bench`.
 *
 * Builds the app, starts the built server (`server/main.ts`, the embedded database) and opens
 * `/` in headless Chromium at a phone's size (390×844, touch), as a first visit (empty cache)
 * and then as a later visit in the same browser context (the first tab closed, so its shared
 * worker has ended and starts again). Bytes are Chromium's own count: the DevTools protocol's
 * `Network.loadingFinished` `encodedDataLength` (headers and body as they came over the
 * wire), for every HTTP request of the page and of its shared worker to the server; socket
 * frames are not HTTP and are left out (bench/socket-bytes.ts counts them). A visit ends when
 * no request has started or finished for `quietMs`, so the screens fetched ahead on idle count.
 *
 * Beside it, the first load's JavaScript as the bundle bench counts it (its files gzipped at
 * level 6 from the manifest) and as those same files came through the server.
 *
 * FIRST_VISIT_BASELINE=<a checkout with node_modules> builds and serves that tree as well, in
 * the same run, as "before" (e.g. `git worktree add /tmp/old-assets main`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from '@playwright/test';
import { WebSocket } from 'ws';
import { build } from 'vite';
import { bytesOf, firstLoadFiles, total, type Manifest } from '../bundle/route-bytes';

interface Section {
  title: string;
  header: readonly string[];
  rows: (readonly string[])[];
}

const serverPort = Number(process.env.BENCH_FIRST_VISIT_PORT ?? 8470);
const devtoolsPort = serverPort + 1;
const origin = `http://127.0.0.1:${serverPort}`;
const quietMs = 5_000;
const visitLimitMs = 60_000;
const firstVisitTargetBytes = 200 * 1024;
const laterVisitTargetBytes = 10 * 1024;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One HTTP request to the server as Chromium saw it. */
interface Request {
  path: string;
  type: string;
  status: number;
  fromCache: boolean;
  bytes: number;
  /** Of `bytes`, the response's status line and headers. */
  headerBytes: number;
  done: boolean;
}

/** A tree to measure: its checkout, and the build made of it. */
interface Tree {
  name: string;
  root: string;
  dist: string;
}

async function buildTree(tree: Omit<Tree, 'dist'>): Promise<Tree> {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-first-visit-'));
  if (tree.root === process.cwd()) {
    await build({ configFile: path.join(tree.root, 'vite.config.ts'), logLevel: 'warn', build: { outDir: dist, emptyOutDir: true, sourcemap: false, manifest: true } });
  } else {
    // Another tree builds with its own Vite config and plugins.
    const child = spawn(path.join(tree.root, 'node_modules/.bin/vite'), ['build', '--outDir', dist, '--emptyOutDir', '--manifest', '--logLevel', 'warn'], { cwd: tree.root, stdio: ['ignore', 'inherit', 'inherit'] });
    const code = await new Promise((resolve) => child.once('exit', resolve));
    if (code !== 0) throw new Error(`building ${tree.root} failed`);
  }
  return { ...tree, dist };
}

async function startServer(tree: Tree): Promise<ChildProcess> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-first-visit-data-'));
  // The embedded database: what is measured is the files and the first answers, not PostgreSQL.
  const environment = { ...process.env };
  delete environment.DATABASE_URL;
  const child = spawn(path.join(tree.root, 'node_modules/.bin/tsx'), ['server/main.ts'], {
    cwd: tree.root,
    env: {
      ...environment,
      PORT: String(serverPort),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      STATIC_DIR: tree.dist,
      LOG_LEVEL: 'warn',
      JWT_SECRET: crypto.randomBytes(32).toString('hex'),
      MARKET_SEED: '7',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 180_000;
  for (;;) {
    if ((await fetch(`${origin}/healthz`).catch(() => null))?.ok) return child;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('the bench server did not start');
    await sleep(300);
  }
}

async function stopServer(child: ChildProcess) {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(10_000)]);
}

/**
 * The browser's own DevTools connection (Playwright keeps its pipe to itself): attaches to
 * every page and shared worker as it starts, paused until its network events are on, and
 * records their requests to the server.
 */
async function watchNetwork() {
  const version = (await (await fetch(`http://127.0.0.1:${devtoolsPort}/json/version`)).json()) as { webSocketDebuggerUrl: string };
  const socket = new WebSocket(version.webSocketDebuggerUrl, { perMessageDeflate: false });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  let nextId = 1;
  const send = (method: string, params: object = {}, sessionId?: string) => socket.send(JSON.stringify({ id: nextId++, method, params, ...(sessionId ? { sessionId } : {}) }));
  const watched = new Set(['page', 'shared_worker', 'worker', 'service_worker']);
  const requests = new Map<string, Request>();
  // The status on the wire (a revalidated file's 304; responseReceived shows the cached 200), which may come first.
  const wireStatus = new Map<string, { status: number; headerBytes: number }>();
  let lastActivity = Date.now();
  const sharedWorkers = new Set<string>();

  socket.on('message', (data: Buffer) => {
    const message = JSON.parse(String(data)) as { method?: string; sessionId?: string; params?: Record<string, unknown> };
    const params = message.params ?? {};
    const key = (id: unknown) => `${message.sessionId ?? ''}:${String(id)}`;
    switch (message.method) {
      case 'Target.attachedToTarget': {
        const { sessionId, targetInfo } = params as { sessionId: string; targetInfo: { type: string; targetId: string } };
        if (watched.has(targetInfo.type)) {
          send('Network.enable', {}, sessionId);
          send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true }, sessionId);
        }
        if (targetInfo.type === 'shared_worker') sharedWorkers.add(targetInfo.targetId);
        send('Runtime.runIfWaitingForDebugger', {}, sessionId);
        break;
      }
      case 'Target.targetDestroyed':
        sharedWorkers.delete(String(params.targetId));
        break;
      case 'Network.requestWillBeSent': {
        const { request, type } = params as { request: { url: string }; type?: string };
        if (!request.url.startsWith(origin)) break;
        lastActivity = Date.now();
        requests.set(key(params.requestId), { path: request.url.slice(origin.length), type: type ?? 'Other', status: 0, fromCache: false, bytes: 0, headerBytes: 0, done: false });
        break;
      }
      case 'Network.responseReceivedExtraInfo':
        wireStatus.set(key(params.requestId), { status: Number(params.statusCode), headerBytes: typeof params.headersText === 'string' ? Buffer.byteLength(params.headersText) : 0 });
        break;
      case 'Network.requestServedFromCache': {
        const request = requests.get(key(params.requestId));
        if (request) request.fromCache = true;
        break;
      }
      case 'Network.responseReceived': {
        const request = requests.get(key(params.requestId));
        const response = params.response as { status: number; fromDiskCache?: boolean; fromPrefetchCache?: boolean };
        if (!request) break;
        request.status = response.status;
        if (response.fromDiskCache || response.fromPrefetchCache) request.fromCache = true;
        break;
      }
      case 'Network.loadingFinished':
      case 'Network.loadingFailed': {
        const request = requests.get(key(params.requestId));
        if (!request) break;
        lastActivity = Date.now();
        request.done = true;
        request.bytes = typeof params.encodedDataLength === 'number' ? params.encodedDataLength : 0;
        break;
      }
    }
  });
  send('Target.setDiscoverTargets', { discover: true });
  send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true });
  await sleep(200);

  return {
    /** The requests since the last call, once none has started or finished for `quietMs`. */
    async visit(open: () => Promise<void>): Promise<Request[]> {
      requests.clear();
      wireStatus.clear();
      const started = Date.now();
      await open();
      while (Date.now() - lastActivity < quietMs && Date.now() - started < visitLimitMs) await sleep(250);
      return [...requests].map(([id, request]) => {
        const wire = wireStatus.get(id);
        // A request answered from the cache has no wire status and no bytes.
        return wire && !request.fromCache ? { ...request, status: wire.status, headerBytes: Math.min(wire.headerBytes, request.bytes) } : request;
      });
    },
    async sharedWorkerEnded(): Promise<void> {
      const deadline = Date.now() + 15_000;
      while (sharedWorkers.size > 0 && Date.now() < deadline) await sleep(100);
    },
    close: () => socket.close(),
  };
}

/** What each part of a visit weighs. */
function summary(requests: Request[]) {
  const sum = (list: Request[]) => list.reduce((bytes, request) => bytes + request.bytes, 0);
  const kind = (request: Request) =>
    request.path.startsWith('/v1/') || request.path.startsWith('/market/') ? 'api' : /\.m?js(\?|$)/.test(request.path) ? 'script' : /\.css(\?|$)/.test(request.path) ? 'style' : 'other';
  const of = (name: string) => requests.filter((request) => kind(request) === name);
  return {
    requests: requests.length,
    fromCache: requests.filter((request) => request.fromCache).length,
    revalidated: requests.filter((request) => request.status === 304).length,
    bytes: sum(requests),
    headers: requests.reduce((bytes, request) => bytes + request.headerBytes, 0),
    scripts: sum(of('script')),
    styles: sum(of('style')),
    api: sum(of('api')),
    other: sum(of('other')),
  };
}

interface Measured {
  tree: Tree;
  first: Request[];
  later: Request[];
}

async function measure(tree: Tree): Promise<Measured> {
  const server = await startServer(tree);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', `--remote-debugging-port=${devtoolsPort}`],
  });
  let context: BrowserContext | null = null;
  try {
    const network = await watchNetwork();
    context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    const phone = context;
    let page = await phone.newPage();
    const first = await network.visit(async () => void (await page.goto(`${origin}/`, { waitUntil: 'load' })));
    await page.close();
    await network.sharedWorkerEnded();
    page = await phone.newPage();
    const later = await network.visit(async () => void (await page.goto(`${origin}/`, { waitUntil: 'load' })));
    network.close();
    return { tree, first, later };
  } finally {
    await context?.close();
    await browser.close();
    await stopServer(server);
  }
}

export async function runFirstVisitBench(): Promise<Section[]> {
  const trees: Omit<Tree, 'dist'>[] = [];
  const baseline = process.env.FIRST_VISIT_BASELINE;
  if (baseline) trees.push({ name: `before (${path.basename(path.resolve(baseline))})`, root: path.resolve(baseline) });
  trees.push({ name: baseline ? 'after (this tree)' : 'this tree', root: process.cwd() });

  const results: Measured[] = [];
  for (const tree of trees) results.push(await measure(await buildTree(tree)));

  const visits: Section = {
    title: `A visit to / on a phone (390×844), HTTP bytes Chromium received (encodedDataLength), until ${quietMs / 1000} s without a request`,
    header: ['build', 'visit', 'requests (from cache, 304)', 'transferred', 'of which headers', 'scripts', 'styles', 'API', 'other', 'vs target'],
    rows: [],
  };
  for (const { tree, first, later } of results) {
    for (const [visit, requests, target] of [
      ['first (empty cache)', first, firstVisitTargetBytes],
      ['later (same context)', later, laterVisitTargetBytes],
    ] as const) {
      const parts = summary(requests);
      visits.rows.push([
        tree.name,
        visit,
        `${parts.requests} (${parts.fromCache}, ${parts.revalidated})`,
        kb(parts.bytes),
        kb(parts.headers),
        kb(parts.scripts),
        kb(parts.styles),
        kb(parts.api),
        kb(parts.other),
        `${(parts.bytes / target).toFixed(2)}× of ${kb(target)}`,
      ]);
    }
  }

  const bundle: Section = {
    title: "The first load's JavaScript (the bundle bench's files: entry, shared worker, first strings) as counted and as sent",
    header: ['build', 'files', 'raw', 'bundle figure (gzip 6)', 'through the server (first visit)', 'sent / figure'],
    rows: [],
  };
  for (const { tree, first } of results) {
    const manifest = JSON.parse(fs.readFileSync(path.join(tree.dist, '.vite', 'manifest.json'), 'utf8')) as Manifest;
    const files = firstLoadFiles(manifest, (file) => fs.readFileSync(path.join(tree.dist, file), 'utf8'));
    const counted = total(files, (file) => bytesOf(fs.readFileSync(path.join(tree.dist, file))));
    const sent = first.filter((request) => files.has(request.path.replace(/^\//, '').split('?')[0] ?? '')).reduce((bytes, request) => bytes + request.bytes, 0);
    bundle.rows.push([tree.name, String(files.size), kb(counted.raw), kb(counted.gzip), kb(sent), `${(sent / counted.gzip).toFixed(2)}×`]);
  }

  const last = results.at(-1);
  const firstDetail: Section = {
    title: `The first visit's largest requests (${last?.tree.name ?? ''})`,
    header: ['request', 'type', 'status', 'transferred'],
    rows: [...(last?.first ?? [])]
      .sort((a, b) => b.bytes - a.bytes)
      .slice(0, 25)
      .map((request) => [request.path.split('?')[0] ?? '', request.type, String(request.status), kb(request.bytes)]),
  };
  const laterDetail: Section = {
    title: `The later visit's requests (${last?.tree.name ?? ''})`,
    header: ['request', 'type', 'status', 'transferred'],
    rows: (last?.later ?? []).map((request) => [request.path.split('?')[0] ?? '', request.type, `${request.status}${request.fromCache ? ' (cache)' : ''}`, `${request.bytes} B`]),
  };
  return [visits, bundle, firstDetail, laterDetail];
}
