// `npm run faults`: the fault suite (issue 35). On its own PostgreSQL and RabbitMQ (never the
// machine's) it runs the topology of `npm run cluster` with a standby market candidate, and
// while scripted customers trade, deposit and withdraw (finance staff approving through the
// staff API) and a Chromium tab watches prices, it applies each fault in turn. It reports, per
// fault: acknowledged operations lost, tick batches the server processes accepted from a market
// lease already taken over and those of an older lease they dropped (from their logs), double settlements, seconds until the tab's prices move again, and the ledger check; then a
// 3-minute outage of every server process. Exits 1 when a must-be-0 cell is not 0.
// Needs root (runuser, mount), /usr/lib/postgresql/15, rabbitmq-server, /usr/bin/chromium; 8 to 17 minutes.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Client, type IStompSocket } from '@stomp/stompjs';
import { chromium, type Locator } from '@playwright/test';
import pg from 'pg';
import { createRequire } from 'node:module';
import { runLedgerCheck } from '../../server/tools/ledger-check';
import { createApi, customer, financeStaff, trade, type Customer, type Tally } from './clients';
import { startFaultProxy } from './fault-proxy';
import { ownPostgres, ownRabbitmq, wait } from './services';

const { WebSocket } = createRequire(import.meta.url)('ws') as { WebSocket: new (url: string, protocols: string[]) => IStompSocket };
const ports = { proxy: 8251, market: 8252, api1: 8253, api2: 8254, market2: 8255, brokerFault: 8256, postgres: 55432, amqp: 55672, stomp: 55674, dist: 55625 };
const started = Date.now();
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tradeweb-faults-'));
fs.chmodSync(root, 0o755);
const dataDir = path.join(root, 'data');
const uploadsDir = path.join(dataDir, 'uploads');
const log = (line: string) => process.stdout.write(`[faults ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);

const postgres = ownPostgres(path.join(root, 'postgres'), ports.postgres);
const rabbitmq = ownRabbitmq(path.join(root, 'rabbitmq'), ports);
const databaseUrl = postgres.url('tradeweb_faults');
let cluster: ChildProcess | null = null;
let browserClose: (() => Promise<void>) | null = null;
let uploadsMounted = false;

async function cleanUp() {
  if (uploadsMounted) spawnQuiet('umount', [uploadsDir]);
  await browserClose?.().catch(() => undefined);
  await stopCluster();
  rabbitmq.stop();
  postgres.stop();
}

function spawnQuiet(command: string, args: string[]) {
  return new Promise<number>((resolve) => spawn(command, args, { stdio: 'ignore' }).on('exit', (code) => resolve(code ?? 1)));
}

function healthz(port: number): Promise<{ leads?: { market: boolean; jobs: boolean } } | null> {
  return new Promise((resolve) => {
    const request = http.get({ host: '127.0.0.1', port, path: '/healthz', timeout: 2_000 }, (answer) => {
      let body = '';
      answer.on('data', (chunk: Buffer) => (body += chunk.toString()));
      answer.on('end', () => {
        try {
          resolve(answer.statusCode === 200 ? (JSON.parse(body) as { leads?: { market: boolean; jobs: boolean } }) : null);
        } catch {
          resolve(null);
        }
      });
    });
    request.on('error', () => resolve(null));
    request.on('timeout', () => request.destroy());
  });
}

async function untilHealthy(port: number, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await healthz(port))) {
    if (Date.now() > deadline) throw new Error(`port ${port}: no healthy /healthz after ${timeoutMs} ms`);
    await wait(300);
  }
}

const productEnvironment = {
  DEV_OUTBOX: '1',
  LOG_LEVEL: 'warn',
  SWITCHES: 'VIRTUAL_CURRENCY_TRADE=1,Contract=1,OptionMock=1',
  MIN_HOLD_SECONDS: '0',
  WITHDRAWAL_HOLD_SECONDS: '0',
  WITHDRAW_MIN_VERIFICATION: 'none',
  FOUR_EYES_USD: '1000000',
  CODES_SENT_PER_10_MIN: '1000',
  CODE_CHECKS_PER_10_MIN: '1000',
  UPLOADS_PER_10_MIN: '1000',
  ACCESS_TOKEN_TTL_SECONDS: '7200',
};

function startCluster(build: boolean) {
  const output = fs.openSync(path.join(root, 'cluster.log'), 'a');
  cluster = spawn(process.execPath, ['scripts/cluster.mjs'], {
    stdio: ['ignore', output, output],
    env: {
      ...process.env,
      ...productEnvironment,
      DATABASE_URL: databaseUrl,
      MARKET_BROKER_URL: rabbitmq.stompUrl,
      CLUSTER_PORT: String(ports.proxy),
      DATA_DIR: dataDir,
      CLUSTER_SKIP_BUILD: build ? '0' : '1',
      CLUSTER_STANDBY_MARKET: '1',
      // The market process reaches the broker through the fault proxy, which can cut it off.
      CLUSTER_MEMBER_ENV: JSON.stringify({ market: { MARKET_BROKER_URL: `ws://127.0.0.1:${ports.brokerFault}/ws` } }),
    },
  });
}

async function stopCluster() {
  const running = cluster;
  if (!running || running.exitCode !== null) return;
  const exited = new Promise((resolve) => running.once('exit', resolve));
  running.kill('SIGTERM');
  await Promise.race([exited, wait(20_000)]);
  cluster = null;
}

const memberPid = (name: string) => Number(fs.readFileSync(path.join(dataDir, 'run', `${name}.pid`), 'utf8'));

/** The market candidate (market, market-2) that leads now, by its /healthz. */
async function marketLeader(): Promise<{ name: string; port: number } | null> {
  for (const member of [{ name: 'market', port: ports.market }, { name: 'market-2', port: ports.market2 }]) {
    if ((await healthz(member.port))?.leads?.market) return member;
  }
  return null;
}

/** Every stamped tick batch on the cluster link, as a consumer without the epoch gate would take them (for the summary: leaders and epochs). */
function watchLink() {
  const namespace = crypto.createHash('sha256').update(databaseUrl).digest('hex').slice(0, 16);
  const batches: { atMs: number; origin: string; epoch: number }[] = [];
  let highest = 0;
  const older: { atMs: number; epoch: number; highest: number }[] = [];
  const client = new Client({
    webSocketFactory: () => new WebSocket(rabbitmq.stompUrl, ['v12.stomp']),
    connectHeaders: { login: 'guest', passcode: 'guest' },
    reconnectDelay: 500,
    heartbeatIncoming: 10_000,
    heartbeatOutgoing: 10_000,
    debug: () => undefined,
    onConnect: () => {
      client.subscribe(`/topic/cluster.${namespace}.ticks`, (message) => {
        try {
          const envelope = JSON.parse(message.body) as { o: string; p: string };
          const epoch = (JSON.parse(envelope.p) as { e: number }).e;
          const atMs = Date.now();
          batches.push({ atMs, origin: envelope.o, epoch });
          if (epoch < highest) older.push({ atMs, epoch, highest });
          highest = Math.max(highest, epoch);
        } catch {
          // not a tick batch
        }
      });
    },
  });
  client.activate();
  return { batches, older, stop: () => client.deactivate() };
}

/**
 * What the server processes said of the market leader's tick batches (cluster.log, each
 * process's lines prefixed with its name): batches they accepted from a lease already taken
 * over ('market ticks accepted from an older lease', `count`) and batches of an older lease
 * their gate dropped ('… after dropping older ones', `dropped`), each dated by its log time.
 */
function fencingEvents(): { atMs: number; member: string; accepted: number; dropped: number }[] {
  const events: { atMs: number; member: string; accepted: number; dropped: number }[] = [];
  const text = fs.existsSync(path.join(root, 'cluster.log')) ? fs.readFileSync(path.join(root, 'cluster.log'), 'utf8') : '';
  for (const line of text.split('\n')) {
    const match = /^\[([\w-]+)\] (\{.*\})$/.exec(line);
    if (!match || !line.includes('market ticks')) continue;
    try {
      const entry = JSON.parse(match[2]!) as { time?: number; msg?: string; count?: number; dropped?: number };
      const atMs = entry.time ?? 0;
      if (entry.msg?.startsWith('market ticks accepted from an older lease')) events.push({ atMs, member: match[1]!, accepted: entry.count ?? 0, dropped: 0 });
      else if (entry.msg?.startsWith('market ticks of the newest lease again')) events.push({ atMs, member: match[1]!, accepted: 0, dropped: entry.dropped ?? 0 });
    } catch {
      // not a log entry
    }
  }
  return events;
}

/** The tab's BTCUSDT price, read every 250 ms: when it last changed. */
function watchPrice(price: Locator) {
  let last = '';
  let changedAtMs = 0;
  const changes: number[] = [];
  let stopped = false;
  void (async () => {
    while (!stopped) {
      const text = await price.textContent({ timeout: 1_000 }).catch(() => null);
      if (text && /\d/.test(text) && text !== last) {
        last = text;
        changedAtMs = Date.now();
        changes.push(changedAtMs);
      }
      await wait(250);
    }
  })();
  return {
    /** Seconds from `sinceMs` until the price changed twice after it (moving, not one snapshot), or null after `timeoutMs`. */
    async flowsAgainAfter(sinceMs: number, timeoutMs: number): Promise<number | null> {
      const deadline = sinceMs + timeoutMs;
      let firstChange = 0;
      while (Date.now() < deadline) {
        if (changedAtMs > sinceMs) {
          if (firstChange === 0) firstChange = changedAtMs;
          else if (changedAtMs > firstChange) return (changedAtMs - sinceMs) / 1000;
        }
        await wait(100);
      }
      return null;
    },
    /** The longest time (s) the price stood still between `fromMs` and `toMs`. */
    longestStall(fromMs: number, toMs: number): number {
      const inside = [fromMs, ...changes.filter((at) => at > fromMs && at < toMs), toMs];
      let longest = 0;
      for (let index = 1; index < inside.length; index += 1) longest = Math.max(longest, inside[index]! - inside[index - 1]!);
      return longest / 1000;
    },
    stop: () => (stopped = true),
  };
}

interface FaultRow {
  fault: string;
  startMs: number;
  endMs: number;
  recoverySeconds: number | null;
  note: string;
}

async function main() {
  log(`work folder ${root}`);
  await postgres.start();
  const admin = new pg.Client({ connectionString: postgres.url('postgres') });
  await admin.connect();
  await admin.query('create database tradeweb_faults');
  await admin.end();
  await rabbitmq.start();
  log(`own PostgreSQL on ${ports.postgres}; own RabbitMQ node faults@localhost, plugins: ${rabbitmq.enabledPlugins().split('\n').join(', ')}`);
  const brokerProxy = await startFaultProxy(ports.brokerFault, ports.stomp);

  startCluster(process.env.FAULTS_SKIP_BUILD !== '1');
  for (const port of [ports.market, ports.api1, ports.api2, ports.market2, ports.proxy]) await untilHealthy(port, 600_000);
  log('cluster up: market, api-1, api-2, market-2 (standby) behind the proxy on 8251');

  const base = `http://127.0.0.1:${ports.proxy}`;
  const api = createApi(base);
  // The staff command line and the ledger check read the cluster's secrets (cluster.mjs keeps them in DATA_DIR/secrets.json).
  const secrets = JSON.parse(fs.readFileSync(path.join(dataDir, 'secrets.json'), 'utf8')) as Record<string, string>;
  const staffEnvironment = { ...process.env, ...productEnvironment, ...secrets, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  const finance = await financeStaff(api, staffEnvironment);
  const customers: Customer[] = [];
  for (const name of ['alice', 'bruno', 'chen']) {
    const who = await customer(api, finance, name);
    const funded = await who.depositApproved('2000');
    if (!('ref' in funded)) throw new Error(`${name}: the funding deposit was not approved: ${funded.refused.code} ${funded.refused.msg}`);
    await who.moveIntoTrading('1500');
    customers.push(who);
  }
  log(`three customers funded (deposits approved by finance, moved into trading); their withdrawals ask ${customers[0]!.smallestWithdrawal} USDT, the smallest allowed`);

  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
  browserClose = () => browser.close();
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  await page.goto(`http://localhost:${ports.proxy}/`);
  const price = page.getByRole('region', { name: 'Bitcoin' }).getByTestId('chart-price');
  await price.waitFor({ timeout: 60_000 });
  await page.evaluate(() => ((window as unknown as { faultsNotReloaded: boolean }).faultsNotReloaded = true));
  const tab = watchPrice(price);
  if ((await tab.flowsAgainAfter(Date.now(), 60_000)) === null) throw new Error('the tab shows no moving price before any fault');
  const link = watchLink();
  log('a Chromium tab shows moving prices; the link is watched');

  let currentFault = 'warm-up';
  let stopTrading = false;
  const tally: Tally = { acknowledged: [], failed: new Map() };
  // A trader that throws (a bug of the suite) ends its loop, not the run: the services must still be stopped.
  const traders = customers.map((who) => trade(who, tally, () => currentFault, () => stopTrading).catch((error: unknown) => log(`a trader stopped: ${String(error)}`)));
  await wait(5_000);

  const rows: FaultRow[] = [];
  async function fault(name: string, apply: () => Promise<string | void>) {
    currentFault = name;
    const startMs = Date.now();
    log(`fault: ${name}`);
    const note = (await apply()) ?? '';
    const endMs = Date.now();
    const recoverySeconds = await tab.flowsAgainAfter(endMs, 240_000);
    log(`  lifted; prices move again in the tab after ${recoverySeconds ?? 'never'} s ${note}`);
    rows.push({ fault: name, startMs, endMs, recoverySeconds, note });
    // Trading goes on a while under the healed system before the next fault.
    await wait(8_000);
  }

  await fault('PostgreSQL kill -9, restarted after 5 s', async () => {
    postgres.kill();
    await wait(5_000);
    await postgres.start();
  });
  await fault('RabbitMQ restart', async () => {
    await rabbitmq.restart();
  });
  for (const [name, port] of [['market', ports.market], ['api-1', ports.api1], ['api-2', ports.api2], ['market-2', ports.market2]] as const) {
    await fault(`kill -9 ${name}`, async () => {
      process.kill(memberPid(name), 'SIGKILL');
      await wait(2_500);
      await untilHealthy(port);
    });
  }
  await fault('SIGSTOP the market leader 15 s (lease 5 s), then SIGCONT', async () => {
    const leader = await marketLeader();
    if (!leader) return 'no market leader found';
    const pid = memberPid(leader.name);
    process.kill(pid, 'SIGSTOP');
    await wait(15_000);
    const during = await marketLeader();
    process.kill(pid, 'SIGCONT');
    return `(${leader.name} paused; ${during?.name ?? 'nobody'} led meanwhile)`;
  });
  await fault('uploads disk full (tmpfs of 1 MB under DATA_DIR/uploads)', async () => {
    fs.mkdirSync(uploadsDir, { recursive: true });
    if ((await spawnQuiet('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', uploadsDir])) !== 0) return 'mount refused: not measured';
    uploadsMounted = true;
    try {
      await spawnQuiet('dd', ['if=/dev/zero', `of=${path.join(uploadsDir, 'filler')}`, 'bs=64k', 'count=64']);
      const refused = await customers[0]!.deposit('30');
      // Another customer is served meanwhile: an option needs no upload.
      const served = await customers[1]!.option();
      if ('ref' in served) tally.acknowledged.push({ kind: 'option', ref: served.ref, fault: currentFault });
      return `(upload answered ${refused.code} "${refused.msg}"; another customer's option ${'ref' in served ? 'placed' : `REFUSED ${served.refused.code} ${served.refused.msg}`})`;
    } finally {
      await spawnQuiet('umount', [uploadsDir]);
      uploadsMounted = false;
    }
  });
  await fault('network between the market process and the broker blackholed 30 s', async () => {
    brokerProxy.blackhole();
    await wait(30_000);
    brokerProxy.heal();
  });

  // The outage: every server process (and the proxy in front of them) down for 3 minutes.
  const outageSeconds = Number(process.env.FAULTS_OUTAGE_SECONDS ?? 180);
  currentFault = `every server process down ${outageSeconds} s`;
  log(`fault: ${currentFault}`);
  const outageStart = Date.now();
  await stopCluster();
  // FAULTS_OUTAGE_SECONDS shortens it while working on the suite; the report says how long it was.
  await wait(outageSeconds * 1000);
  startCluster(false);
  for (const port of [ports.market, ports.api1, ports.api2, ports.proxy]) await untilHealthy(port);
  const outageEnd = Date.now();
  const outageRecovery = await tab.flowsAgainAfter(outageEnd, 240_000);
  const notReloaded = await page.evaluate(() => (window as unknown as { faultsNotReloaded?: boolean }).faultsNotReloaded === true);
  log(`  back; prices move again in the tab after ${outageRecovery ?? 'never'} s, ${notReloaded ? 'without' : 'WITH'} a reload`);
  rows.push({ fault: currentFault, startMs: outageStart, endMs: outageEnd, recoverySeconds: outageRecovery, note: notReloaded ? '(the same page, not reloaded)' : '(the page was RELOADED)' });
  await wait(8_000);

  currentFault = 'after';
  stopTrading = true;
  await Promise.all(traders);
  // Options placed last run 30 s; their settlement is the jobs leader's.
  await wait(45_000);
  tab.stop();
  link.stop();

  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const lostOf = new Map<string, number>();
  for (const ack of tally.acknowledged) {
    const query =
      ack.kind === 'order-open'
        ? ['select 1 from trade_order where order_no = $1', [ack.ref]]
        : ack.kind === 'order-close'
          ? ["select 1 from trade_order o join ledger_journal j on j.idempotency_key = 'order-close:' || o.order_no where o.order_no = $1 and o.status = 3", [ack.ref]]
          : ack.kind === 'option'
            ? ['select 1 from option_order where order_no = $1', [ack.ref]]
            : ack.kind === 'deposit-approved'
              ? ["select 1 from review_item r join ledger_journal j on j.idempotency_key = 'deposit:' || r.subject_ref where r.id = $1 and r.status = 'approved'", [Number(ack.ref)]]
              : ["select 1 from review_item r join withdrawal w on w.id::text = r.subject_ref join ledger_journal j on j.idempotency_key = 'withdrawal-pay:' || r.subject_ref where r.id = $1 and r.status = 'approved' and w.status = 'paid'", [Number(ack.ref)]];
    const found = await db.query(query[0] as string, query[1] as unknown[]);
    if (found.rowCount === 0) {
      lostOf.set(ack.fault, (lostOf.get(ack.fault) ?? 0) + 1);
      log(`  LOST: ${ack.kind} ${ack.ref} (acknowledged during "${ack.fault}")`);
    }
  }
  // Settled twice: an order or option with two outcomes, a withdrawal both paid and released; dated by the later journal.
  const doubles = await db.query<{ reference: string; at: Date }>(`
    select reference, max(created_at) as at from ledger_journal
      where kind in ('option-win', 'option-loss', 'option-equal', 'option-void') group by reference having count(*) > 1
    union all
    select reference, max(created_at) from ledger_journal where kind in ('order-close', 'order-cancel') group by reference having count(*) > 1
    union all
    select split_part(idempotency_key, ':', 2), max(created_at) from ledger_journal
      where kind in ('withdrawal-pay', 'withdrawal-release') group by split_part(idempotency_key, ':', 2) having count(*) > 1`);
  const unsettled = await db.query<{ count: string }>(`select count(*)::text as count from option_order where status = 0 and end_ms < $1`, [Date.now() - 120_000]);
  await db.end();
  const ledgerProblems = await runLedgerCheck({ ...staffEnvironment });

  const inWindow = (atMs: number, row: FaultRow, next: FaultRow | undefined) => atMs >= row.startMs && atMs < (next?.startMs ?? Number.POSITIVE_INFINITY);
  const fencing = fencingEvents();
  const sumIn = (row: FaultRow, next: FaultRow | undefined, field: 'accepted' | 'dropped') => fencing.filter((event) => inWindow(event.atMs, row, next)).reduce((sum, event) => sum + event[field], 0);
  const totalAccepted = fencing.reduce((sum, event) => sum + event.accepted, 0);
  const totalDropped = fencing.reduce((sum, event) => sum + event.dropped, 0);
  const header = ['fault', 'acked ops', 'acked lost', 'older-lease tick batches accepted', 'older-lease tick batches dropped', 'double settlements', 's until prices move in the tab after the fault', 'longest price stall in the tab (s)'];
  const table = rows.map((row, index) => {
    const next = rows[index + 1];
    return [
      `${row.fault} ${row.note}`.trim(),
      String(tally.acknowledged.filter((ack) => ack.fault === row.fault).length),
      String(lostOf.get(row.fault) ?? 0),
      String(sumIn(row, next, 'accepted')),
      String(sumIn(row, next, 'dropped')),
      String(doubles.rows.filter((double) => inWindow(new Date(double.at).getTime(), row, next)).length),
      row.recoverySeconds === null ? 'never' : row.recoverySeconds.toFixed(1),
      tab.longestStall(row.startMs, row.endMs + (row.recoverySeconds ?? 0) * 1000 + 1).toFixed(1),
    ];
  });
  const totalLost = [...lostOf.values()].reduce((sum, each) => sum + each, 0);
  const lines = [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...table.map((cells) => `| ${cells.join(' | ')} |`),
    `| all (warm-up and after included) | ${tally.acknowledged.length} | ${totalLost} | ${totalAccepted} | ${totalDropped} | ${doubles.rows.length} | | |`,
    '',
    `acknowledged by kind: ${[...new Set(tally.acknowledged.map((ack) => ack.kind))].map((kind) => `${kind} ${tally.acknowledged.filter((ack) => ack.kind === kind).length}`).join(', ')}; withdrawals of ${customers[0]!.smallestWithdrawal} USDT`,
    `first signatures (an approval that moved an item to awaiting_second, the second member's approval then decided it): ${finance.firstSignatures()}`,
    `operations not acknowledged (refused or failed under a fault, allowed): ${[...tally.failed.values()].reduce((sum, each) => sum + each, 0)}`,
    ...[...tally.failed].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([what, count]) => `  ${count} × ${what}`),
    `tick batches seen on the link: ${link.batches.length}, from ${new Set(link.batches.map((batch) => batch.origin)).size} leader processes, epochs ${[...new Set(link.batches.map((batch) => batch.epoch))].join(', ')}; ${link.older.length} of them of an older lease than one already seen there (what the gates drop)`,
    `options still running 2 minutes after their end: ${unsettled.rows[0]?.count}`,
    `ledger check: ${ledgerProblems.length === 0 ? 'clean' : `${ledgerProblems.length} problem(s)\n  ${ledgerProblems.join('\n  ')}`}`,
    `${outageSeconds} s outage of every server process: prices move again ${outageRecovery === null ? 'NEVER' : `${outageRecovery.toFixed(1)} s after the servers were back`}, ${notReloaded ? 'without a reload' : 'after a RELOAD'}`,
    `total time: ${((Date.now() - started) / 60_000).toFixed(1)} min`,
  ];
  process.stdout.write(`\n${lines.join('\n')}\n`);
  fs.writeFileSync(path.join(root, 'report.md'), `${lines.join('\n')}\n`);
  const failed = totalLost > 0 || totalAccepted > 0 || doubles.rows.length > 0 || ledgerProblems.length > 0 || outageRecovery === null || !notReloaded || rows.some((row) => row.recoverySeconds === null);
  return failed ? 1 : 0;
}

let status = 1;
// Whatever ends the run, the services it started are stopped.
process.on('unhandledRejection', (error) => process.stderr.write(`fault suite: unhandled ${String(error)}\n`));
try {
  status = await main();
} catch (error) {
  process.stderr.write(`fault suite failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
} finally {
  await cleanUp();
  log(`services stopped; logs kept in ${root}`);
}
process.exit(status);
