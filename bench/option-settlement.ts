/**
 * Issue 7's settlement bench: 10,000 options expiring in the same second, settled by the
 * server's settlement run (the one the second's timer starts) on PGlite and, with
 * BENCH_DATABASE_URL (or TEST_DATABASE_URL), on PostgreSQL. Reports the time from expiry
 * to the last settlement (the second's timer waits the grace after the second closes, then
 * runs; an option ending early in the second waits up to a second more) against a baseline of
 * the same rows flipped running → settled with no ledger, in batches of the same size.
 */
import crypto from 'node:crypto';
import { sql } from 'kysely';
import { buildServer } from '../server/app';
import { onBenchPostgres } from './postgres-schema';
import { createTokenService } from '../server/auth/tokens';
import { openDatabase, type DatabaseTarget } from '../server/db/database';
import type { MarketDataSource, RawTick } from '../server/modules/market/sources/market-data-source';
import { seededRandom } from '../server/modules/market/sources/random';
import { UserAccountKind } from '../server/modules/ledger/ledger-kinds';
import { createMessageDelivery } from '../server/messaging/delivery';
import { createLedger } from '../server/modules/ledger/ledger';
import { readSettings } from '../server/settings';
import { money } from '../src/shared/money/money';
const { cash: cashKind } = UserAccountKind;

const optionCount = 10_000;
const warmupCount = 500;
const userCount = 100;
const graceMs = 300;
const batch = 500;
const placingClients = 8;

interface Row {
  label: string;
  seconds: number;
  settled: number;
}

async function measure(target: DatabaseTarget & { label: string }): Promise<Row[]> {
  const database = await openDatabase(target);
  // A Tuesday noon on a whole second: every option placed now ends in the same second.
  const clock = { now: Date.parse('2026-01-13T12:00:00Z') };
  const feed: { emit: ((ticks: RawTick[]) => void) | null } = { emit: null };
  const source: MarketDataSource = { name: 'bench', start: (onTicks) => void (feed.emit = onTicks), stop: () => void (feed.emit = null) };
  const settings = readSettings({
    LOG_LEVEL: 'silent',
    STATIC_DIR: '/nonexistent',
    OPTION_SETTLEMENT_GRACE_MS: String(graceMs),
    OPTION_SETTLEMENT_BATCH: String(batch),
    // The bench starts the run itself, at the instant the second's timer would.
    OPTION_SETTLEMENT_SWEEP_MS: '3600000',
  });
  const tokens = createTokenService({ key: crypto.randomBytes(32), accessTokenTtlSeconds: 900 });
  const delivery = createMessageDelivery({ smtpUrl: null, mailFrom: 'bench@example.com', dataDir: null });
  const app = await buildServer({ settings, database, tokens, delivery, logger: false, marketSource: source, nowMs: () => clock.now });
  await app.ready();
  const ledger = createLedger(database.db);
  const random = seededRandom(7);
  try {
    const users: number[] = [];
    for (let index = 0; index < userCount; index += 1) {
      const user = await database.db
        .insertInto('app_user')
        .values({ email: `bench-option-${index}@example.com`, phone: null, register_type: 'E', password_hash: 'bench', nick: `bench${index}`, invite_code: `B${String(index).padStart(5, '0')}`, invited_by: null })
        .returning('uid')
        .executeTakeFirstOrThrow();
      await ledger.post({
        idempotencyKey: `bench-deposit:${user.uid}`,
        book: 'real',
        kind: 'deposit',
        uid: user.uid,
        postings: [
          { account: { owner: null, book: 'real', kind: 'deposits' }, amount: -money('10000000') },
          { account: { owner: user.uid, book: 'real', kind: cashKind }, amount: money('10000000') },
        ],
      });
      users.push(user.uid);
    }
    const products = await app.timedOptions.products({ limit: 100, page: 1 });
    const productId = (code: string) => products.optionsProducts.find((product) => product.productCode === code)?.id ?? 0;

    // The bench places through the service, past the HTTP check: its users' sessions live and may trade.
    const benchSession = Promise.resolve({ tradeProhibited: false });

    /** `count` options placed through the service at one instant, settled 30 s later: the seconds from expiry to the last settlement. */
    async function round(count: number, tag: string): Promise<Row> {
      // On a whole second, so that every option (placed within one second) ends in one second.
      clock.now = Math.ceil((clock.now + 60_000) / 1000) * 1000;
      const start = clock.now;
      feed.emit?.([{ symbol: 'BTCUSDT', timeMs: start, bid: 6_700_000, ask: 6_700_002, volume: 1 }, { symbol: 'ETHUSDT', timeMs: start, bid: 350_000, ask: 350_002, volume: 1 }]);
      const placeOne = async (index: number) => {
        // Placements spread over one second: the options end at different instants of one second.
        clock.now = start + Math.floor((index * 1000) / count);
        const symbol = index % 4 === 0 ? 'ETHUSDT' : 'BTCUSDT';
        await app.timedOptions.place(users[index % userCount]!, 'real', {
          tradePair: symbol,
          optionsProductId: productId(symbol),
          price: '0',
          timeLong: 30,
          btime: Math.floor(start / 1000),
          rate: '0.8',
          amount: String(10 + Math.floor(random.next() * 490)),
          orderType: random.next() < 0.5 ? 0 : 1,
          clientOrderId: `${tag}-${index}`,
        }, benchSession);
      };
      // Placed by several clients at once (PostgreSQL runs them side by side; PGlite in turn).
      let next = 0;
      await Promise.all(Array.from({ length: placingClients }, async () => {
        while (next < count) await placeOne(next++);
      }));
      // Ticks every 50 ms through the second the options end in (random walk: wins, losses, equal prices).
      const price = { BTCUSDT: 6_700_000, ETHUSDT: 350_000 };
      for (let at = start + 30_000; at < start + 31_000; at += 50) {
        clock.now = at;
        price.BTCUSDT += Math.round((random.next() - 0.5) * 40);
        price.ETHUSDT += Math.round((random.next() - 0.5) * 4);
        feed.emit?.([
          { symbol: 'BTCUSDT', timeMs: at, bid: price.BTCUSDT, ask: price.BTCUSDT + 2, volume: 1 },
          { symbol: 'ETHUSDT', timeMs: at, bid: price.ETHUSDT, ask: price.ETHUSDT + 2, volume: 1 },
        ]);
      }
      // In real time the tick flush (100 ms) comes within the grace; here it is done at once.
      await app.timedOptions.flushTicks();
      // The second's timer fires the grace after the second closes.
      clock.now = start + 31_000 + graceMs;
      const began = process.hrtime.bigint();
      const settled = await app.timedOptions.settleDue();
      const seconds = Number(process.hrtime.bigint() - began) / 1e9;
      if (settled !== count) throw new Error(`settled ${settled} of ${count}`);
      return { label: target.label, seconds, settled };
    }

    await round(warmupCount, 'warmup');
    const measured = await round(optionCount, 'measured');
    const problems = await ledger.check();
    if (problems.length > 0) throw new Error(`ledger check failed: ${problems.join('; ')}`);

    // Baseline: the same number of rows flipped running → settled, one statement per batch, no ledger.
    await sql`create table if not exists bench_flip (id serial primary key, status integer not null)`.execute(database.db);
    await sql`insert into bench_flip (status) select 0 from generate_series(1, ${optionCount})`.execute(database.db);
    const flipStart = process.hrtime.bigint();
    for (let first = 0; first < optionCount; first += batch) {
      await database.db.transaction().execute((trx) => sql`update bench_flip set status = 1 where id > ${first} and id <= ${first + batch} and status = 0`.execute(trx));
    }
    const flipSeconds = Number(process.hrtime.bigint() - flipStart) / 1e9;
    return [{ label: `${target.label} baseline`, seconds: flipSeconds, settled: optionCount }, measured];
  } finally {
    await app.close();
    await database.close();
  }
}

export async function runOptionSettlementBench() {
  const results: Row[][] = [await measure({ kind: 'pglite', dataDir: null, label: 'PGlite' })];
  const onPostgres = await onBenchPostgres((target) => measure(target));
  if (onPostgres) results.push(onPostgres);
  const rows = results.flatMap(([baseline, measured]) => {
    if (!baseline || !measured) return [];
    return [
      [`${baseline.label}: ${optionCount} rows running → settled in batches of ${batch}, no ledger`, `${(baseline.seconds * 1000).toFixed(0)} ms`, '—', `${(baseline.settled / baseline.seconds).toFixed(0)} /s`, '1.00×'],
      [
        `${measured.label}: settlement of ${optionCount} options (recorded end ticks, locks, conditional update, one journal each)`,
        `${(measured.seconds * 1000).toFixed(0)} ms`,
        `${(measured.seconds * 1000 + graceMs).toFixed(0)} ms`,
        `${(measured.settled / measured.seconds).toFixed(0)} /s`,
        `${(measured.seconds / baseline.seconds).toFixed(1)}× the time`,
      ],
    ];
  });
  return {
    title: `Options expiring in the same second: ${optionCount} options of ${userCount} users ending across one second, settled by that second's run (after a ${warmupCount}-option warm-up), grace ${graceMs} ms, batches of ${batch}`,
    rows,
  };
}
