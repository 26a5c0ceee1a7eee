/**
 * Issue 6's and 18's order bench: market orders through HTTP (in-process inject: routing,
 * session check, rules, ledger and order in one transaction) against a bare single-row
 * insert transaction on the same database, on PGlite and, with BENCH_DATABASE_URL (or
 * TEST_DATABASE_URL), on PostgreSQL. Every statement sent is counted (begin and commit
 * included), so the table says how many database round trips one order costs. On
 * PostgreSQL a concurrent part follows: 1, 16 and 64 clients, each its own funded user,
 * each placing a market order and closing it in a loop; the ledger check must be clean after.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import inspector from 'node:inspector';
import os from 'node:os';
import path from 'node:path';
import { sql, type LogEvent } from 'kysely';
import { buildServer } from '../server/app';
import { processTreeCpuSeconds } from './browser/process-cpu';
import { onBenchPostgres } from './postgres-schema';
import { createTokenService } from '../server/auth/tokens';
import { openDatabase, type DatabaseTarget } from '../server/db/database';
import type { MarketDataSource, RawTick } from '../server/modules/market/sources/market-data-source';
import { UserAccountKind } from '../server/modules/ledger/ledger-kinds';
import { createMessageDelivery } from '../server/messaging/delivery';
import { createLedger } from '../server/modules/ledger/ledger';
import { readSettings } from '../server/settings';
import { money } from '../src/shared/money/money';
const { cash: cashKind } = UserAccountKind;

const orders = 400;
/** Place-and-close pairs per client in the concurrent part (the 1-client row is the sequential rate). */
const pairsPerClient = (clients: number) => Math.max(5, Math.ceil(600 / clients));
/** BENCH_ORDER_CLIENTS=1,16 measures other client counts; "" skips the concurrent part. */
const concurrency = (process.env.BENCH_ORDER_CLIENTS ?? '1,16,64').split(',').filter(Boolean).map(Number);

/** The V8 profiler of this process, started now; `stopInto` writes what it recorded (open it in Chrome's DevTools). */
async function startCpuProfile() {
  const session = new inspector.Session();
  session.connect();
  const post = (method: string) => new Promise<unknown>((resolve, reject) => session.post(method, (error, result) => (error ? reject(error) : resolve(result))));
  await post('Profiler.enable');
  await post('Profiler.start');
  return {
    async stopInto(dir: string, name: string) {
      const { profile } = (await post('Profiler.stop')) as { profile: unknown };
      session.disconnect();
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, name), JSON.stringify(profile));
    },
  };
}

function percentile(sorted: number[], fraction: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0;
}

/** Statements sent while `work` ran, by their first words (the round trips of one request). */
function statementKind(event: LogEvent) {
  const text = event.query.sql.replace(/\s+/g, ' ').trim();
  const table = /\b(?:from|into|update|table)\s+"?([a-z_]+)"?/i.exec(text)?.[1];
  return `${text.split(' ')[0]?.toLowerCase() ?? '?'}${table ? ` ${table}` : ''}`;
}

async function measure(target: DatabaseTarget & { label: string }, concurrent: boolean) {
  const counter = { count: 0, recording: null as string[] | null, timing: null as Map<string, { ms: number; n: number }> | null };
  const database = await openDatabase({
    ...target,
    onQuery: (event) => {
      counter.count += 1;
      counter.recording?.push(statementKind(event));
      if (counter.timing) {
        const kind = statementKind(event);
        const seen = counter.timing.get(kind) ?? { ms: 0, n: 0 };
        counter.timing.set(kind, { ms: seen.ms + event.queryDurationMillis, n: seen.n + 1 });
      }
    },
  });
  const feed: { emit: ((ticks: RawTick[]) => void) | null } = { emit: null };
  const source: MarketDataSource = { name: 'bench', start: (onTicks) => void (feed.emit = onTicks), stop: () => void (feed.emit = null) };
  const users = 1 + (concurrent ? Math.max(0, ...concurrency) : 0);
  const settings = readSettings({
    LOG_LEVEL: 'silent',
    STATIC_DIR: '/nonexistent',
    FOREX_MIN_DEPOSIT: '0',
    MIN_HOLD_SECONDS: '0',
    CODES_SENT_PER_10_MIN: String(users * 2 + 10),
    CODE_CHECKS_PER_10_MIN: String(users * 2 + 10),
  });
  const tokens = createTokenService({ key: crypto.randomBytes(32), accessTokenTtlSeconds: 900 });
  const delivery = createMessageDelivery({ smtpUrl: null, mailFrom: 'bench@example.com', dataDir: null });
  const app = await buildServer({ settings, database, tokens, delivery, logger: false, marketSource: source });
  await app.ready();
  const post = async (url: string, payload: unknown, token?: string) =>
    (await app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, payload: JSON.stringify(payload) })).json() as { code: number; data: unknown };
  const ledger = createLedger(database.db);

  async function fundedUser(index: number): Promise<string> {
    const email = `bench-${Date.now()}-${index}@example.com`;
    await post('/v1/wa-na/sendMail', { email, type: '1', locale: 'en' });
    await app.identity.settled(); // codes go out after the answer
    const code = (await delivery.outboxFor(email)).at(-1)?.code;
    await post('/v1/wa-na/register', { username: email, password: 'bench password', type: 'E', code, locale: 'en' });
    const { token } = (await post('/v1/wa-na/login', { username: email, password: 'bench password', type: 'E' })).data as { token: string };
    const { uid } = (await post('/v1/waa/user/info', {}, token)).data as { uid: number };
    await ledger.post({
      idempotencyKey: `bench-deposit:${uid}`,
      book: 'real',
      kind: 'deposit',
      uid,
      postings: [
        { account: { owner: null, book: 'real', kind: 'deposits' }, amount: -money('100000000') },
        { account: { owner: uid, book: 'real', kind: cashKind }, amount: money('100000000') },
      ],
    });
    return token;
  }

  const orderBody = (index: number, tag: string) => ({ tradePair: 'BTCUSDT', price: '0', orderQuantity: '0.01', multiple: 20, orderType: index % 2, buyPoint: 2, clientOrderId: `bench-${tag}-${index}` });
  async function place(token: string, index: number, tag: string): Promise<string> {
    const answer = await post('/exchange/addOrder', orderBody(index, tag), token);
    if (answer.code !== 0) throw new Error(`order ${tag}-${index} refused: ${JSON.stringify(answer)}`);
    return String(answer.data);
  }
  async function close(token: string, orderNo: string) {
    const answer = await post('/exchange/closeOrder', { orderId: orderNo }, token);
    if (answer.code !== 0) throw new Error(`close of ${orderNo} refused: ${JSON.stringify(answer)}`);
  }

  // Fresh ticks while the orders go in, as a live market gives: on a busy machine signing
  // up and the orders may outlast the stale threshold of one tick.
  const emitTick = () => feed.emit?.([{ symbol: 'BTCUSDT', timeMs: Date.now(), bid: 6_700_000, ask: 6_700_020, volume: 1 }]);
  emitTick();
  const ticker = setInterval(emitTick, 1_000);
  try {
    const token = await fundedUser(0);
    // Warm-up (prepared plans, caches), then one order's statements recorded.
    for (let index = 0; index < 10; index += 1) await place(token, index, 'warm');
    counter.recording = [];
    await place(token, 10, 'warm');
    const placeStatements = counter.recording;
    counter.recording = [];
    const first = await place(token, 11, 'warm');
    counter.recording = [];
    await close(token, first);
    const closeStatements = counter.recording;
    counter.recording = null;

    // BENCH_ORDER_PROFILE=<dir>: a CPU profile of the sequential orders alone (the trace of issue 18's order path).
    const profile = process.env.BENCH_ORDER_PROFILE ? await startCpuProfile() : null;
    const orderLatencies: number[] = [];
    const countBefore = counter.count;
    counter.timing = new Map();
    const orderStart = process.hrtime.bigint();
    for (let index = 0; index < orders; index += 1) {
      const started = process.hrtime.bigint();
      await place(token, index, 'seq');
      orderLatencies.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    const orderSeconds = Number(process.hrtime.bigint() - orderStart) / 1e9;
    const roundTrips = (counter.count - countBefore) / orders;
    // Each statement's time as the driver saw it (sent → answered), per order: where the order's time goes.
    const statementTimes = [...counter.timing].map(([kind, { ms, n }]) => `${kind} ${(ms / orders).toFixed(2)} ms${n === orders ? '' : ` (${(n / orders).toFixed(1)}×)`}`);
    counter.timing = null;
    if (profile) await profile.stopInto(process.env.BENCH_ORDER_PROFILE ?? '', `orders-${target.kind}.cpuprofile`);

    await sql`create table if not exists bench_insert (id serial primary key, note text not null)`.execute(database.db);
    const insertLatencies: number[] = [];
    const insertStart = process.hrtime.bigint();
    for (let index = 0; index < orders; index += 1) {
      const started = process.hrtime.bigint();
      await database.db.transaction().execute((trx) => sql`insert into bench_insert (note) values (${`row ${index}`})`.execute(trx));
      insertLatencies.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    const insertSeconds = Number(process.hrtime.bigint() - insertStart) / 1e9;
    // The least any order costs over HTTP: a signed-in call that only verifies its token and
    // checks its session (one statement), through the same routing, hooks and answer.
    const checkLatencies: number[] = [];
    const checkStart = process.hrtime.bigint();
    for (let index = 0; index < orders; index += 1) {
      const started = process.hrtime.bigint();
      const answer = await post('/v1/waa/user/checkToken', {}, token);
      if (answer.code !== 0) throw new Error(`checkToken refused: ${JSON.stringify(answer)}`);
      checkLatencies.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    const checkSeconds = Number(process.hrtime.bigint() - checkStart) / 1e9;
    checkLatencies.sort((a, b) => a - b);
    orderLatencies.sort((a, b) => a - b);
    insertLatencies.sort((a, b) => a - b);
    const insertP50 = percentile(insertLatencies, 0.5);
    const orderP50 = percentile(orderLatencies, 0.5);
    const sequential = [
      [`${target.label}: bare single-row insert transaction (baseline)`, '3', `${(orders / insertSeconds).toFixed(0)} /s`, `${insertP50.toFixed(2)} ms`, `${percentile(insertLatencies, 0.99).toFixed(2)} ms`, '1.00×'],
      [
        `${target.label}: signed-in call that only checks its session (user/checkToken: the floor of any order over HTTP)`,
        '1',
        `${(orders / checkSeconds).toFixed(0)} /s`,
        `${percentile(checkLatencies, 0.5).toFixed(2)} ms`,
        `${percentile(checkLatencies, 0.99).toFixed(2)} ms`,
        `p50 ${(insertP50 > 0 ? percentile(checkLatencies, 0.5) / insertP50 : 0).toFixed(1)}×`,
      ],
      [
        `${target.label}: market order over HTTP (rules, ledger, order)`,
        roundTrips.toFixed(1),
        `${(orders / orderSeconds).toFixed(0)} /s`,
        `${orderP50.toFixed(2)} ms`,
        `${percentile(orderLatencies, 0.99).toFixed(2)} ms`,
        `p50 ${(insertP50 > 0 ? orderP50 / insertP50 : 0).toFixed(1)}×, ${(insertSeconds > 0 ? orderSeconds / insertSeconds : 0).toFixed(1)}× the time`,
      ],
    ];
    const statements = [
      [`${target.label}: addOrder`, String(placeStatements.length), placeStatements.join(' → ')],
      [`${target.label}: closeOrder`, String(closeStatements.length), closeStatements.join(' → ')],
      [`${target.label}: addOrder, time per statement (${orders} orders, driver's view)`, '', statementTimes.join(' · ')],
    ];

    const concurrentRows: string[][] = [];
    if (concurrent) {
      // Users of their own: the sequential part's user holds its 400 open positions, which every close of it would value.
      const clientTokens: string[] = [];
      for (let index = 1; index < users; index += 1) clientTokens.push(await fundedUser(index));
      let baseRate = 0;
      for (const clients of concurrency) {
        const pairs = pairsPerClient(clients);
        const latencies: number[] = [];
        const clientsProfile = process.env.BENCH_ORDER_PROFILE && clients === Math.max(...concurrency) ? await startCpuProfile() : null;
        const nodeCpuBefore = process.cpuUsage();
        const postgresCpuBefore = processTreeCpuSeconds('postgres');
        const started = process.hrtime.bigint();
        await Promise.all(
          clientTokens.slice(0, clients).map(async (clientToken, client) => {
            for (let index = 0; index < pairs; index += 1) {
              const placedAt = process.hrtime.bigint();
              const orderNo = await place(clientToken, index, `c${clients}-${client}`);
              const closedAt = process.hrtime.bigint();
              await close(clientToken, orderNo);
              latencies.push(Number(closedAt - placedAt) / 1e6, Number(process.hrtime.bigint() - closedAt) / 1e6);
            }
          }),
        );
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        if (clientsProfile) await clientsProfile.stopInto(process.env.BENCH_ORDER_PROFILE ?? '', `orders-${clients}-clients.cpuprofile`);
        const requests = clients * pairs * 2;
        const rate = requests / seconds;
        // CPU per request: this process (server and load generator, in-process inject) and PostgreSQL's processes when local (0 otherwise).
        const nodeCpu = process.cpuUsage(nodeCpuBefore);
        const nodeMs = (nodeCpu.user + nodeCpu.system) / 1000 / requests;
        const postgresMs = ((processTreeCpuSeconds('postgres') - postgresCpuBefore) * 1000) / requests;
        const cores = os.availableParallelism();
        if (clients === 1) baseRate = rate;
        latencies.sort((a, b) => a - b);
        concurrentRows.push([
          `${target.label}: ${clients} client${clients === 1 ? '' : 's'}, ${pairs} place + close each`,
          `${rate.toFixed(0)} orders/s`,
          `${percentile(latencies, 0.5).toFixed(2)} ms`,
          `${percentile(latencies, 0.99).toFixed(2)} ms`,
          clients === 1 ? '1.00× (baseline)' : `${(baseRate > 0 ? rate / baseRate : 0).toFixed(2)}×`,
          `${nodeMs.toFixed(2)} ms + ${postgresMs > 0 ? `${postgresMs.toFixed(2)} ms` : 'n/a (not local)'}`,
          // All the machine's cores busy with this work alone: the most requests per second it could do.
          postgresMs > 0 ? `${((cores * 1000) / (nodeMs + postgresMs)).toFixed(0)} /s on ${cores} cores` : '',
        ]);
      }
      const problems = await ledger.check();
      concurrentRows.push([`${target.label}: ledger check after the run`, problems.length === 0 ? 'clean' : `${problems.length} problems: ${problems.slice(0, 3).join('; ')}`, '', '', '', '', '']);
    }
    return { sequential, statements, concurrentRows };
  } finally {
    clearInterval(ticker);
    await app.close();
    await database.close();
  }
}

export interface OrderThroughputResult {
  title: string;
  header: readonly string[];
  rows: (readonly string[])[];
}

export async function runOrderThroughputBench(): Promise<OrderThroughputResult[]> {
  // BENCH_ORDER_PGLITE=0 leaves PGlite out (a profile of the PostgreSQL path alone).
  const results = process.env.BENCH_ORDER_PGLITE === '0' ? [] : [await measure({ kind: 'pglite', dataDir: null, label: 'PGlite' }, false)];
  const onPostgres = await onBenchPostgres((target) => measure(target, concurrency.length > 0));
  if (onPostgres) results.push(onPostgres);
  return [
    {
      title: `Market orders through HTTP, ${orders} sequential orders per database (round trips per order, p50 / p99 latency)`,
      header: ['path', 'round trips', 'throughput', 'p50', 'p99', 'vs baseline'],
      rows: results.flatMap((result) => result.sequential),
    },
    { title: 'The statements of one order (after warm-up)', header: ['request', 'round trips', 'statements'], rows: results.flatMap((result) => result.statements) },
    ...(onPostgres
      ? [
          {
            title: 'Concurrent clients on PostgreSQL, each its own funded user placing and closing market orders (p50 / p99 per request)',
            header: ['clients', 'throughput', 'p50', 'p99', 'vs 1 client', 'CPU per request: Node + PostgreSQL', 'CPU ceiling'],
            rows: results.flatMap((result) => result.concurrentRows),
          },
        ]
      : []),
  ];
}
