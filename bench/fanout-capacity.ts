/**
 * Issue 18 part 4, fan-out capacity. `BENCH_ONLY=fanout-capacity npm run bench`.
 *
 * N = 100, 1,000 and 3,000 lightweight STOMP clients (bench/fanout-load.ts, its own child
 * process, loopback only, connecting at most 50 at a time) subscribe to `/topic/prices`:
 * first on the server's own endpoint with permessage-deflate per socket (the default), with
 * one deflate per publication shared by every socket (`SOCKET_COMPRESSION=shared`) and without it,
 * then, in the same run, on RabbitMQ Web-STOMP fed by the first server through
 * MARKET_BROKER_URL. Per path: CPU seconds per 1,000 delivered messages of the server
 * process and of RabbitMQ (its beam.smp from /proc), messages lost and p99 latency.
 * The RabbitMQ part needs BENCH_RABBITMQ_WEB_STOMP_URL or TEST_RABBITMQ_WEB_STOMP_URL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { processTreeCpuSeconds } from './browser/process-cpu';

interface Section {
  title: string;
  header: readonly string[];
  rows: (readonly string[])[];
}

interface LoadResult {
  connected: number;
  failed: number;
  delivered: number;
  batches: number;
  lost: number;
  closed: number;
  errors: number;
  seconds: number;
  tickP50: number;
  tickP99: number;
  spreadP50: number;
  spreadP99: number;
}

const basePort = Number(process.env.BENCH_FANOUT_PORT ?? 8420);
const windowMs = Number(process.env.BENCH_FANOUT_WINDOW_MS ?? 10_000);
const sizes = (process.env.BENCH_FANOUT_CLIENTS ?? '100,1000,3000').split(',').map(Number);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function startServer(port: number, env: Record<string, string>): Promise<ChildProcess> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-fanout-'));
  const child = spawn(path.resolve('node_modules/.bin/tsx'), ['server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      STATIC_DIR: '/nonexistent',
      LOG_LEVEL: 'error',
      JWT_SECRET: crypto.randomBytes(32).toString('hex'),
      MARKET_SEED: '7',
      MARKET_CONNECTIONS_PER_ADDRESS: '10000',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (await fetch(`http://127.0.0.1:${port}/healthz`).then((answer) => answer.ok).catch(() => false)) return child;
    if (Date.now() > deadline) throw new Error(`the bench server on ${port} did not start`);
    await sleep(250);
  }
}

async function stop(child: ChildProcess) {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(10_000)]);
}

/** RabbitMQ's Erlang VM on this machine (one broker): its pid, or null. */
function rabbitPid(): number | null {
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (fs.readFileSync(`/proc/${name}/comm`, 'utf8').trim() === 'beam.smp') return Number(name);
    } catch {
      // gone meanwhile
    }
  }
  return null;
}

/** One load run: connect, read the CPU counters, measure the window, read them again. */
async function load(options: { url: string; clients: number; deflate: boolean; rabbit?: { login: string; passcode: string } }, server: ChildProcess, beam: number | null) {
  const child = spawn(path.resolve('node_modules/.bin/tsx'), ['bench/fanout-load.ts'], {
    env: {
      ...process.env,
      FANOUT_URL: options.url,
      FANOUT_CLIENTS: String(options.clients),
      FANOUT_WINDOW_MS: String(windowMs),
      FANOUT_DEFLATE: options.deflate ? '1' : '0',
      ...(options.rabbit ? { FANOUT_LOGIN: options.rabbit.login, FANOUT_PASSCODE: options.rabbit.passcode } : {}),
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = readline.createInterface({ input: child.stdout! });
  const next = () => new Promise<Record<string, unknown>>((resolve, reject) => {
    lines.once('line', (line) => resolve(JSON.parse(line) as Record<string, unknown>));
    child.once('exit', (code) => reject(new Error(`load generator exited (${code})`)));
  });
  try {
    const ready = await next();
    if (!ready.ready) throw new Error(`load generator: ${JSON.stringify(ready)}`);
    await sleep(1_000); // the last subscriptions' snapshots settle
    const serverBefore = processTreeCpuSeconds(server.pid ?? -1);
    const beamBefore = beam === null ? 0 : processTreeCpuSeconds(beam);
    child.stdin!.write('start\n');
    const result = (await next()) as unknown as LoadResult & { error?: string };
    if (result.error) throw new Error(`load generator: ${result.error}`);
    return {
      ...result,
      serverCpu: processTreeCpuSeconds(server.pid ?? -1) - serverBefore,
      beamCpu: beam === null ? 0 : processTreeCpuSeconds(beam) - beamBefore,
    };
  } finally {
    lines.close();
    child.kill('SIGTERM');
  }
}

const perThousand = (cpu: number, delivered: number) => (delivered > 0 ? ((cpu / delivered) * 1000).toFixed(4) : '–');

export async function runFanoutCapacityBench(): Promise<Section[]> {
  const rabbitUrl = process.env.BENCH_RABBITMQ_WEB_STOMP_URL ?? process.env.TEST_RABBITMQ_WEB_STOMP_URL;
  const beam = rabbitUrl ? rabbitPid() : null;
  const deflated = await startServer(basePort, { SOCKET_COMPRESSION: '1', ...(rabbitUrl ? { MARKET_BROKER_URL: rabbitUrl } : {}) });
  const plain = await startServer(basePort + 4, { SOCKET_COMPRESSION: '0' });
  const shared = await startServer(basePort + 8, { SOCKET_COMPRESSION: 'shared' });
  // What each process spends with no client (the simulator, bars, the broker's ingest): the delivery's cost is what comes above it.
  const idle = async (pid: number | null) => {
    if (pid === null) return 0;
    const before = processTreeCpuSeconds(pid);
    await sleep(windowMs);
    return (processTreeCpuSeconds(pid) - before) / (windowMs / 1000);
  };
  const [deflatedIdle, plainIdle, sharedIdle, beamIdle] = [await idle(deflated.pid ?? null), await idle(plain.pid ?? null), await idle(shared.pid ?? null), await idle(beam)];
  const rows: string[][] = [];
  const capacity: { path: string; clients: number; cores: number; spreadP99: number; whole: boolean }[] = [];
  const baselines = new Map<number, number>();
  try {
    const paths = [
      { name: 'server endpoint, permessage-deflate per socket (default)', server: deflated, url: `ws://127.0.0.1:${basePort}/market/stomp`, deflate: true, rabbit: false },
      { name: 'server endpoint, permessage-deflate shared (SOCKET_COMPRESSION=shared)', server: shared, url: `ws://127.0.0.1:${basePort + 8}/market/stomp`, deflate: true, rabbit: false },
      { name: 'server endpoint, no compression', server: plain, url: `ws://127.0.0.1:${basePort + 4}/market/stomp`, deflate: false, rabbit: false },
      ...(rabbitUrl ? [{ name: 'RabbitMQ Web-STOMP (fed by MARKET_BROKER_URL)', server: deflated, url: rabbitUrl, deflate: false, rabbit: true }] : []),
    ];
    for (const clients of sizes) {
      for (const each of paths) {
        const result = await load({ url: each.url, clients, deflate: each.deflate, ...(each.rabbit ? { rabbit: { login: 'guest', passcode: 'guest' } } : {}) }, each.server, each.rabbit ? beam : null);
        // What delivers the messages: the server's process, or RabbitMQ's (the server then only publishes to it).
        const idleCores = each.rabbit ? beamIdle : each.server === deflated ? deflatedIdle : each.server === shared ? sharedIdle : plainIdle;
        const deliveringCpu = Math.max(0, (each.rabbit ? result.beamCpu : result.serverCpu) - idleCores * result.seconds);
        const costPerThousand = result.delivered > 0 ? (deliveringCpu / result.delivered) * 1000 : 0;
        if (each.rabbit) baselines.set(clients, costPerThousand);
        const cores = deliveringCpu / result.seconds;
        capacity.push({ path: each.name, clients, cores, spreadP99: result.spreadP99, whole: result.lost === 0 && result.closed === 0 && result.failed === 0 });
        process.stderr.write(`fanout-capacity: ${each.name}, ${clients} clients: ${JSON.stringify(result)}\n`);
        rows.push([
          each.name,
          String(clients),
          `${(result.delivered / result.seconds).toFixed(0)} /s`,
          perThousand(result.serverCpu, result.delivered),
          each.rabbit ? perThousand(result.beamCpu, result.delivered) : '–',
          perThousand(deliveringCpu, result.delivered),
          `${result.lost} of ${result.batches * result.connected}${result.closed > 0 ? ` (${result.closed} sockets closed)` : ''}${result.failed > 0 ? `; ${result.failed} clients not taken in time` : ''}`,
          `${result.tickP50.toFixed(0)} / ${result.tickP99.toFixed(0)} ms`,
          `${result.spreadP50.toFixed(0)} / ${result.spreadP99.toFixed(0)} ms`,
          cores.toFixed(2),
        ]);
      }
    }
  } finally {
    await stop(deflated);
    await stop(plain);
    await stop(shared);
  }
  // The RabbitMQ row of each N is the baseline of the endpoint rows of that N.
  for (const row of rows) {
    const clients = Number(row[1]);
    const baseline = baselines.get(clients);
    const cost = Number(row[5]);
    row.push(baseline && Number.isFinite(cost) ? `${(cost / baseline).toFixed(2)}×` : '–');
  }
  const capacityRows = [...new Set(capacity.map((each) => each.path))].map((name) => {
    const fitting = capacity.filter((each) => each.path === name && each.whole && each.spreadP99 < 100).sort((a, b) => b.clients - a.clients)[0];
    return [name, fitting ? String(fitting.clients) : 'none measured', fitting ? fitting.cores.toFixed(2) : '–', fitting && fitting.cores > 0 ? (fitting.clients / fitting.cores).toFixed(0) : '–'];
  });
  return [
    {
      title: `Fan-out of /topic/prices (one batch per 100 ms) to N STOMP clients, ${windowMs / 1000} s window per run (latency p50 / p99)`,
      header: ['path', 'clients', 'delivered', 'server CPU s / 1,000 msgs', 'RabbitMQ CPU s / 1,000 msgs', 'delivering process above idle, s / 1,000', 'lost', 'newest tick → receive', 'first → last client', 'delivering cores above idle', 'vs RabbitMQ (above idle)'],
      rows,
    },
    {
      title: 'Idle CPU of each process with no client (cores), subtracted above',
      header: ['process', 'cores'],
      rows: [
        ['server with permessage-deflate (publishing to RabbitMQ when configured)', deflatedIdle.toFixed(3)],
        ['server without compression', plainIdle.toFixed(3)],
        ['server with one deflate per publication', sharedIdle.toFixed(3)],
        ...(beam === null ? [] : [['RabbitMQ (beam.smp), taking the server\'s publications', beamIdle.toFixed(3)]]),
      ],
    },
    {
      // The newest tick → receive p99 holds the server's 100 ms batching window whatever the path (it is
      // about 100 ms with one client); the delivery's own publish → receive is the batch's first receipt
      // (loopback, under a millisecond when the machine keeps up) plus the spread to the last client.
      title: 'Sockets per core that every batch reached with p99 publish → receive (first → last client) under 100 ms: the largest N measured that lost nothing',
      header: ['path', 'clients', 'cores used', 'sockets per core'],
      rows: capacityRows,
    },
  ];
}
