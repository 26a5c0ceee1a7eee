import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedger, type Ledger } from '../../server/modules/ledger/ledger';
import { staleAfterMs } from '../../src/shared/market/price-freshness';
import { post, scriptedSource, startTestServer, testBackends, type TestServer } from './harness';
import { call, ledgerFundedTrader } from './identity-support';

// A Tuesday noon: forex is open.
let clock = Date.parse('2026-01-13T12:00:00Z');
let orderIds = 0;

/**
 * No quote without a live feed: once this process's newest tick of a symbol is older than
 * the shared staleness limit, the symbol is answered as stale, nothing fills or fires on
 * it, and /healthz names it.
 */
describe.each(testBackends())('stale prices on $name', (backend) => {
  let server: TestServer;
  let ledger: Ledger;
  const script = scriptedSource();
  const quote = (bid: number, timeMs = clock) => script.push([{ symbol: 'EURUSD', timeMs, bid, ask: bid + 12, volume: 1 }]);
  const order = (change: Record<string, unknown> = {}) => ({ tradePair: 'EURUSD', price: '0', orderQuantity: '0.1', multiple: 100, orderType: 0, buyPoint: 2, clientOrderId: `stale${(orderIds += 1)}`, ...change });
  const thumb = async () => (await post(server.app, '/market/thumb/EURUSD')).json() as { code: number; data: { bidPrice: string; lastUpdate: number; stale: boolean } };
  const health = async () => (await server.app.inject({ method: 'GET', url: '/healthz' })).json() as { prices: { live: boolean; stale: string[] } };
  const balance = async (token: string) => (await call(server, '/v1/waa/user/balance', {}, token)).data;

  beforeAll(async () => {
    // STALE_PRICE_MS is left at its default: the shared rule's 10 s.
    server = await startTestServer(backend, { MIN_HOLD_SECONDS: '0', FOREX_MIN_DEPOSIT: '0', CODES_SENT_PER_10_MIN: '500', CODE_CHECKS_PER_10_MIN: '500' }, { marketSource: script.source, nowMs: () => clock });
    ledger = createLedger(server.database.db);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers a price older than 10 s as stale on market/thumb and in /healthz, and fills nothing on it (202)', async () => {
    const user = await ledgerFundedTrader(server, ledger, '1000');
    quote(108500);
    expect((await thumb()).data).toMatchObject({ bidPrice: '1.08500', stale: false });
    expect((await health()).prices.stale).not.toContain('EURUSD');

    clock += staleAfterMs + 1_000;
    // The last price is still told, with its time, but not as live.
    expect((await thumb()).data).toMatchObject({ bidPrice: '1.08500', lastUpdate: clock - staleAfterMs - 1_000, stale: true });
    expect((await health()).prices).toMatchObject({ live: false, stale: expect.arrayContaining(['EURUSD']) });
    const refused = await call(server, '/exchange/addOrder', order(), user.token);
    expect(refused).toMatchObject({ code: 202, msg: 'Failed to get the current price (202)' });
    expect(await balance(user.token)).toEqual({ balanceAmount: '1000.00', lockMargin: '0.00' });

    // A live tick again: quoted as live, and orders fill.
    quote(108500);
    expect((await thumb()).data.stale).toBe(false);
    expect((await health()).prices.stale).not.toContain('EURUSD');
    expect((await call(server, '/exchange/addOrder', order(), user.token)).code).toBe(0);
  });

  it('fires no stop loss on a tick that arrives older than the limit; the next live one fires it', async () => {
    const user = await ledgerFundedTrader(server, ledger, '1000');
    quote(108500);
    const orderNo = (await call(server, '/exchange/addOrder', order({ stopPrice: '1.08' }), user.token)).data as string;
    const started = clock;
    clock += 20_000;
    // A late tick (a follower's backlog): through the stop loss, but 15 s old when it comes.
    quote(107900, started + 5_000);
    await server.app.trading.settled();
    const open = (await call(server, '/v1/waa/order/history', { positionStatus: 2 }, user.token)).data as { list: { uid: string }[] };
    expect(open.list.map((item) => item.uid)).toContain(orderNo);

    quote(107900);
    await server.app.trading.settled();
    const done = ((await call(server, '/v1/waa/order/list', { limit: 10 }, user.token)).data as { list: { uid: string; closeReason: string; closingPrice: string }[] }).list;
    expect(done.find((item) => item.uid === orderNo)).toMatchObject({ closeReason: 'stop_loss', closingPrice: '1.079' });
  });
});
