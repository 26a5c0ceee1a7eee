/**
 * The worker-ingest bench in Chromium: the engine's market feed over the worker's market
 * socket (@stomp/stompjs, binary ticks; bench/browser/ingest-worker.ts) in a dedicated
 * worker of a blank page, fed by a feed that speaks the market endpoint's side of the
 * batch subscription: every 100 ms a publication window of one tick per symbol, encoded
 * (stateful, against each symbol's previous tick) and cut into MESSAGEs as the endpoint does. The worker thread's CPU time is read from
 * /proc over a measuring window after a warm-up: unlike wall time it leaves out the time
 * the thread waited for a core on a busy machine. `Emulation.setCPUThrottlingRate` on the
 * page throttles its workers too (a fixed loop in a worker took 5× as long at rate 4), but
 * by pausing the thread, which its CPU time does not count: the share of a throttled core
 * is that CPU time times the rate (a core 4× slower does a quarter of the work a second).
 *
 * Backlog: after the window, every tick sent must have arrived within a second; the lag
 * (arrival − the tick's stamp, taken when the feed built its window) is reported too.
 *
 * Before and after in one run: with INGEST_BASE_CHECKOUT naming a checkout of an earlier
 * commit (`git worktree add <dir> fd3548a`, node_modules linked), each scenario runs that
 * checkout's worker (and its encoder and frames on the feed's side, so that the wire form is
 * its own) and this one's in turn, BENCH_INGEST_TRIALS times (3 by default then, else 1),
 * and reports the medians and their ratio.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { build } from 'esbuild';
import { WebSocketServer, type WebSocket } from 'ws';
import type { PriceTick } from '../../src/shared/api/market';
import { binaryTicksMessageBytes, createBinaryTickEncoder, splitBinaryTicks } from '../../src/shared/market/binary-ticks';
import { tickLinesTopic } from '../../src/shared/market/tick-lines';
import { serializeBinaryFrame, serializeFrame } from '../../server/modules/market/stomp/frame';
import type * as FrameModule from '../../server/modules/market/stomp/frame';
import type * as BinaryTicksModule from '../../src/shared/market/binary-ticks';

const windowMs = 100;
const warmupMs = 3_000;
const measureMs = 10_000;

interface Scenario {
  ticksPerSecond: number;
  throttle: number;
}

interface WorkerStats {
  ticks: number;
  totalTicks: number;
  rows: number;
  lagP50Ms: number | null;
  lagP99Ms: number | null;
  lagMaxMs: number | null;
}

/** The processes of the browser whose command line holds `marker`, and their descendants. */
function browserProcesses(marker: string): string[] {
  const parents = new Map<string, string>();
  const roots: string[] = [];
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      parents.set(pid, stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] ?? '');
      if (fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)) roots.push(pid);
    } catch {
      // gone between listing and reading
    }
  }
  const included = new Set(roots);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, parent] of parents) {
      if (!included.has(pid) && included.has(parent)) {
        included.add(pid);
        grew = true;
      }
    }
  }
  return [...included];
}

/** CPU seconds of the threads named `DedicatedWorker` in these processes (the bench's browser runs one worker). */
function dedicatedWorkerCpuSeconds(processes: readonly string[]): number {
  let seconds = 0;
  for (const pid of processes) {
    let tasks: string[];
    try {
      tasks = fs.readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tasks) {
      try {
        if (fs.readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim() !== 'DedicatedWorker') continue;
        // schedstat's first field is the thread's time on a CPU in ns (stat's utime and stime count in 10 ms ticks, too coarse for 1 %).
        const onCpuNs = Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
        if (Number.isFinite(onCpuNs)) {
          seconds += onCpuNs / 1e9;
          continue;
        }
        const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        seconds += (Number(fields[11]) + Number(fields[12])) / 100;
      } catch {
        // gone between listing and reading
      }
    }
  }
  return seconds;
}

/** The feed's side of the wire: the encoder and frames of the checkout whose worker reads them. */
interface FeedCodec {
  createBinaryTickEncoder: typeof createBinaryTickEncoder;
  splitBinaryTicks: typeof splitBinaryTicks;
  binaryTicksMessageBytes: number;
  serializeBinaryFrame: typeof serializeBinaryFrame;
  serializeFrame: typeof serializeFrame;
}

const thisCodec: FeedCodec = { createBinaryTickEncoder, splitBinaryTicks, binaryTicksMessageBytes, serializeBinaryFrame, serializeFrame };

/** A checkout's worker script for the bench page (and its codec), built from its own sources. */
async function checkoutUnderTest(root: string): Promise<{ workerScript: string; codec: FeedCodec }> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'worker-ingest-'));
  await build({ entryPoints: [path.resolve(root, 'bench/browser/ingest-worker.ts')], bundle: true, format: 'iife', platform: 'browser', target: 'es2022', minify: process.env.BENCH_INGEST_PROFILE === undefined, outfile: path.join(outDir, 'ingest-worker.js'), logLevel: 'warning' });
  const workerScript = fs.readFileSync(path.join(outDir, 'ingest-worker.js'), 'utf8');
  fs.rmSync(outDir, { recursive: true, force: true });
  if (path.resolve(root) === path.resolve('.')) return { workerScript, codec: thisCodec };
  const ticks = (await import(path.resolve(root, 'src/shared/market/binary-ticks.ts'))) as typeof BinaryTicksModule;
  const frames = (await import(path.resolve(root, 'server/modules/market/stomp/frame.ts'))) as typeof FrameModule;
  return {
    workerScript,
    codec: { createBinaryTickEncoder: ticks.createBinaryTickEncoder, splitBinaryTicks: ticks.splitBinaryTicks, binaryTicksMessageBytes: ticks.binaryTicksMessageBytes, serializeBinaryFrame: frames.serializeBinaryFrame, serializeFrame: frames.serializeFrame },
  };
}

/** The feed: the endpoint's answers to CONNECT and SUBSCRIBE, and a publication window every 100 ms to the batch subscription. */
function startFeed(server: http.Server, ticksPerSecond: number, codec: FeedCodec) {
  const { createBinaryTickEncoder, splitBinaryTicks, binaryTicksMessageBytes, serializeBinaryFrame, serializeFrame } = codec;
  const symbols = Array.from({ length: Math.round((ticksPerSecond * windowMs) / 1000) }, (_, index) => `LOAD${String(index + 1).padStart(5, '0')}USDT`);
  const sockets = new Set<{ socket: WebSocket; batch: string | null }>();
  const wss = new WebSocketServer({ server, path: '/market/stomp', handleProtocols: () => 'v12.stomp' });
  /** Ticks sent to the batch subscriptions so far. */
  let sent = 0;
  let window = 0;
  /** The all-prices source's encoder, as the server holds it, and its last publication. */
  const encoder = createBinaryTickEncoder('0');
  let lastTicks: PriceTick[] = [];
  /** Octets of MESSAGE frames sent, to report the octets a tick. */
  let octets = 0;
  const sendBatch = (peer: { socket: WebSocket; batch: string | null }, messageId: string, body: Uint8Array) => {
    for (const [index, piece] of splitBinaryTicks(body, binaryTicksMessageBytes).entries()) {
      // As binary messages with content-length, as the endpoint sends binary ticks.
      const headers = { destination: tickLinesTopic, subscription: peer.batch!, 'message-id': `${messageId}-${index}`, 'content-type': 'application/octet-stream' };
      const frame = serializeBinaryFrame({ command: 'MESSAGE', headers }, piece);
      octets += frame.length;
      peer.socket.send(frame, { binary: true });
    }
  };
  wss.on('connection', (socket: WebSocket) => {
    const peer = { socket, batch: null as string | null };
    sockets.add(peer);
    socket.on('message', (data: Buffer) => {
      const text = data.toString();
      if (text.startsWith('CONNECT')) socket.send(serializeFrame({ command: 'CONNECTED', headers: { version: '1.2', 'heart-beat': '10000,10000' } }));
      if (text.startsWith('SUBSCRIBE') && text.includes(`\ndestination:${tickLinesTopic}\n`)) peer.batch = /\nid:([^\n]*)/.exec(text)?.[1] ?? null;
      // A member of the batch (the all-prices topic) starts from the source's state, as at the endpoint.
      if (text.startsWith('SUBSCRIBE') && text.includes('\nbatch:') && peer.batch !== null && lastTicks.length > 0) {
        sendBatch(peer, 'snapshot', encoder.snapshot(lastTicks));
        sent += lastTicks.length;
      }
    });
    socket.on('close', () => sockets.delete(peer));
  });
  const timer = setInterval(() => {
    window += 1;
    const now = Date.now();
    const ticks: PriceTick[] = symbols.map((symbol, index) => {
      const price = (100 + ((window * 7 + index * 13) % 1000) / 100).toFixed(2);
      return {
        symbol, name: `Load ${index + 1}`, price, bidPrice: price, askPrice: (Number(price) + 0.02).toFixed(2), volume: String(1000 + window),
        lastUpdate: now, type: 'Cryptos', priceChangePercent: (Number(price) - 100).toFixed(2), low: '99.00', high: '111.00',
      };
    });
    // Encoded once for every peer, as the endpoint's source does; a peer that joined meanwhile had the state first.
    const body = encoder.encode(ticks);
    lastTicks = ticks;
    for (const peer of sockets) {
      if (peer.batch === null) continue;
      sendBatch(peer, String(window), body);
      sent += ticks.length;
    }
  }, windowMs);
  return {
    symbols,
    sent: () => sent,
    octets: () => octets,
    /** Stops publishing (the sockets stay open until the server closes). */
    stop() {
      clearInterval(timer);
    },
    close() {
      clearInterval(timer);
      for (const peer of sockets) peer.socket.terminate();
      wss.close();
    },
  };
}

/** Prints the worker's hottest functions over 5 s (BENCH_INGEST_PROFILE=1, which also leaves the worker's script unminified, so that they have names; a development aid). */
async function profileWorker(browser: Browser) {
  const session = await browser.newBrowserCDPSession();
  const { targetInfos } = await session.send('Target.getTargets');
  const worker = targetInfos.find((target) => target.type === 'worker');
  if (!worker) return;
  const { sessionId } = await session.send('Target.attachToTarget', { targetId: worker.targetId, flatten: false });
  let id = 0;
  const pending = new Map<number, (result: unknown) => void>();
  session.on('Target.receivedMessageFromTarget', (event) => {
    const message = JSON.parse(event.message) as { id?: number; result?: unknown };
    if (message.id !== undefined) pending.get(message.id)?.(message.result);
  });
  const send = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve) => {
      id += 1;
      pending.set(id, resolve);
      void session.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) });
    });
  await send('Profiler.enable');
  await send('Profiler.start');
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  const { profile } = (await send('Profiler.stop')) as { profile: { nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[]; samples: number[]; timeDeltas: number[] } };
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  profile.samples.forEach((sample, index) => {
    const frame = byId.get(sample)?.callFrame;
    const key = `${frame?.functionName || '(anonymous)'}:${frame?.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  const total = [...self.values()].reduce((sum, each) => sum + each, 0);
  process.stderr.write(`${[...self].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([key, us]) => `${((us / total) * 100).toFixed(1)}% ${(us / 5_000).toFixed(1)} ms/s ${key}`).join('\n')}\n`);
}

async function runScenario({ workerScript, codec }: { workerScript: string; codec: FeedCodec }, scenario: Scenario) {
  const page = '<!doctype html><meta charset="utf-8"><title>worker ingest</title><script>window.__worker = new Worker("/ingest-worker.js");</script>';
  const server = http.createServer((request, response) => {
    if (request.url === '/ingest-worker.js') {
      response.setHeader('content-type', 'text/javascript');
      response.end(workerScript);
      return;
    }
    response.setHeader('content-type', 'text/html');
    response.end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const feed = startFeed(server, scenario.ticksPerSecond, codec);
  // Other browsers on this machine run dedicated workers too: only this one's are counted.
  const marker = `--worker-ingest-bench=${process.pid}-${scenario.ticksPerSecond}-${scenario.throttle}`;
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: [marker] });
  try {
    const tab = await browser.newPage();
    if (scenario.throttle > 1) await (await tab.context().newCDPSession(tab)).send('Emulation.setCPUThrottlingRate', { rate: scenario.throttle });
    await tab.goto(`http://127.0.0.1:${port}/`);
    const stats = (reset: boolean) =>
      tab.evaluate(
        (reset) =>
          new Promise<WorkerStats>((resolve) => {
            const worker = (window as unknown as { __worker: Worker }).__worker;
            worker.onmessage = (event: MessageEvent<WorkerStats>) => resolve(event.data);
            worker.postMessage({ type: 'stats', reset });
          }),
        reset,
      );
    await tab.evaluate(
      (start) => (window as unknown as { __worker: Worker }).__worker.postMessage({ type: 'start', ...start }),
      { url: `ws://127.0.0.1:${port}/market/stomp`, watched: feed.symbols.slice(0, 20) },
    );
    await new Promise((resolve) => setTimeout(resolve, warmupMs));
    // The counts start together: the worker's at the reset, the feed's between two windows.
    await new Promise((resolve) => setTimeout(resolve, windowMs / 2));
    const sentBefore = feed.sent();
    const octetsBefore = feed.octets();
    await stats(true);
    const processes = browserProcesses(marker);
    const cpuBefore = dedicatedWorkerCpuSeconds(processes);
    const started = Date.now();
    await new Promise((resolve) => setTimeout(resolve, measureMs));
    const cpuAfter = dedicatedWorkerCpuSeconds(processes);
    const seconds = (Date.now() - started) / 1000;
    if (process.env.BENCH_INGEST_PROFILE) await profileWorker(browser);
    const inWindow = await stats(false);
    // No backlog: the feed stops, and a second later everything it sent has arrived.
    feed.stop();
    const sent = feed.sent() - sentBefore;
    const octetsPerTick = (feed.octets() - octetsBefore) / Math.max(1, sent);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const settled = await stats(false);
    // Counted from the start on both sides, so that no window falls between the two counts' resets.
    const backlog = feed.sent() - settled.totalTicks;
    return {
      ...scenario,
      sentPerSecond: sent / seconds,
      receivedPerSecond: inWindow.ticks / seconds,
      backlog,
      octetsPerTick,
      cpuShare: (cpuAfter - cpuBefore) / seconds,
      measured: inWindow,
      loadAverage: os.loadavg()[0]!,
    };
  } finally {
    await browser.close();
    feed.close();
    server.close();
  }
}

export async function runWorkerIngestBrowserBench() {
  const baseRoot = process.env.INGEST_BASE_CHECKOUT;
  const checkouts = [
    ...(baseRoot ? [{ label: `before (${path.basename(baseRoot)})`, ...(await checkoutUnderTest(baseRoot)) }] : []),
    { label: baseRoot ? 'after (this checkout)' : 'this checkout', ...(await checkoutUnderTest('.')) },
  ];
  const trials = Number(process.env.BENCH_INGEST_TRIALS ?? (baseRoot ? 3 : 1));
  const scenarios: Scenario[] = process.env.BENCH_INGEST_SCENARIOS
    ? // e.g. `5000x1,5000x4`: ticks a second × CPU throttle
      process.env.BENCH_INGEST_SCENARIOS.split(',').map((each) => {
        const [ticksPerSecond, throttle] = each.split('x').map(Number);
        return { ticksPerSecond: ticksPerSecond ?? 20_000, throttle: throttle ?? 1 };
      })
    : [
        { ticksPerSecond: 20_000, throttle: 4 },
        // What the app's worker gets from a server quoting 20,000 ticks/s over 500 symbols: one tick per symbol per 100 ms flush.
        { ticksPerSecond: 5_000, throttle: 4 },
        { ticksPerSecond: 20_000, throttle: 1 },
        { ticksPerSecond: 100_000, throttle: 1 },
        // The floor: a worker with almost nothing to read (Chromium's own per-message and timer work).
        { ticksPerSecond: 10, throttle: 4 },
      ];
  const rows: string[][] = [];
  const ms = (value: number | null) => (value === null ? '–' : `${Math.round(value)} ms`);
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  for (const scenario of scenarios) {
    const results = checkouts.map(() => [] as Awaited<ReturnType<typeof runScenario>>[]);
    // Interleaved, so that a neighbour's load on this machine falls on each checkout alike.
    for (let trial = 0; trial < trials; trial += 1) for (const [index, checkout] of checkouts.entries()) results[index]!.push(await runScenario(checkout, scenario));
    const firstShare = median(results[0]!.map((each) => each.cpuShare));
    for (const [index, checkout] of checkouts.entries()) {
      const runs = results[index]!;
      // The run of median CPU stands for the checkout (its lag and counts with it).
      const result = runs.find((each) => each.cpuShare === median(runs.map((run) => run.cpuShare)))!;
      rows.push([
        `${result.ticksPerSecond.toLocaleString('en-US')} ticks/s`,
        `${result.throttle}×`,
        checkout.label,
        result.octetsPerTick.toFixed(1),
        Math.round(result.sentPerSecond).toLocaleString('en-US'),
        Math.round(result.receivedPerSecond).toLocaleString('en-US'),
        Math.max(...runs.map((run) => run.backlog)).toLocaleString('en-US'),
        `${(result.cpuShare * 100).toFixed(2)}%`,
        `${(result.cpuShare * result.throttle * 100).toFixed(1)}%`,
        `${((result.cpuShare * 1000 * 1000) / Math.max(1, result.receivedPerSecond)).toFixed(2)} ms`,
        checkouts.length > 1 ? `${(result.cpuShare / firstShare).toFixed(2)}×` : '–',
        `${ms(result.measured.lagP50Ms)} / ${ms(result.measured.lagP99Ms)} / ${ms(result.measured.lagMaxMs)}`,
        runs.map((run) => `${(run.cpuShare * run.throttle * 100).toFixed(1)}%`).join(' '),
        result.loadAverage.toFixed(1),
      ]);
    }
  }
  return [
    {
      title: `Worker ingest in Chromium: the engine's market feed over @stomp/stompjs and binary ticks in a dedicated worker, ${measureMs / 1000} s after ${warmupMs / 1000} s, median of ${trials}`,
      header: [
        'feed (one tick per symbol per 100 ms)', 'CPU throttle', 'checkout', 'octets a tick (MESSAGE frames)', 'ticks/s sent', 'ticks/s received', 'not arrived 1 s after (most)', "worker thread's CPU, share of one core",
        'share of the throttled core (CPU × rate)', 'CPU per 1,000 ticks', 'CPU vs the first checkout', 'lag p50 / p99 / max', 'throttled share of each trial', 'load average (1 min)',
      ],
      rows,
    },
  ];
}
