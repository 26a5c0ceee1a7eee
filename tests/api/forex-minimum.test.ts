import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fundedTrader, fundTradingAccount } from './funding-support';
import { scriptedSource, startTestServer, testBackends, type TestServer } from './harness';
import { call } from './identity-support';

const clock = Date.parse('2026-01-13T12:00:00Z');
const nowMs = () => clock;
let clientIds = 0;

/**
 * Forex needs total deposits of at least FOREX_MIN_DEPOSIT (320): the deposits a customer
 * makes through the product (a currency deposit approved by staff, valued in USD) count.
 */
describe.each(testBackends())('the forex minimum deposit on $name', (backend) => {
  let server: TestServer;
  const script = scriptedSource();
  const forexOrder = () => ({ tradePair: 'EURUSD', price: '0', orderQuantity: '0.01', multiple: 100, orderType: 0, buyPoint: 2, clientOrderId: `fx${(clientIds += 1)}` });

  beforeAll(async () => {
    server = await startTestServer(backend, { FOREX_MIN_DEPOSIT: '500', STALE_PRICE_MS: '10000', CODES_SENT_PER_10_MIN: '500', CODE_CHECKS_PER_10_MIN: '500' }, { marketSource: script.source, nowMs });
    script.push([{ symbol: 'EURUSD', timeMs: clock, bid: 108500, ask: 108512, volume: 1 }]);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('refuses forex below the minimum of approved deposits and accepts it once they reach it', async () => {
    const trader = await fundedTrader(server, '300', 'forex');
    const refused = await call(server, '/exchange/addOrder', forexOrder(), trader.token);
    expect(refused.code).toBe(320);
    // The figure the customer reads is the one enforced, never the texts' own.
    expect(refused.msg).toBe('Forex trading requires total deposits of at least 500 USD (320)');

    await fundTradingAccount(server, trader, '200');
    const placed = await call(server, '/exchange/addOrder', forexOrder(), trader.token);
    expect(placed.code, placed.msg).toBe(0);
  });
});
