import { describe, expect, it } from 'vitest';
import type { PriceTick } from '../../../../src/shared/api/market';
import { brokerDestination, coalesceMarketMessage } from '../../../../src/shared/api/market-broker';
import { klinePeriods } from '../../../../src/shared/market/kline';

// RabbitMQ 3.10's STOMP plugin accepts `/topic/<routing key>` with no further slash;
// `/topic/price/BTCUSDT` gets "Invalid destination" and a closed connection.
const rabbitTopic = /^\/topic\/[^/]+$/;

function tick(symbol: string, price: string, lastUpdate: number): PriceTick {
  return { symbol, name: symbol, price, bidPrice: price, askPrice: price, volume: '1', lastUpdate, type: 'Cryptos', priceChangePercent: '0.10', low: price, high: price };
}

describe('brokerDestination (RabbitMQ names of the market topics)', () => {
  it('is not the identity: per-symbol topics become one routing key with dot-separated words', () => {
    expect(brokerDestination('/topic/prices')).toBe('/topic/prices');
    expect(brokerDestination('/topic/price/BTCUSDT')).toBe('/topic/price.BTCUSDT');
    expect(brokerDestination('/topic/price-1s/BTCUSDT')).toBe('/topic/price-1s.BTCUSDT');
    expect(brokerDestination('/topic/kline/BTCUSDT/1min')).toBe('/topic/kline.BTCUSDT.1min');
    expect(brokerDestination('/topic/kline/EURUSD/1d')).toBe('/topic/kline.EURUSD.1d');
  });

  it('gives every market destination a name RabbitMQ accepts, and no two the same name', () => {
    const symbols = ['BTCUSDT', 'EURUSD', 'BRK.B', 'BRK-B', 'BRK_B', 'A', 'A.1min', 'x'.repeat(32)];
    const destinations = ['/topic/prices', ...symbols.flatMap((symbol) => [`/topic/price/${symbol}`, `/topic/price-1s/${symbol}`, ...klinePeriods.map((period) => `/topic/kline/${symbol}/${period}`)])];
    const names = destinations.map(brokerDestination);
    for (const name of names) expect(name).toMatch(rabbitTopic);
    // Routing keys must not carry topic-exchange wildcards.
    for (const name of names) expect(name).not.toMatch(/[*#]/);
    expect(new Set(names).size).toBe(destinations.length);
  });

  it('keeps a dotted symbol as extra words, still distinct from a kline of another symbol', () => {
    expect(brokerDestination('/topic/price/BRK.B')).toBe('/topic/price.BRK.B');
    expect(brokerDestination('/topic/kline/BRK.B/5min')).toBe('/topic/kline.BRK.B.5min');
    expect(brokerDestination('/topic/kline/A.1min/5min')).not.toBe(brokerDestination('/topic/kline/A/1min'));
  });

  it('refuses what is not a market destination, including names already mapped', () => {
    for (const destination of ['/topic/secrets', '/queue/prices', '/topic/kline/BTCUSDT/2min', '/topic/price/BTC*', '/topic/price/BTC#', '/topic/price.BTCUSDT', '/topic/price-1s.BTCUSDT', '/topic/price-2s/BTCUSDT', '/topic/kline.BTCUSDT.1min', '', '/topic/price/']) {
      expect(() => brokerDestination(destination), destination).toThrow(RangeError);
    }
  });
});

describe('coalesceMarketMessage (what is kept of two messages while the broker is down)', () => {
  it('keeps the newer message of a per-symbol topic unchanged', () => {
    const older = JSON.stringify(tick('BTCUSDT', '1.00', 1));
    const newer = JSON.stringify(tick('BTCUSDT', '2.00', 2));
    expect(coalesceMarketMessage('/topic/price/BTCUSDT', older, newer)).toBe(newer);
    expect(coalesceMarketMessage('/topic/kline/BTCUSDT/1min', '{"time":1}', '{"time":2}')).toBe('{"time":2}');
  });

  it('merges /topic/prices batches by symbol, newest tick of each, so no changed symbol is lost', () => {
    const older = JSON.stringify([tick('BTCUSDT', '1.00', 1), tick('EURUSD', '1.10', 1)]);
    const newer = JSON.stringify([tick('BTCUSDT', '2.00', 2), tick('XAUUSD', '2000.00', 2)]);
    const merged = JSON.parse(coalesceMarketMessage('/topic/prices', older, newer)) as PriceTick[];
    expect(merged).toEqual([tick('BTCUSDT', '2.00', 2), tick('EURUSD', '1.10', 1), tick('XAUUSD', '2000.00', 2)]);
  });

  it('falls back to the newer batch when either one does not match the contract', () => {
    const valid = JSON.stringify([tick('BTCUSDT', '2.00', 2)]);
    expect(coalesceMarketMessage('/topic/prices', 'not json', valid)).toBe(valid);
    expect(coalesceMarketMessage('/topic/prices', valid, '[{"symbol":"BTCUSDT"}]')).toBe('[{"symbol":"BTCUSDT"}]');
    expect(coalesceMarketMessage('/topic/prices', '{"a":1}', valid)).toBe(valid);
  });
});
