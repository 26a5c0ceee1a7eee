import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OptionProduct } from '../../src/shared/api/options';
import { scriptedSource, startTestServer, testBackends, type TestServer } from './harness';
import { call, setSwitch } from './identity-support';
import { fundedTrader } from './funding-support';

/**
 * The server refuses an order in a mode the brand does not offer, by the rule the app shows
 * its modes with (availableTradeModes): with fewer than two of Contract and OptionMock on,
 * only the brand's default mode (its config.json) is offered, as the spec says; with both, both.
 */
const clock = Date.parse('2026-01-13T12:00:00Z');
let ids = 0;

describe.each(testBackends())('trade modes a brand offers on $name', (backend) => {
  let server: TestServer;
  let brandDir: string;
  const script = scriptedSource();
  let bitcoinOptionId = 0;
  const market = (token: string) =>
    call(server, '/exchange/addOrder', { tradePair: 'EURUSD', price: '0', orderQuantity: '0.1', multiple: 100, orderType: 0, buyPoint: 2, clientOrderId: `m${(ids += 1)}` }, token);
  const option = (token: string) =>
    call(server, '/exchange/addOptionOrder', { tradePair: 'BTCUSDT', optionsProductId: bitcoinOptionId, price: '67000', timeLong: 30, btime: Math.floor(clock / 1000), rate: '0.8', amount: '100', orderType: 0, clientOrderId: `o${(ids += 1)}` }, token);
  const quotes = () => script.push([
    { symbol: 'EURUSD', timeMs: clock, bid: 108500, ask: 108512, volume: 1 },
    { symbol: 'BTCUSDT', timeMs: clock, bid: 6_700_000, ask: 6_700_002, volume: 1 },
  ]);

  beforeAll(async () => {
    brandDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tradeweb-brand-'));
    const brandFile = path.join(brandDir, 'config.json');
    // An option-first brand: its default trade mode is option.
    await fs.writeFile(brandFile, JSON.stringify({ defaultTradeMode: 'option', tradeTabOrder: ['option', 'market'] }));
    server = await startTestServer(
      backend,
      { BRAND_CONFIG_PATH: brandFile, SWITCHES: 'Contract=0,OptionMock=0', STALE_PRICE_MS: '10000', FOREX_MIN_DEPOSIT: '0', CODES_SENT_PER_10_MIN: '500', CODE_CHECKS_PER_10_MIN: '500' },
      { marketSource: script.source, nowMs: () => clock },
    );
    const list = (await call(server, '/v1/wa-na/option/findOptionsProduct', { limit: 100 })).data as { optionsProducts: OptionProduct[] };
    bitcoinOptionId = list.optionsProducts.find((product) => product.productCode === 'BTCUSDT')!.id;
  });
  afterAll(async () => {
    await server?.close();
    await fs.rm(brandDir, { recursive: true, force: true });
  });

  it("with neither switch on or only one, only the brand's default mode (option here) is offered; with both, both", async () => {
    const user = await fundedTrader(server, '1000', 'modes');
    quotes();
    const refusedMarket = await market(user.token);
    expect(refusedMarket.code).toBe(304);
    expect((await option(user.token)).code).toBe(0);
    expect((await call(server, '/v1/waa/user/balance', {}, user.token)).data).toMatchObject({ lockMargin: '100.00' });

    // Contract alone: still the default mode only (the spec: one switch on, the default mode applies).
    await setSwitch(server, 'Contract', true);
    quotes();
    expect((await market(user.token)).code).toBe(304);
    expect((await option(user.token)).code).toBe(0);

    // Both: both.
    await setSwitch(server, 'OptionMock', true);
    quotes();
    expect((await option(user.token)).code).toBe(0);
    expect((await market(user.token)).code).toBe(0);
  });
});
