/**
 * Bench parts 2 and 3 of the live-data issue: K tabs over one SharedWorker (the app)
 * against K tabs that each open their own market socket and process every tick on the
 * main thread (bench/browser/baseline-page.tsx), in headless Chromium, with the server
 * quoting many symbols at a high rate. Everything is measured in the same run. The paint
 * floor (issue 18, bench/browser/floor-page.ts): the app's rows, copied from its page,
 * updated at the app's measured rate from precomputed strings; both pages as ratios of it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from '@playwright/test';
import { Client, type IStompSocket } from '@stomp/stompjs';
import { decodePriceBatch } from '../../src/shared/api/market';
import { buildBenchSite } from './build';
import { processTreeCpuSeconds } from './process-cpu';
import { rendererMainCpuMsPerSecond, summarizeMainThread, traceWhile } from './trace-summary';

type SocketConstructor = new (url: string, protocols?: string[]) => IStompSocket;
const { WebSocket } = createRequire(import.meta.url)('ws') as { WebSocket: SocketConstructor };

export interface FanoutBenchOptions {
  symbols: number;
  ticksPerSecond: number;
  tabCounts: readonly number[];
  warmupMs: number;
  measureMs: number;
  port: number;
  /** Issue 30's target run: this many tabs at `throttledRate` × CPU throttle, app and paint floor alike (null: left out). */
  throttledTabs: number | null;
  throttledRate: number;
  /** The one phone-size tab at 4× (app and baseline). */
  phone: boolean;
}

export const defaultFanoutOptions: FanoutBenchOptions = {
  symbols: 500,
  ticksPerSecond: 20_000,
  tabCounts: [1, 4, 8],
  warmupMs: 4_000,
  measureMs: 10_000,
  port: 8291,
  throttledTabs: 8,
  throttledRate: 4,
  phone: true,
};

/**
 * The options with the environment's overrides: BENCH_MEASURE_MS, BENCH_FANOUT_PORT,
 * BENCH_TABS (e.g. `1,4,8`; `none` leaves the unthrottled rows out), BENCH_THROTTLED_TABS
 * (`none` leaves the throttled target run out), BENCH_PHONE=0.
 */
export function fanoutOptionsFromEnv(base: FanoutBenchOptions = defaultFanoutOptions, env: NodeJS.ProcessEnv = process.env): FanoutBenchOptions {
  const list = (value: string) => (value === 'none' ? [] : value.split(',').map(Number));
  return {
    ...base,
    ...(env.BENCH_MEASURE_MS ? { measureMs: Number(env.BENCH_MEASURE_MS) } : {}),
    ...(env.BENCH_FANOUT_PORT ? { port: Number(env.BENCH_FANOUT_PORT) } : {}),
    ...(env.BENCH_TABS ? { tabCounts: list(env.BENCH_TABS) } : {}),
    ...(env.BENCH_THROTTLED_TABS ? { throttledTabs: list(env.BENCH_THROTTLED_TABS)[0] ?? null } : {}),
    ...(env.BENCH_PHONE === '0' ? { phone: false } : {}),
  };
}

type Variant = 'worker' | 'baseline' | 'floor';

/** What the floor page repeats: the app's quote list and how often its rows changed. */
interface FloorInput {
  html: string;
  updatesPerSecond: number;
  batchMs: number;
}

interface ScenarioResult {
  variant: Variant;
  tabs: number;
  viewport: string;
  cpuThrottle: number;
  browserSockets: number;
  browserCpuMsPerSecond: number;
  serverCpuMsPerSecond: number;
  mainThreadMsPerSecondPerTab: number;
  /**
   * The main thread per tab in a second window with the bench's probe unsubscribed (desktop
   * rows; null elsewhere): wall (TaskDuration), script, and CPU time from a trace of the browser.
   */
  quiet: { wallMsPerSecondPerTab: number; scriptMsPerSecondPerTab: number; cpuMsPerSecondPerTab: number } | null;
  /** The JavaScript part of the main thread's time. */
  scriptMsPerSecondPerTab: number;
  rowUpdatesPerSecondPerTab: number;
  latencyP50Ms: number | null;
  latencyP99Ms: number | null;
  longTasks: number;
  longestTaskMs: number;
  hiddenTabs: number;
  /** Main-thread moments a second at which rows changed (the rate of paint batches). */
  updateBurstsPerSecondPerTab: number;
  /** The app's quote list as its first tab showed it (the floor page copies it). */
  quoteListHtml: string | null;
}

/** Records, in every page, when a visible row's tick reached the DOM, and every long task. */
export const pageProbe = `
  window.__bench = { updates: [], longTasks: [] };
  new MutationObserver((records) => {
    const now = Date.now();
    for (const record of records) {
      const row = record.target;
      const updated = row.getAttribute('data-updated');
      if (updated) window.__bench.updates.push(row.getAttribute('data-symbol') + '|' + updated, now);
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-updated'] });
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__bench.longTasks.push(entry.duration);
    }).observe({ type: 'longtask' });
  } catch {}
`;

export interface PageProbeData {
  updates: (string | number)[];
  longTasks: number[];
}

function percentile(sorted: readonly number[], fraction: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? null;
}

export async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export async function startServer(options: FanoutBenchOptions, staticDir: string): Promise<{ process: ChildProcess; origin: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-data-'));
  const child = spawn(path.resolve('node_modules/.bin/tsx'), ['server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(options.port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      STATIC_DIR: staticDir,
      LOG_LEVEL: 'warn',
      JWT_SECRET: crypto.randomBytes(32).toString('hex'),
      MARKET_SEED: '7',
      MARKET_LOAD_SYMBOLS: String(options.symbols),
      MARKET_LOAD_TICKS_PER_SECOND: String(options.ticksPerSecond),
      // Every baseline tab opens its own market socket, all from 127.0.0.1.
      MARKET_CONNECTIONS_PER_ADDRESS: '1000',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const origin = `http://127.0.0.1:${options.port}`;
  await waitFor(async () => (await fetch(`${origin}/healthz`)).ok, 120_000, 'the bench server');
  return { process: child, origin };
}

async function marketConnections(origin: string): Promise<number> {
  const response = await fetch(`${origin}/healthz`);
  return ((await response.json()) as { marketConnections: number }).marketConnections;
}

/** One of the probe's market connections (@stomp/stompjs). */
interface ProbeConnection {
  /** Subscribes on the open connection; answers the unsubscribe. */
  subscribe(destination: string, onMessage: (body: string) => void): () => void;
  disconnect(): Promise<void>;
}

/**
 * A subscriber beside the browser: when each tick was published, as seen on the wire. List
 * rows follow a symbol's glance topic (`/topic/price-1s/…`, at most a tick a second), so a
 * tick a row shows was published twice: in the all-prices batch, then on the glance topic
 * up to a second later, and its latency counts from the glance publication (the pipeline's
 * tick→DOM time, not the glance's deliberate hold). Glance topics are followed on extra
 * connections, within the server's 200 subscriptions per connection.
 */
function startPublicationProbe(origin: string) {
  const publishedAt = new Map<string, number>();
  /** When a tick was published on its glance topic. */
  const glancedAt = new Map<string, number>();
  let ticks = 0;
  let recording = false;
  const glanced = new Set<string>();
  const glanceConnections: ProbeConnection[] = [];
  /** Every subscription of the probe, so that it can leave them all for a while and come back. */
  const followed: { connection: ProbeConnection; destination: string; onMessage: (body: string) => void; leave: (() => void) | null }[] = [];
  let paused = false;
  const follow = (connection: ProbeConnection, destination: string, onMessage: (body: string) => void) => {
    const entry = { connection, destination, onMessage, leave: paused ? null : connection.subscribe(destination, onMessage) };
    followed.push(entry);
  };
  const open = (onOpen: (connection: ProbeConnection) => void): ProbeConnection => {
    const client = new Client({
      webSocketFactory: () => new WebSocket(`${origin.replace('http', 'ws')}/market/stomp`, ['v12.stomp']),
      connectHeaders: { host: '/' },
      // A connection the server dropped (a slow consumer under a throttled run) comes back with its subscriptions.
      reconnectDelay: 500,
      debug: () => undefined,
    });
    let everOpened = false;
    const opened: ProbeConnection = {
      subscribe(destination, onMessage) {
        // Off the connection, the entry is subscribed again when it reconnects.
        if (!client.connected) return () => undefined;
        const subscription = client.subscribe(destination, (message) => onMessage(message.body));
        return () => {
          if (client.connected) subscription.unsubscribe();
        };
      },
      disconnect: () => client.deactivate(),
    };
    client.onConnect = () => {
      if (!everOpened) {
        everOpened = true;
        onOpen(opened);
        return;
      }
      process.stderr.write('tick fan-out: a probe connection reconnected\n');
      for (const entry of followed) if (entry.connection === opened && entry.leave) entry.leave = opened.subscribe(entry.destination, entry.onMessage);
    };
    client.activate();
    return opened;
  };
  const note = (symbol: string, lastUpdate: number, now: number, glance = false) => {
    if (recording) (glance ? glancedAt : publishedAt).set(`${symbol}|${lastUpdate}`, now);
  };
  function followGlances(symbols: string[]) {
    const fresh = symbols.filter((symbol) => !glanced.has(symbol));
    for (let start = 0; start < fresh.length; start += 180) {
      const chunk = fresh.slice(start, start + 180);
      for (const symbol of chunk) glanced.add(symbol);
      glanceConnections.push(
        open((connection) => {
          for (const symbol of chunk) {
            follow(connection, `/topic/price-1s/${symbol}`, (body) => {
              const tick = JSON.parse(body) as { symbol: string; lastUpdate: number };
              note(tick.symbol, tick.lastUpdate, Date.now(), true);
            });
          }
        }),
      );
    }
  }
  /**
   * Batches received while recording, decoded only when read: decoding a batch of hundreds
   * of ticks on arrival would hold this process's event loop, and with it the glance
   * messages behind it on the other connections, whose arrival times are the app's reference.
   */
  const undecoded: { at: number; body: string }[] = [];
  const decodePending = () => {
    for (const { at, body } of undecoded.splice(0)) for (const tick of decodePriceBatch(body) ?? []) note(tick.symbol, tick.lastUpdate, at);
  };
  const connection = open((opened) => {
    follow(opened, '/topic/prices', (body) => {
      const now = Date.now();
      // The probe follows every symbol's glance topic, learnt from the first batches.
      if (glanced.size === 0 || !recording) {
        const batch = decodePriceBatch(body) ?? [];
        ticks += batch.length;
        if (batch.some((tick) => !glanced.has(tick.symbol))) followGlances(batch.map((tick) => tick.symbol));
        return;
      }
      ticks += 1;
      undecoded.push({ at: now, body });
    });
  });
  return {
    /** When each tick was published in the all-prices batch (decoded now, if not yet). */
    publishedAt: () => {
      decodePending();
      return publishedAt;
    },
    glancedAt,
    /** The probe's own market connections. */
    connections: () => 1 + glanceConnections.length,
    startRecording() {
      publishedAt.clear();
      glancedAt.clear();
      undecoded.length = 0;
      recording = true;
      ticks = 0;
    },
    ticksSeen: () => ticks,
    /**
     * Leaves every topic (the sockets stay open and idle): the probe's own work, which comes in
     * bursts at the moments the pages paint the same batches, is then off this machine's cores.
     */
    pause() {
      paused = true;
      for (const entry of followed) {
        entry.leave?.();
        entry.leave = null;
      }
    },
    resume() {
      paused = false;
      for (const entry of followed) entry.leave ??= entry.connection.subscribe(entry.destination, entry.onMessage);
    },
    stop: () => Promise.all([connection, ...glanceConnections].map((each) => each.disconnect())).then(() => undefined),
  };
}

export async function openTabs(context: BrowserContext, url: string, count: number, throttle: number, floor?: FloorInput): Promise<Page[]> {
  const pages: Page[] = [];
  for (let index = 0; index < count; index += 1) {
    const page = index === 0 && context.pages()[0] ? context.pages()[0]! : await context.newPage();
    if (throttle > 1) {
      const session = await context.newCDPSession(page);
      await session.send('Emulation.setCPUThrottlingRate', { rate: throttle });
    }
    await page.goto(url);
    if (floor) {
      await page.waitForFunction(() => '__floorStart' in window);
      await page.evaluate(
        (input) => (window as unknown as { __floorStart: (html: string, rate: number, batchMs: number) => void }).__floorStart(input.html, input.updatesPerSecond, input.batchMs),
        floor,
      );
    }
    pages.push(page);
  }
  for (const page of pages) {
    await page.locator('.quote-row[data-updated]').first().waitFor({ timeout: 60_000 });
  }
  return pages;
}

/** The page's main-thread busy time so far (DevTools' TaskDuration), counted from `start()`. */
export async function mainThreadMeter(context: BrowserContext, page: Page) {
  const session = await context.newCDPSession(page);
  await session.send('Performance.enable');
  return {
    /** Busy seconds so far: all tasks, and the JavaScript part of them. */
    async seconds(): Promise<{ task: number; script: number }> {
      const { metrics } = await session.send('Performance.getMetrics');
      const value = (name: string) => metrics.find((metric) => metric.name === name)?.value ?? 0;
      return { task: value('TaskDuration'), script: value('ScriptDuration') };
    },
  };
}

type Busy = { task: number; script: number };

/** Busy seconds per tab between two readings of every tab's meter (`pick`: all tasks or their script). */
function busyPerTab(before: readonly Busy[], after: readonly Busy[], pick: (busy: Busy) => number): number {
  return before.reduce((sum, each, index) => sum + pick(after[index] ?? each) - pick(each), 0) / before.length;
}

/**
 * The paint floor's window: the tabs' main threads with the probe unsubscribed, traced (CPU
 * time per task). The probe's bursts land at the moments the app's tabs paint the same batch
 * and took their core in the middle of those tasks (wall time 3 to 4 times the CPU time, where
 * the floor page, painting on its own timer, lost little); no user's machine runs that probe.
 * BENCH_TRACE=1 also prints one renderer main thread summed by event.
 */
async function quietWindow(
  options: FanoutBenchOptions,
  context: BrowserContext,
  pages: readonly Page[],
  meters: readonly Awaited<ReturnType<typeof mainThreadMeter>>[],
  probe: ReturnType<typeof startPublicationProbe>,
  scenario: { variant: Variant; tabs: number },
): Promise<NonNullable<ScenarioResult['quiet']>> {
  probe.pause();
  try {
    // Batches already on their way to the probe are read before the window opens.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const before = await Promise.all(meters.map((meter) => meter.seconds()));
    const started = Date.now();
    const traced = await traceWhile(await context.newCDPSession(pages[0]!), () => new Promise((resolve) => setTimeout(resolve, options.measureMs)));
    const seconds = (Date.now() - started) / 1000;
    const after = await Promise.all(meters.map((meter) => meter.seconds()));
    if (process.env.BENCH_TRACE) process.stderr.write(`trace of ${scenario.variant}, ${scenario.tabs} tab(s), probe unsubscribed, first tab:\n${summarizeMainThread(traced, seconds).join('\n')}\n`);
    return {
      wallMsPerSecondPerTab: (busyPerTab(before, after, (busy) => busy.task) * 1000) / seconds,
      scriptMsPerSecondPerTab: (busyPerTab(before, after, (busy) => busy.script) * 1000) / seconds,
      cpuMsPerSecondPerTab: rendererMainCpuMsPerSecond(traced, seconds) / pages.length,
    };
  } finally {
    probe.resume();
  }
}

async function runScenario(
  options: FanoutBenchOptions,
  origin: string,
  server: ChildProcess,
  probe: ReturnType<typeof startPublicationProbe>,
  scenario: { variant: Variant; tabs: number; viewport: { width: number; height: number }; throttle: number; floor?: FloorInput; quiet?: boolean },
): Promise<ScenarioResult> {
  process.stderr.write(`tick fan-out: ${scenario.variant}, ${scenario.tabs} tab(s), ${scenario.viewport.width}×${scenario.viewport.height}, CPU ${scenario.throttle}×\n`);
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    viewport: scenario.viewport,
    ...(scenario.viewport.width < 992 ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
  });
  try {
    await context.addInitScript(pageProbe);
    const url = {
      worker: `${origin}/search?q=LOAD`,
      baseline: `${origin}/bench/browser/baseline.html?q=LOAD`,
      floor: `${origin}/bench/browser/floor.html`,
    }[scenario.variant];
    const pages = await openTabs(context, url, scenario.tabs, scenario.throttle, scenario.floor);
    await new Promise((resolve) => setTimeout(resolve, options.warmupMs));

    const meters = await Promise.all(pages.map((page) => mainThreadMeter(context, page)));
    const hiddenTabs = (await Promise.all(pages.map((page) => page.evaluate(() => document.visibilityState)))).filter((state) => state !== 'visible').length;
    for (const page of pages) await page.evaluate(() => {
      const bench = (window as unknown as { __bench: PageProbeData }).__bench;
      bench.updates.length = 0;
      bench.longTasks.length = 0;
    });
    probe.startRecording();
    const sockets = (await marketConnections(origin)) - probe.connections();
    const mainBefore = await Promise.all(meters.map((meter) => meter.seconds()));
    const browserBefore = processTreeCpuSeconds(userDataDir);
    const serverBefore = processTreeCpuSeconds(server.pid ?? -1);
    const started = Date.now();
    await new Promise((resolve) => setTimeout(resolve, options.measureMs));
    const seconds = (Date.now() - started) / 1000;
    const browserCpu = processTreeCpuSeconds(userDataDir) - browserBefore;
    const serverCpu = processTreeCpuSeconds(server.pid ?? -1) - serverBefore;
    const mainAfter = await Promise.all(meters.map((meter) => meter.seconds()));
    // Let the last published ticks reach the pages before reading what they saw.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const data = await Promise.all(pages.map((page) => page.evaluate(() => (window as unknown as { __bench: PageProbeData }).__bench)));

    const quiet = (scenario.quiet ?? scenario.throttle === 1) ? await quietWindow(options, context, pages, meters, probe, scenario) : null;

    const quoteListHtml =
      scenario.variant === 'worker'
        ? await pages[0]!.evaluate(() => {
            const list = document.querySelector('.quote-list');
            return list ? `<section class="page fill" style="height: 100dvh"><div class="page-content">${list.outerHTML}</div></section>` : null;
          })
        : null;
    const publishedAt = probe.publishedAt();
    const latencies: number[] = [];
    let bursts = 0;
    let updates = 0;
    let longTasks = 0;
    let longestTaskMs = 0;
    for (const probeData of data) {
      let lastBurst = -1;
      for (let index = 0; index < probeData.updates.length; index += 2) {
        updates += 1;
        const seenAt = Number(probeData.updates[index + 1]);
        if (seenAt !== lastBurst) bursts += 1;
        lastBurst = seenAt;
        const key = String(probeData.updates[index]);
        // The app's rows show glance ticks; the baseline page every tick of the batch.
        const published = (scenario.variant === 'worker' ? probe.glancedAt.get(key) : undefined) ?? publishedAt.get(key);
        if (published !== undefined) latencies.push(Number(probeData.updates[index + 1]) - published);
      }
      longTasks += probeData.longTasks.filter((duration) => duration > 50).length;
      longestTaskMs = Math.max(longestTaskMs, ...probeData.longTasks, 0);
    }
    latencies.sort((a, b) => a - b);
    // BENCH_LATENCY_HISTOGRAM=1: each row's latencies in 20 ms buckets, and which reference each update was timed from.
    if (process.env.BENCH_LATENCY_HISTOGRAM) {
      const buckets = new Map<number, number>();
      for (const value of latencies) buckets.set(Math.floor(value / 20) * 20, (buckets.get(Math.floor(value / 20) * 20) ?? 0) + 1);
      const keys = data.flatMap((probeData) => probeData.updates.filter((_, index) => index % 2 === 0).map(String));
      const fromGlance = keys.filter((key) => probe.glancedAt.has(key)).length;
      const fromBatch = keys.filter((key) => !probe.glancedAt.has(key) && publishedAt.has(key)).length;
      const histogram = [...buckets].sort((a, b) => a[0] - b[0]).map(([from, count]) => `${from}:${count}`).join(' ');
      console.error(`latency ${scenario.variant} ${scenario.tabs} tab(s): timed from a glance ${fromGlance}, from a batch ${fromBatch}; ms:count ${histogram}`);
    }
    const mainPerTab = busyPerTab(mainBefore, mainAfter, (busy) => busy.task);
    const scriptPerTab = busyPerTab(mainBefore, mainAfter, (busy) => busy.script);
    return {
      variant: scenario.variant,
      tabs: scenario.tabs,
      viewport: `${scenario.viewport.width}×${scenario.viewport.height}`,
      cpuThrottle: scenario.throttle,
      browserSockets: sockets,
      browserCpuMsPerSecond: (browserCpu * 1000) / seconds,
      serverCpuMsPerSecond: (serverCpu * 1000) / seconds,
      mainThreadMsPerSecondPerTab: (mainPerTab * 1000) / seconds,
      quiet,
      scriptMsPerSecondPerTab: (scriptPerTab * 1000) / seconds,
      rowUpdatesPerSecondPerTab: updates / pages.length / seconds,
      latencyP50Ms: percentile(latencies, 0.5),
      latencyP99Ms: percentile(latencies, 0.99),
      longTasks,
      longestTaskMs,
      hiddenTabs,
      updateBurstsPerSecondPerTab: bursts / pages.length / seconds,
      quoteListHtml,
    };
  } finally {
    await context.close();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  }
}

const fixed = (value: number | null, digits = 1) => (value === null ? '–' : value.toFixed(digits));
const ratio = (baseline: number, value: number) => (value > 0 ? `${(baseline / value).toFixed(1)}×` : '∞');

export async function runTickFanoutBench(options: FanoutBenchOptions = defaultFanoutOptions): Promise<{ title: string; header: string[]; rows: string[][] }[]> {
  const staticDir = path.resolve('.tmp/bench-dist');
  await buildBenchSite(staticDir);
  const { process: server, origin } = await startServer(options, staticDir);
  const probe = startPublicationProbe(origin);
  try {
    await waitFor(async () => probe.ticksSeen() > 0, 30_000, 'prices from the bench server');
    const desktop = { width: 1440, height: 900 };
    const phone = { width: 390, height: 844 };
    const results: ScenarioResult[] = [];
    for (const tabs of options.tabCounts) {
      for (const variant of ['worker', 'baseline'] as const) {
        results.push(await runScenario(options, origin, server, probe, { variant, tabs, viewport: desktop, throttle: 1 }));
      }
      // The floor repeats what the app's tabs just showed: its rows, at its rate and cadence.
      const app = results.find((result) => result.variant === 'worker' && result.tabs === tabs)!;
      if (app.quoteListHtml && app.updateBurstsPerSecondPerTab > 0) {
        const floor = { html: app.quoteListHtml, updatesPerSecond: app.rowUpdatesPerSecondPerTab, batchMs: 1000 / app.updateBurstsPerSecondPerTab };
        results.push(await runScenario(options, origin, server, probe, { variant: 'floor', tabs, viewport: desktop, throttle: 1, floor }));
      }
    }
    // The target run: the app's tabs and the paint floor at the same throttle, each with its quiet window.
    const throttled: { app: ScenarioResult; floor: ScenarioResult | null } | null = options.throttledTabs
      ? await (async () => {
          const tabs = options.throttledTabs!;
          const throttle = options.throttledRate;
          const app = await runScenario(options, origin, server, probe, { variant: 'worker', tabs, viewport: desktop, throttle, quiet: true });
          if (!app.quoteListHtml || app.updateBurstsPerSecondPerTab <= 0) return { app, floor: null };
          const floor = { html: app.quoteListHtml, updatesPerSecond: app.rowUpdatesPerSecondPerTab, batchMs: 1000 / app.updateBurstsPerSecondPerTab };
          return { app, floor: await runScenario(options, origin, server, probe, { variant: 'floor', tabs, viewport: desktop, throttle, floor, quiet: true }) };
        })()
      : null;
    const phoneResults: ScenarioResult[] = [];
    for (const variant of options.phone ? (['worker', 'baseline'] as const) : []) {
      phoneResults.push(await runScenario(options, origin, server, probe, { variant, tabs: 1, viewport: phone, throttle: 4 }));
    }

    const fanoutRows = options.tabCounts.flatMap((tabs) => {
      const app = results.find((result) => result.variant === 'worker' && result.tabs === tabs)!;
      const base = results.find((result) => result.variant === 'baseline' && result.tabs === tabs)!;
      return [app, base].map((result) => [
        `${result.variant === 'worker' ? 'app (SharedWorker)' : 'baseline (socket per tab, main thread)'}`,
        String(result.tabs),
        String(result.browserSockets),
        fixed(result.browserCpuMsPerSecond, 0),
        fixed(result.mainThreadMsPerSecondPerTab),
        result === app ? ratio(base.mainThreadMsPerSecondPerTab, app.mainThreadMsPerSecondPerTab) : '1.0×',
        fixed(result.scriptMsPerSecondPerTab),
        result === app ? ratio(base.scriptMsPerSecondPerTab, app.scriptMsPerSecondPerTab) : '1.0×',
        fixed(result.rowUpdatesPerSecondPerTab, 0),
        fixed(result.latencyP50Ms, 0),
        fixed(result.latencyP99Ms, 0),
        fixed(result.serverCpuMsPerSecond, 0),
        String(result.hiddenTabs),
      ]);
    });
    const floorRows = options.tabCounts.flatMap((tabs) => {
      const floor = results.find((result) => result.variant === 'floor' && result.tabs === tabs);
      if (!floor) return [];
      return (['floor', 'worker', 'baseline'] as const).map((variant) => {
        const result = results.find((candidate) => candidate.variant === variant && candidate.tabs === tabs)!;
        const overFloor = (value: number, base: number) => (base > 0 ? `${(value / base).toFixed(2)}×` : '–');
        return [
          { floor: 'floor (precomputed strings, no framework)', worker: 'app (SharedWorker)', baseline: 'naive page (socket per tab, React state)' }[variant],
          String(tabs),
          fixed(result.rowUpdatesPerSecondPerTab, 0),
          fixed(result.updateBurstsPerSecondPerTab, 1),
          fixed(result.quiet?.cpuMsPerSecondPerTab ?? null),
          overFloor(result.quiet?.cpuMsPerSecondPerTab ?? 0, floor.quiet?.cpuMsPerSecondPerTab ?? 0),
          fixed(result.quiet?.wallMsPerSecondPerTab ?? null),
          overFloor(result.quiet?.wallMsPerSecondPerTab ?? 0, floor.quiet?.wallMsPerSecondPerTab ?? 0),
          fixed(result.quiet?.scriptMsPerSecondPerTab ?? null),
          fixed(result.quiet ? result.quiet.wallMsPerSecondPerTab - result.quiet.scriptMsPerSecondPerTab : null),
          fixed(result.mainThreadMsPerSecondPerTab),
        ];
      });
    });
    const phoneRows = phoneResults.map((result) => [
      result.variant === 'worker' ? 'app (SharedWorker)' : 'baseline (main thread)',
      fixed(result.mainThreadMsPerSecondPerTab),
      fixed(result.scriptMsPerSecondPerTab),
      String(result.longTasks),
      fixed(result.longestTaskMs, 0),
      fixed(result.latencyP50Ms, 0),
      fixed(result.latencyP99Ms, 0),
    ]);
    const overFloor = (value: number | undefined, base: number | undefined) => (value !== undefined && base ? `${(value / base).toFixed(2)}×` : '–');
    const throttledRows = throttled
      ? [throttled.app, throttled.floor].flatMap((result) =>
          result
            ? [
                [
                  result.variant === 'worker' ? 'app (SharedWorker)' : 'floor (precomputed strings, no framework)',
                  String(result.tabs),
                  fixed(result.rowUpdatesPerSecondPerTab, 0),
                  fixed(result.updateBurstsPerSecondPerTab, 1),
                  result.variant === 'worker' ? fixed(result.latencyP50Ms, 0) : '–',
                  result.variant === 'worker' ? fixed(result.latencyP99Ms, 0) : '–',
                  fixed(result.quiet?.cpuMsPerSecondPerTab ?? null),
                  overFloor(result.quiet?.cpuMsPerSecondPerTab, throttled.floor?.quiet?.cpuMsPerSecondPerTab),
                  fixed(result.quiet?.wallMsPerSecondPerTab ?? null),
                  overFloor(result.quiet?.wallMsPerSecondPerTab, throttled.floor?.quiet?.wallMsPerSecondPerTab),
                  fixed(result.mainThreadMsPerSecondPerTab),
                  fixed(result.browserCpuMsPerSecond, 0),
                ],
              ]
            : [],
        )
      : [];
    return [
      ...(throttled
        ? [
            {
              title: `Tick fan-out target run: ${throttled.app.tabs} tabs, ${options.symbols} symbols at ${options.ticksPerSecond} ticks/s, ${desktop.width}×${desktop.height}, CPU throttled ${options.throttledRate}× (app and floor alike), ${options.measureMs / 1000} s per window. Targets: p99 tick → DOM ≤ 50 ms, main thread ≤ 1.3× the floor. Latency in the first window (with the probe); main thread in the second (probe unsubscribed): CPU from a trace, wall from TaskDuration`,
              header: ['page', 'tabs', 'row updates/s per tab', 'paint batches/s', 'p50 ms', 'p99 ms', 'main thread CPU ms/s per tab', 'CPU vs floor', 'main thread wall ms/s per tab', 'wall vs floor', 'wall ms/s per tab with the probe', 'browser CPU ms/s'],
              rows: throttledRows,
            },
          ]
        : []),
      {
        title: `Live quotes in Chromium, ${options.symbols} symbols at ${options.ticksPerSecond} ticks/s, ${desktop.width}×${desktop.height}, ${options.measureMs / 1000} s per row (CPU in ms per second; latency from publication to the row's DOM update)`,
        header: ['variant', 'tabs', 'browser sockets', 'browser CPU ms/s', 'main thread ms/s per tab', 'main thread: baseline ÷ app', 'of which script ms/s', 'script: baseline ÷ app', 'row updates/s per tab', 'p50 ms', 'p99 ms', 'server CPU ms/s', 'hidden tabs'],
        rows: fanoutRows,
      },
      {
        title: `Paint floor, ${desktop.width}×${desktop.height}: the main thread as a ratio of the floor page (the app's rows at the app's row rate and batch cadence; target app ≤ 1.3×), in a second ${options.measureMs / 1000} s window with the bench's latency probe unsubscribed. CPU is the main thread's own work; wall time also counts the moments its tasks waited for a core. The last column is the wall time in the first window, with the probe: its bursts come at the moments the app paints the same batch`,
        header: [
          'page',
          'tabs',
          'row updates/s per tab',
          'paint batches/s',
          'main thread CPU ms/s per tab (trace)',
          'CPU vs floor',
          'main thread wall ms/s per tab (TaskDuration)',
          'wall vs floor',
          'of which script ms/s',
          'the rest (style, layout, paint) ms/s',
          'wall ms/s per tab with the probe',
        ],
        rows: floorRows,
      },
      ...(phoneResults.length === 0 ? [] : [{
        title: `Quote list at phone size (${phone.width}×${phone.height}), CPU throttled 4×, one tab, ${options.measureMs / 1000} s`,
        header: ['variant', 'main thread ms/s', 'of which script ms/s', 'long tasks > 50 ms', 'longest task ms', 'p50 ms', 'p99 ms'],
        rows: phoneRows,
      }]),
    ];
  } finally {
    await probe.stop().catch(() => undefined);
    server.kill('SIGTERM');
  }
}
