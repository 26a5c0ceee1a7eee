import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClusterLink } from '../../server/cluster/cluster-link';
import { clusterMember, type ClusterContext } from '../../server/cluster/cluster-context';
import type { DatabaseHandle } from '../../server/db/database';
import type { RawTick } from '../../server/modules/market/sources/market-data-source';
import { openTestDatabase, startTestServer, testBackends, type TestBackend, type TestServer } from './harness';
import { call, loginByEmail, registerByEmail } from './identity-support';

/**
 * Two API processes of one deployment, in-process on one PostgreSQL schema and a real
 * RabbitMQ link: an order's stop loss set through the first is watched by the second too,
 * which closes it on the crossing tick after the first has gone.
 */
const brokerUrl = process.env.TEST_RABBITMQ_WEB_STOMP_URL;
const postgres = testBackends().find((backend) => backend.name === 'postgres');
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe.skipIf(!brokerUrl || !postgres)('triggers of an order placed on another process', () => {
  let first: TestServer;
  let second: TestServer;
  let leases: DatabaseHandle;
  let cleanup: () => Promise<void>;
  const contexts: ClusterContext[] = [];
  let tickMs = Date.now();
  const quote = (server: TestServer, bid: number): RawTick[] => {
    tickMs = Math.max(tickMs + 1, Date.now());
    const ticks = [{ symbol: 'BTCUSDT', timeMs: tickMs, bid, ask: bid + 20, volume: 1 }];
    server.app.market.ingest(ticks);
    return ticks;
  };

  beforeAll(async () => {
    const target = await postgres!.target();
    cleanup = target.cleanup;
    // Both servers on the same schema, as two processes on one database.
    const shared: TestBackend = { name: 'postgres', target: async () => ({ ...target, cleanup: async () => undefined }) };
    leases = await openTestDatabase(target);
    const secret = crypto.randomBytes(32);
    const member = async () => {
      // The namespace is the shared database: this run's schema keeps other runs on the broker apart.
      const link = createClusterLink({ url: brokerUrl!, databaseUrl: `${'url' in target ? target.url : ''}#${'schema' in target ? target.schema : ''}`, secret, log: silent });
      expect(await link.start()).toBe(true);
      const context = clusterMember({ db: leases.db, roles: new Set(['api', 'jobs']), link, leaseMs: 1_000, log: () => undefined });
      contexts.push(context);
      return context;
    };
    const environment = { SWITCHES: 'VIRTUAL_CURRENCY_TRADE=1', CODES_SENT_PER_10_MIN: '100', CODE_CHECKS_PER_10_MIN: '100' };
    first = await startTestServer(shared, environment, { cluster: await member() });
    second = await startTestServer(shared, environment, { cluster: await member() });
  }, 120_000);

  afterAll(async () => {
    await second?.close();
    await leases?.close();
    await cleanup?.();
  });

  it('closes a position at its stop loss on the second process after the first, where it was placed, has gone', async () => {
    quote(first, 6_700_000);
    quote(second, 6_700_000);
    const email = `triggers-${crypto.randomBytes(4).toString('hex')}@example.com`;
    await registerByEmail(first, email);
    const real = await loginByEmail(first, email);
    const demo = (await call(first, '/v1/waa/user/switch', {}, real.token)).data as { token: string };
    const placed = await call(first, '/exchange/addOrderMock', {
      tradePair: 'BTCUSDT', price: '0', orderQuantity: '0.01', multiple: 20, orderType: 0, buyPoint: 2, clientOrderId: crypto.randomUUID(), stopPrice: '66000',
    }, demo.token);
    expect(placed.code, placed.msg).toBe(0);
    // The second process hears of the order through the link and arms it; then the first goes away.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await first.close();

    const state = () => second.database.db.selectFrom('trade_order').select(['status', 'close_reason', 'close_price']).where('order_no', '=', placed.data as string).executeTakeFirstOrThrow();
    expect((await state()).close_reason).toBeNull();
    quote(second, 6_650_000);
    await second.app.trading.settled();
    expect((await state()).close_reason).toBeNull();
    // The crossing tick: the buy closes at its bid, 65500.
    quote(second, 6_550_000);
    await expect.poll(async () => (await second.app.trading.settled(), await state()), { timeout: 5_000, interval: 50 }).toMatchObject({ close_reason: 'stop_loss' });
    expect(Number((await state()).close_price)).toBe(65_500);
  });
});
