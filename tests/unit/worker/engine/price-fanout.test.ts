import { describe, expect, it } from 'vitest';
import type { PriceTick } from '../../../../src/shared/api/market';
import { createKlineAggregator, seriesKey } from '../../../../src/worker/engine/kline-aggregator';
import { createPriceFanout, priceRowsPerBatchMax } from '../../../../src/worker/engine/price-fanout';
import { connectionLost, connectionOpened, initialConnectionState, reconnectDelayMs } from '../../../../src/worker/engine/reconnect-policy';
import { createStalenessMonitor } from '../../../../src/worker/engine/staleness';
import { createTickStore } from '../../../../src/worker/engine/tick-store';

function tick(symbol: string, price: string, lastUpdate: number): PriceTick {
  return { symbol, name: symbol, price, bidPrice: price, askPrice: price, volume: '10', lastUpdate, type: 'Cryptos', priceChangePercent: '0.50', low: price, high: price };
}

describe('reconnect policy', () => {
  it('waits 500 ms times the attempt and gives up after more than 10 attempts', () => {
    let state = initialConnectionState;
    const delays: (number | null)[] = [];
    for (let attempt = 0; attempt < 11; attempt += 1) {
      const next = connectionLost(state);
      delays.push(next.retryInMs);
      state = next.state;
    }
    expect(delays).toEqual([500, 1000, 1500, 2000, 2500, 3000, 3500, 4000, 4500, 5000, null]);
    expect(state.gaveUp).toBe(true);
    expect(connectionOpened()).toEqual({ status: 'open', failedAttempts: 0, gaveUp: false });
    expect(reconnectDelayMs(3)).toBe(1500);
  });
});

describe('staleness', () => {
  it('flags data stale after 10 s without any, and fresh again on the next message', () => {
    let now = 0;
    const changes: boolean[] = [];
    const monitor = createStalenessMonitor({ clock: { nowMs: () => now }, onChange: (stale) => changes.push(stale) });
    monitor.check();
    expect(changes).toEqual([]); // nothing arrived yet: loading, not stale
    monitor.noteData();
    for (now = 1000; now < 10_000; now += 1000) monitor.check();
    expect(monitor.stale).toBe(false);
    now = 10_000;
    monitor.check();
    expect(changes).toEqual([true]);
    now = 11_000;
    monitor.check();
    monitor.noteData();
    expect(changes).toEqual([true, false]);
  });
});

describe('tick store', () => {
  it('keeps the newest tick per symbol and answers what changed', () => {
    const store = createTickStore();
    expect(store.ingest([tick('BTC', '1.00', 10), tick('ETH', '2.00', 10)])).toEqual(['BTC', 'ETH']);
    expect(store.ingest([tick('BTC', '0.50', 5)])).toEqual([]);
    expect(store.get('BTC')?.price).toBe('1.00');
    expect(store.ingest([tick('BTC', '1.10', 11)])).toEqual(['BTC']);
    expect(store.size).toBe(2);
  });
});

describe('kline aggregation in the worker', () => {
  it('continues the last history bar and opens the next at the boundary', () => {
    const aggregator = createKlineAggregator();
    const t0 = Date.parse('2026-01-12T10:00:00Z');
    aggregator.watch('BTC', '1min', { time: t0, openPrice: '100.00', highestPrice: '101.00', lowestPrice: '99.50', closePrice: '100.50', volume: '4', turnover: '402' });
    expect(aggregator.ingest(tick('BTC', '101.25', t0 + 30_000))).toEqual([seriesKey('BTC', '1min')]);
    expect(aggregator.bar(seriesKey('BTC', '1min'))).toMatchObject({ time: t0, openPrice: '100.00', highestPrice: '101.25', lowestPrice: '99.50', closePrice: '101.25', volume: '5' });
    aggregator.ingest(tick('BTC', '99.00', t0 + 60_000));
    expect(aggregator.bar(seriesKey('BTC', '1min'))).toMatchObject({ time: t0 + 60_000, openPrice: '99.00', closePrice: '99.00' });
    expect(aggregator.ingest(tick('ETH', '5.00', t0))).toEqual([]);
    aggregator.unwatch('BTC', '1min');
    expect(aggregator.watchedCount).toBe(0);
    expect(aggregator.ingest(tick('BTC', '1.00', t0 + 120_000))).toEqual([]);
  });
});

describe('price fan-out to tabs', () => {
  it('sends each tab only its watched symbols that changed, once per flush', () => {
    const store = createTickStore();
    const fanout = createPriceFanout();
    store.ingest([tick('A', '1', 1), tick('B', '2', 1), tick('C', '3', 1)]);
    fanout.setWatched('tab-1', ['A', 'B']);
    fanout.setWatched('tab-2', ['C']);
    // Newly watched symbols are sent at once, so a row shows its price when it appears.
    const first = fanout.drain((symbol) => store.get(symbol));
    expect(first.get('tab-1')?.map((row) => row[0])).toEqual(['A', 'B']);
    expect(first.get('tab-2')?.map((row) => row[0])).toEqual(['C']);

    for (let update = 2; update < 50; update += 1) fanout.noteChanged(store.ingest([tick('A', String(update), update)]));
    const second = fanout.drain((symbol) => store.get(symbol));
    expect([...second.keys()]).toEqual(['tab-1']);
    expect(second.get('tab-1')).toEqual([['A', '49', '49', '49', '0.50', '49', '49', '10', 49]]);
    expect(fanout.drain((symbol) => store.get(symbol)).size).toBe(0);
  });

  it('frees the work when rows scroll away or a tab closes', () => {
    const fanout = createPriceFanout();
    fanout.setWatched('tab-1', ['A', 'B']);
    fanout.setWatched('tab-2', ['B']);
    fanout.setWatched('tab-1', ['B']);
    expect(fanout.watchedSymbols().sort()).toEqual(['B']);
    fanout.removeClient('tab-1');
    expect(fanout.isWatched('B')).toBe(true);
    fanout.removeClient('tab-2');
    expect(fanout.isWatched('B')).toBe(false);
  });

  it('caps each batch and sends the rest next time', () => {
    const store = createTickStore();
    const fanout = createPriceFanout();
    const symbols = Array.from({ length: priceRowsPerBatchMax + 50 }, (_, index) => `S${index}`);
    store.ingest(symbols.map((symbol) => tick(symbol, '1', 1)));
    fanout.setWatched('tab', symbols);
    expect(fanout.drain((symbol) => store.get(symbol)).get('tab')).toHaveLength(priceRowsPerBatchMax);
    expect(fanout.drain((symbol) => store.get(symbol)).get('tab')).toHaveLength(50);
  });
});
