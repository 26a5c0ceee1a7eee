import { describe, expect, it } from 'vitest';
import { createKlineAggregator, seriesKey } from '../../../../src/worker/engine/kline-aggregator';
import { priceTick } from '../../support/price-tick';

// A quote's volume (10 here) is not traded volume: each tick counts one in the bar.
const tick = (symbol: string, price: string, lastUpdate: number) => priceTick(symbol, price, lastUpdate, { volume: '10' });

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
