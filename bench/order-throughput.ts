/**
 * Issue 6's order bench: market orders through HTTP (in-process inject: routing, session
 * check, rules, ledger and order in one transaction) against a bare single-row insert
 * transaction on the same database, on PGlite and, with BENCH_DATABASE_URL (or
 * TEST_DATABASE_URL), on PostgreSQL.
 */
import crypto from 'node:crypto';
import { sql } from 'kysely';
import { buildServer } from '../server/app';
import { createTokenService } from '../server/auth/tokens';
import { openDatabase, type DatabaseTarget } from '../server/db/database';
import type { MarketDataSource, RawTick } from '../server/modules/market/sources/market-data-source';
import { UserAccountKind } from '../server/modules/ledger/ledger-kinds';
import { createMessageDelivery } from '../server/modules/identity/delivery';
import { createLedger } from '../server/modules/ledger/ledger';
import { readSettings } from '../server/settings';
import { money } from '../src/shared/money/money';
const { cash: cashKind } = UserAccountKind;

const orders = 400;

function percentile(sorted: number[], fraction: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0;
}

async function measure(target: DatabaseTarget & { label: string }) {
  const database = await openDatabase(target);
  const clock = { now: Date.now() };
  const feed: { emit: ((ticks: RawTick[]) => void) | null } = { emit: null };
  const source: MarketDataSource = { name: 'bench', start: (onTicks) => void (feed.emit = onTicks), stop: () => void (feed.emit = null) };
  const settings = readSettings({ LOG_LEVEL: 'silent', STATIC_DIR: '/nonexistent', FOREX_MIN_DEPOSIT: '0', CODES_SENT_PER_10_MIN: '100', CODE_CHECKS_PER_10_MIN: '100' });
  const tokens = createTokenService({ key: crypto.randomBytes(32), accessTokenTtlSeconds: 900 });
  const delivery = createMessageDelivery({ smtpUrl: null, mailFrom: 'bench@example.com', dataDir: null });
  const app = await buildServer({ settings, database, tokens, delivery, logger: false, marketSource: source });
  await app.ready();
  const post = async (url: string, payload: unknown, token?: string) =>
    (await app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, payload: JSON.stringify(payload) })).json() as { code: number; data: unknown };
  try {
    feed.emit?.([{ symbol: 'BTCUSDT', timeMs: clock.now, bid: 6_700_000, ask: 6_700_020, volume: 1 }]);
    const email = `bench-${Date.now()}@example.com`;
    await post('/v1/wa-na/sendMail', { email, type: '1', locale: 'en' });
    await app.identity.settled(); // codes go out after the answer
    const code = (await delivery.outboxFor(email)).at(-1)?.code;
    await post('/v1/wa-na/register', { username: email, password: 'bench password', type: 'E', code, locale: 'en' });
    const { token } = (await post('/v1/wa-na/login', { username: email, password: 'bench password', type: 'E' })).data as { token: string };
    const { uid } = (await post('/v1/waa/user/info', {}, token)).data as { uid: number };
    await createLedger(database.db).post({
      idempotencyKey: `bench-deposit:${uid}`,
      book: 'real',
      kind: 'deposit',
      uid,
      postings: [
        { account: { owner: null, book: 'real', kind: 'deposits' }, amount: -money('100000000') },
        { account: { owner: uid, book: 'real', kind: cashKind }, amount: money('100000000') },
      ],
    });

    // Fresh ticks while the orders go in, as a live market gives: on a busy machine signing
    // up and the orders may outlast the stale threshold of one tick.
    const emitTick = () => feed.emit?.([{ symbol: 'BTCUSDT', timeMs: Date.now(), bid: 6_700_000, ask: 6_700_020, volume: 1 }]);
    emitTick();
    const ticker = setInterval(emitTick, 1_000);
    const orderLatencies: number[] = [];
    const orderStart = process.hrtime.bigint();
    for (let index = 0; index < orders; index += 1) {
      const started = process.hrtime.bigint();
      const answer = await post('/exchange/addOrder', { tradePair: 'BTCUSDT', price: '0', orderQuantity: '0.01', multiple: 20, orderType: index % 2, buyPoint: 2, clientOrderId: `bench-${index}` }, token);
      if (answer.code !== 0) throw new Error(`order ${index} refused: ${JSON.stringify(answer)}`);
      orderLatencies.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    const orderSeconds = Number(process.hrtime.bigint() - orderStart) / 1e9;
    clearInterval(ticker);

    await sql`create table if not exists bench_insert (id serial primary key, note text not null)`.execute(database.db);
    const insertLatencies: number[] = [];
    const insertStart = process.hrtime.bigint();
    for (let index = 0; index < orders; index += 1) {
      const started = process.hrtime.bigint();
      await database.db.transaction().execute((trx) => sql`insert into bench_insert (note) values (${`row ${index}`})`.execute(trx));
      insertLatencies.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    const insertSeconds = Number(process.hrtime.bigint() - insertStart) / 1e9;
    orderLatencies.sort((a, b) => a - b);
    insertLatencies.sort((a, b) => a - b);
    return [
      [`${target.label}: bare single-row insert transaction (baseline)`, `${(orders / insertSeconds).toFixed(0)} /s`, `${percentile(insertLatencies, 0.5).toFixed(2)} ms`, `${percentile(insertLatencies, 0.99).toFixed(2)} ms`, '1.00×'],
      [`${target.label}: market order over HTTP (rules, ledger, order)`, `${(orders / orderSeconds).toFixed(0)} /s`, `${percentile(orderLatencies, 0.5).toFixed(2)} ms`, `${percentile(orderLatencies, 0.99).toFixed(2)} ms`, `${(insertSeconds > 0 ? orderSeconds / insertSeconds : 0).toFixed(1)}× the time`],
    ];
  } finally {
    await app.close();
    await database.close();
  }
}

export async function runOrderThroughputBench() {
  const rows = await measure({ kind: 'pglite', dataDir: null, label: 'PGlite' });
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (url) {
    const schema = `bench_${crypto.randomBytes(4).toString('hex')}`;
    rows.push(...(await measure({ kind: 'postgres', url, schema, label: 'PostgreSQL' })));
    const pg = await import('pg');
    const client = new pg.default.Client({ connectionString: url });
    await client.connect();
    await client.query(`drop schema if exists "${schema}" cascade`);
    await client.end();
  }
  return { title: `Market orders through HTTP, ${orders} sequential orders per database (p50 / p99 latency)`, rows };
}
