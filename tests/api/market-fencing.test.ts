import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { clusterContextOf } from '../../server/cluster/cluster-context';
import { leaseLeadership, LeaseLostError, noLeadership, soleLeadership, type Leadership } from '../../server/cluster/leadership';
import { stampTicks } from '../../server/modules/market/followed-ticks';
import type { RawTick } from '../../server/modules/market/sources/market-data-source';
import { priceTopic } from '../../src/shared/api/market';
import { money } from '../../src/shared/money/money';
import { startTestServer, testBackends, type TestServer } from './harness';
import { memoryLinkHub } from './support/memory-link';

const WAIT = { timeout: 5_000, interval: 20 };

/**
 * Fencing of the market leader (issue 35): an API process follows the market through the
 * cluster link while two simulated market leaders take the lease in turn on its database.
 * The first, stale (paused past its lease, say, then carrying on), still publishes after the
 * second took over: none of its ticks reaches quotes, triggers, bars or the sockets' topics.
 */
describe.each(testBackends())('market fencing ($name)', (backend) => {
  const hub = memoryLinkHub();
  let server: TestServer;
  const leaders: Leadership[] = [];

  beforeAll(async () => {
    const cluster = clusterContextOf({ link: hub.member(), market: noLeadership('market'), jobs: soleLeadership('jobs'), start: () => undefined, stop: async () => undefined });
    server = await startTestServer(backend, {}, { cluster });
  });
  afterEach(async () => {
    for (const leader of leaders.splice(0)) await leader.stop();
  });
  afterAll(async () => {
    await server?.close();
  });

  function leader(holder: string) {
    const leadership = leaseLeadership({ db: server.database.db, role: 'market', holder, leaseMs: 1_000 });
    leaders.push(leadership);
    leadership.start();
    return leadership;
  }
  /** The market lease runs out under its holder, as when it pauses past it. */
  const runOut = () => sql`update leader_lease set expires_at = now() - interval '1 millisecond' where role = 'market'`.execute(server.database.db);
  let timeMs = Date.now();
  const tick = (symbol: string, bid: number): RawTick => ({ symbol, timeMs: (timeMs = Math.max(timeMs + 1, Date.now())), bid, ask: bid + 20, volume: 1 });

  it('accepts no tick of the older epoch once the newer leader is heard, though the stale one stamps its ticks later in time', async () => {
    const accepted: RawTick[] = [];
    server.app.market.onQuote((each) => accepted.push(each));
    const published: string[] = [];
    server.app.topicBus.subscribe(priceTopic('BTCUSDT'), (body) => published.push(body));
    const linkA = hub.member();
    const linkB = hub.member();

    const first = leader('leader-a');
    await expect.poll(() => first.epoch(), WAIT).not.toBeNull();
    const staleEpoch = first.epoch()!;
    linkA.publish('ticks', stampTicks(staleEpoch, [tick('BTCUSDT', 6_700_000)]));
    expect(server.app.market.latestQuote('BTCUSDT')?.bid).toBe(6_700_000);

    await runOut();
    const second = leader('leader-b');
    await expect.poll(() => second.epoch(), WAIT).toBe(staleEpoch + 1);
    const beforeTakeOver = accepted.length;
    for (let step = 0; step < 20; step += 1) {
      linkB.publish('ticks', stampTicks(second.epoch()!, [tick('BTCUSDT', 6_800_000 + step)]));
      // The stale leader's ticks come later, and far away: taken, they would be the latest price and the bar's high.
      linkA.publish('ticks', stampTicks(staleEpoch, [tick('BTCUSDT', 9_000_000 + step), tick('ETHUSDT', 900_000 + step)]));
    }
    server.app.market.flush();

    const afterTakeOver = accepted.slice(beforeTakeOver);
    expect(afterTakeOver.map((each) => each.bid)).toEqual(Array.from({ length: 20 }, (_, step) => 6_800_000 + step));
    expect(server.app.market.latestQuote('BTCUSDT')?.bid).toBe(6_800_019);
    expect(server.app.market.latestQuote('ETHUSDT')?.bid ?? 0).toBeLessThan(900_000);
    const [bar] = (await server.app.market.history('BTCUSDT', '1min', 1)).slice(-1);
    expect(money(String(bar?.highestPrice)) < money('90000')).toBe(true);
    expect(published.length).toBeGreaterThan(0);
    expect(published.some((body) => body.includes('90000'))).toBe(false);

    // A newer epoch still replaces the state: the next take-over's ticks are taken at once.
    await runOut();
    const third = leader('leader-c');
    await expect.poll(() => third.epoch(), WAIT).toBe(staleEpoch + 2);
    linkB.publish('ticks', stampTicks(staleEpoch + 1, [tick('BTCUSDT', 6_900_000)]));
    linkA.publish('ticks', stampTicks(third.epoch()!, [tick('BTCUSDT', 7_000_000)]));
    linkB.publish('ticks', stampTicks(staleEpoch + 1, [tick('BTCUSDT', 6_950_000)]));
    expect(server.app.market.latestQuote('BTCUSDT')?.bid).toBe(7_000_000);
  });

  const fencingHealth = async () => ((await server.app.inject({ method: 'GET', url: '/healthz' })).json() as { ticks: { acceptedFromOlderLease: number; droppedFromOlderLease: number } }).ticks;

  it('counts in /healthz the batches it took from a lease already taken over, once the newer one says when its term began, and those it dropped', async () => {
    const linkA = hub.member();
    const linkB = hub.member();
    const first = leader('leader-g');
    await expect.poll(() => first.epoch(), WAIT).not.toBeNull();
    const staleEpoch = first.epoch()!;
    const before = await fencingHealth();
    // Published while its lease was current: a clean hand-over counts nothing.
    linkA.publish('ticks', stampTicks(staleEpoch, [tick('BTCUSDT', 6_710_000)], { publishedAtMs: Date.now(), termStartedAtMs: first.termStartedAtMs() }));

    await runOut();
    const second = leader('leader-h');
    await expect.poll(() => second.epoch(), WAIT).toBe(staleEpoch + 1);
    const termStartedAtMs = second.termStartedAtMs()!;
    expect(termStartedAtMs).toBeGreaterThan(0);
    // The stale leader goes on after the take-over, and its two batches reach this process before anything of the newer lease: the gate takes them.
    for (const bid of [6_720_000, 6_730_000]) linkA.publish('ticks', stampTicks(staleEpoch, [tick('BTCUSDT', bid)], { publishedAtMs: termStartedAtMs + 50, termStartedAtMs: first.termStartedAtMs() ?? 0 }));
    expect(server.app.market.latestQuote('BTCUSDT')?.bid).toBe(6_730_000);
    expect((await fencingHealth()).acceptedFromOlderLease).toBe(before.acceptedFromOlderLease);

    // The newer lease's first batch says when its term began: the two are known for what they were.
    linkB.publish('ticks', stampTicks(second.epoch()!, [tick('BTCUSDT', 6_740_000)], { publishedAtMs: termStartedAtMs + 100, termStartedAtMs }));
    linkA.publish('ticks', stampTicks(staleEpoch, [tick('BTCUSDT', 6_750_000)], { publishedAtMs: termStartedAtMs + 150, termStartedAtMs: 0 }));
    linkB.publish('ticks', stampTicks(second.epoch()!, [tick('BTCUSDT', 6_760_000)], { publishedAtMs: termStartedAtMs + 200, termStartedAtMs }));
    const after = await fencingHealth();
    expect(after.acceptedFromOlderLease - before.acceptedFromOlderLease).toBe(2);
    expect(after.droppedFromOlderLease - before.droppedFromOlderLease).toBe(1);
    expect(server.app.market.latestQuote('BTCUSDT')?.bid).toBe(6_760_000);
  });

  it("refuses a stale leader's bars in their own transaction, and writes the current leader's", async () => {
    // A minute no bar has been stored for, formed here.
    const minute = Math.floor(Date.now() / 60_000) * 60_000 + 30 * 86_400_000;
    server.app.market.ingest([{ symbol: 'SOLUSDT', timeMs: minute + 1_000, bid: 150_000, ask: 150_020, volume: 1 }]);
    const stored = () =>
      server.database.db.selectFrom('kline').select('close_price').where('symbol', '=', 'SOLUSDT').where('period', '=', '1min').where('open_time', '=', minute).execute();

    const stale = leader('leader-d');
    await expect.poll(() => stale.leading(), WAIT).toBe(true);
    // Taken over before the stale holder's next renewal: it still believes it leads.
    await sql`update leader_lease set holder = 'leader-e', epoch = epoch + 1, expires_at = now() + interval '1 minute' where role = 'market'`.execute(server.database.db);
    await expect(server.app.market.persist(true, (trx) => stale.fenceIn(trx))).rejects.toBeInstanceOf(LeaseLostError);
    expect(await stored()).toEqual([]);

    await runOut();
    const current = leader('leader-f');
    await expect.poll(() => current.leading(), WAIT).toBe(true);
    server.app.market.ingest([{ symbol: 'SOLUSDT', timeMs: minute + 2_000, bid: 151_000, ask: 151_020, volume: 1 }]);
    await server.app.market.persist(true, (trx) => current.fenceIn(trx));
    expect((await stored()).map((row) => money(String(row.close_price)))).toEqual([money('151')]);
  });
});
