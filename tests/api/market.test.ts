import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decimalToUnits } from '../../src/shared/market/decimal';
import { formatFixed, klinePeriods } from '../../src/shared/market/kline';
import { post, scriptedSource, startTestServer, testBackends, type TestServer } from './harness';

/** A price source the test scripts tick by tick. */
// Saturday 2026-01-17 12:00:30 UTC: crypto trades, US stocks and forex are closed.
const now = Date.parse('2026-01-17T12:00:30Z');

describe.each(testBackends())('market data API on $name', (backend) => {
  let server: TestServer;
  const script = scriptedSource();
  beforeAll(async () => {
    server = await startTestServer(backend, {}, { marketSource: script.source, nowMs: () => now });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('lists at least 35 products of five types with the trading fields', async () => {
    const body = (await post(server.app, '/v1/wa-na/forex/product/list')).json();
    expect(body.code).toBe(0);
    const list = body.data.list as { productCode: string; productType: number; sort: number; tradeStatus: number; pricePrecision: number; marketStartTime: number[] }[];
    expect(list.length).toBeGreaterThanOrEqual(35);
    expect(new Set(list.map((product) => product.productType))).toEqual(new Set([1, 2, 3, 4, 5]));
    const btc = list.find((product) => product.productCode === 'BTCUSDT');
    expect(btc).toMatchObject({ tradeStatus: 1, pricePrecision: 2, multiple: 20, contractSize: '1', logoUrl: '/logos/BTCUSDT.svg' });
    expect(btc?.marketStartTime).toHaveLength(7);
    expect(list.map((product) => product.sort)).toEqual([...list.map((product) => product.sort)].sort((a, b) => a - b));
  });

  it('has 300 bars of history for every period at first start, in time order', async () => {
    for (const period of klinePeriods) {
      const body = (await post(server.app, '/market/history', { symbol: 'EURUSD', period, limit: 300 })).json();
      expect(body.code, period).toBe(0);
      const bars = body.data as { time: number; openPrice: string; highestPrice: string; lowestPrice: string; closePrice: string }[];
      expect(bars.length, period).toBe(300);
      for (let index = 1; index < bars.length; index += 1) expect(bars[index]!.time).toBeGreaterThan(bars[index - 1]!.time);
      const units = (value: string) => decimalToUnits(value, 5)!;
      for (const bar of bars) {
        expect(units(bar.highestPrice)).toBeGreaterThanOrEqual(Math.max(units(bar.openPrice), units(bar.closePrice)));
        expect(units(bar.lowestPrice)).toBeLessThanOrEqual(Math.min(units(bar.openPrice), units(bar.closePrice)));
        expect(bar.closePrice).toMatch(/^\d+\.\d{5}$/);
      }
    }
  });

  it('joins history to the live bar and publishes changed prices in one batch', async () => {
    const before = (await post(server.app, '/market/history', { symbol: 'BTCUSDT', period: '1min', limit: 2 })).json().data;
    const lastClose = decimalToUnits(before.at(-1).closePrice, 2)!;
    const published: string[] = [];
    const stop = server.app.topicBus.subscribe('/topic/prices', (body) => published.push(body));
    const bid = lastClose + 150;
    script.push([
      { symbol: 'BTCUSDT', timeMs: now + 100, bid, ask: bid + 2000, volume: 3 },
      { symbol: 'ETHUSDT', timeMs: now + 150, bid: 350000, ask: 350100, volume: 2 },
      { symbol: 'BTCUSDT', timeMs: now + 200, bid: bid + 500, ask: bid + 2500, volume: 1 },
    ]);
    server.app.market.flush();
    stop();
    expect(published).toHaveLength(1);
    const ticks = JSON.parse(published[0]!) as { symbol: string; price: string; askPrice: string }[];
    expect(ticks.map((tick) => tick.symbol).sort()).toEqual(['BTCUSDT', 'ETHUSDT']);
    expect(ticks.find((tick) => tick.symbol === 'BTCUSDT')).toMatchObject({ price: formatFixed(bid + 500, 2) });

    const after = (await post(server.app, '/market/history', { symbol: 'BTCUSDT', period: '1min', limit: 300 })).json().data;
    expect(after).toHaveLength(300);
    const live = after.at(-1);
    expect(live.time).toBe(Date.parse('2026-01-17T12:00:00Z'));
    expect(live.closePrice).toBe(formatFixed(bid + 500, 2));
    // The stored history ends where the live price resumed: no gap in price.
    expect(Math.abs(decimalToUnits(after.at(-2).closePrice, 2)! - lastClose)).toBeLessThan(lastClose / 100);
  });

  it('answers the latest tick with 24-hour low, high, volume and change', async () => {
    const body = (await post(server.app, '/market/thumb/BTCUSDT')).json();
    expect(body.code).toBe(0);
    const tick = body.data;
    expect(tick).toMatchObject({ symbol: 'BTCUSDT', name: 'Bitcoin', type: 'Cryptos', lastUpdate: now + 200 });
    const units = (value: string) => decimalToUnits(value, 2)!;
    expect(units(tick.askPrice) - units(tick.bidPrice)).toBe(2000);
    expect(units(tick.high)).toBeGreaterThanOrEqual(units(tick.price));
    expect(units(tick.low)).toBeLessThanOrEqual(units(tick.price));
    expect(tick.priceChangePercent).toMatch(/^-?\d+\.\d{2}$/);
    expect(decimalToUnits(tick.volume, 0)).toBeGreaterThan(0);
  });

  it('answers each market status and refuses unknown symbols with 604', async () => {
    expect((await post(server.app, '/market/status/BTCUSDT')).json().data).toBe('open');
    expect((await post(server.app, '/market/status/AAPL')).json().data).toBe('closed');
    expect((await post(server.app, '/market/status/EURUSD')).json().data).toBe('closed');
    expect((await post(server.app, '/market/status/NOPE')).json().code).toBe(604);
    expect((await post(server.app, '/market/thumb/NOPE')).json().code).toBe(604);
    // A closed product that never ticked since the start still has its last price: the last stored bar's close.
    const closed = (await post(server.app, '/market/thumb/AAPL')).json();
    expect(closed.code).toBe(0);
    const [lastBar] = (await post(server.app, '/market/history', { symbol: 'AAPL', period: '1min', limit: 1 })).json().data as { closePrice: string }[];
    expect(closed.data).toMatchObject({ symbol: 'AAPL', price: lastBar?.closePrice, bidPrice: lastBar?.closePrice });
    expect((await post(server.app, '/market/history', { symbol: 'NOPE', period: '1min', limit: 10 })).json().code).toBe(604);
  });

  it('validates history requests', async () => {
    expect((await post(server.app, '/market/history', { symbol: 'BTCUSDT', period: '2min', limit: 10 })).json().code).toBe(1001);
    expect((await post(server.app, '/market/history', { symbol: 'BTCUSDT', period: '1min', limit: 301 })).json().code).toBe(1001);
    const from = Date.parse('2026-01-17T10:00:00Z');
    const range = (await post(server.app, '/market/history/limit', { symbol: 'BTCUSDT', period: '1h', from, to: now })).json();
    expect(range.code).toBe(0);
    expect(range.data.map((bar: { time: number }) => bar.time)).toEqual([from, from + 3_600_000, from + 7_200_000]);
    expect((await post(server.app, '/market/history/limit', { symbol: 'BTCUSDT', period: '1h', from: now, to: from })).json().code).toBe(1001);
  });
});
