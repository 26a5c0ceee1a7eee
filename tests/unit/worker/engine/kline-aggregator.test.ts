import { describe, expect, it } from 'vitest';
import { createKlineAggregator, seriesKey } from '../../../../src/worker/engine/kline-aggregator';
import { priceTick } from '../../support/price-tick';

// A quote's volume (10 here) is not traded volume, and a quote is not a trade: ticks move the price only.
const tick = (symbol: string, price: string, lastUpdate: number) => priceTick(symbol, price, lastUpdate, { volume: '10' });

describe('kline aggregation in the worker', () => {
  it('continues the last history bar and opens the next at the boundary', () => {
    const aggregator = createKlineAggregator();
    const t0 = Date.parse('2026-01-12T10:00:00Z');
    aggregator.watch('BTC', '1min', { time: t0, openPrice: '100.00', highestPrice: '101.00', lowestPrice: '99.50', closePrice: '100.50', volume: '4', turnover: '402' });
    expect(aggregator.ingest(tick('BTC', '101.25', t0 + 30_000))).toEqual([seriesKey('BTC', '1min')]);
    expect(aggregator.bar(seriesKey('BTC', '1min'))).toMatchObject({ time: t0, openPrice: '100.00', highestPrice: '101.25', lowestPrice: '99.50', closePrice: '101.25', volume: '4' });
    aggregator.ingest(tick('BTC', '99.00', t0 + 60_000));
    expect(aggregator.bar(seriesKey('BTC', '1min'))).toMatchObject({ time: t0 + 60_000, openPrice: '99.00', closePrice: '99.00' });
    expect(aggregator.ingest(tick('ETH', '5.00', t0))).toEqual([]);
    aggregator.unwatch('BTC', '1min');
    expect(aggregator.watchedCount).toBe(0);
    expect(aggregator.ingest(tick('BTC', '1.00', t0 + 120_000))).toEqual([]);
  });

  it('takes the server’s forming bar (its real volume and OHLC) over its own, and ticks then move only the price', () => {
    const aggregator = createKlineAggregator();
    const t0 = Date.parse('2026-01-12T10:00:00Z');
    const key = seriesKey('BTC', '1min');
    aggregator.watch('BTC', '1min', { time: t0, openPrice: '100.00', highestPrice: '101.00', lowestPrice: '99.50', closePrice: '100.50', volume: '4', turnover: '402' });
    aggregator.ingest(tick('BTC', '101.25', t0 + 30_000));
    expect(aggregator.adopt('BTC', '1min', { time: t0, openPrice: '100.00', highestPrice: '101.30', lowestPrice: '99.50', closePrice: '101.20', volume: '57', turnover: '5760.5' })).toBe(key);
    expect(aggregator.bar(key)).toMatchObject({ time: t0, openPrice: '100.00', highestPrice: '101.30', lowestPrice: '99.50', closePrice: '101.20', volume: '57' });
    aggregator.ingest(tick('BTC', '101.40', t0 + 31_000));
    expect(aggregator.bar(key)).toMatchObject({ highestPrice: '101.40', closePrice: '101.40', volume: '57' });
    // A bar older than the one forming (a late message) changes nothing; an unwatched pair neither.
    expect(aggregator.adopt('BTC', '1min', { time: t0 - 60_000, openPrice: '1.00', highestPrice: '1.00', lowestPrice: '1.00', closePrice: '1.00', volume: '1', turnover: '1' })).toBeNull();
    expect(aggregator.adopt('ETH', '1min', { time: t0, openPrice: '1.00', highestPrice: '1.00', lowestPrice: '1.00', closePrice: '1.00', volume: '1', turnover: '1' })).toBeNull();
    expect(aggregator.bar(key)).toMatchObject({ time: t0, volume: '57' });
    // The next minute's first bar from the server replaces the finished one.
    expect(aggregator.adopt('BTC', '1min', { time: t0 + 60_000, openPrice: '101.40', highestPrice: '101.50', lowestPrice: '101.40', closePrice: '101.50', volume: '3', turnover: '304.5' })).toBe(key);
    expect(aggregator.bar(key)).toMatchObject({ time: t0 + 60_000, volume: '3' });
  });
});
