import { describe, expect, it } from 'vitest';
import { instruments } from '../../../../../../server/modules/market/catalogue';
import {
  BINANCE_STREAM_BASE_URL,
  MAX_RECONNECT_DELAY_MS,
  MAX_STREAMS_PER_CONNECTION,
  binanceStreamUrl,
  decodeBinanceMessage,
  parseBinanceMessage,
  reconnectDelayMs,
  type BinanceQuote,
} from '../../../../../../server/modules/market/sources/binance-stream';

const crypto = instruments.filter((instrument) => instrument.type === 'Cryptos');
const byCode = new Map(crypto.map((instrument) => [instrument.code, instrument]));
const NOW = 1_717_171_717_000;

const combined = (stream: string, data: object) => JSON.stringify({ stream, data });
const bookTicker = (symbol: string, bid: string, ask: string, extra: object = {}) =>
  combined(`${symbol.toLowerCase()}@bookTicker`, { u: 400900217, s: symbol, b: bid, B: '31.21000000', a: ask, A: '40.66000000', ...extra });
const aggTrade = (symbol: string, price: string, quantity: string, timeMs: number) =>
  combined(`${symbol.toLowerCase()}@aggTrade`, {
    e: 'aggTrade', E: timeMs + 2, s: symbol, a: 12345, p: price, q: quantity, f: 100, l: 105, T: timeMs, m: true, M: true,
  });

const parse = (text: string, quotes?: ReadonlyMap<string, BinanceQuote>) => parseBinanceMessage(text, byCode, NOW, quotes);

describe('parseBinanceMessage: bookTicker', () => {
  it('converts the documented example exactly, rounding half up beyond the precision, at the receive time', () => {
    // BNBUSDT has precision 2: 25.3519 -> 25.35, 25.3652 -> 25.37 (the third decimal is a 5).
    expect(parse(bookTicker('BNBUSDT', '25.35190000', '25.36520000'))).toEqual({ symbol: 'BNBUSDT', timeMs: NOW, bid: 2535, ask: 2537, volume: 0 });
    expect(parse(bookTicker('BTCUSDT', '67012.34000000', '67012.35000000'))).toEqual({
      symbol: 'BTCUSDT', timeMs: NOW, bid: 6701234, ask: 6701235, volume: 0,
    });
    // XRPUSDT has precision 4, DOGEUSDT 5.
    expect(parse(bookTicker('XRPUSDT', '0.52344999', '0.52345000'))).toMatchObject({ bid: 5234, ask: 5235 });
    expect(parse(bookTicker('DOGEUSDT', '0.15000000', '0.15001000'))).toMatchObject({ bid: 15000, ask: 15001 });
  });

  it('accepts a raw (not combined) message and a locked quote, rejects a crossed one', () => {
    const raw = JSON.stringify({ u: 1, s: 'ETHUSDT', b: '3501.10000000', B: '1.0', a: '3501.11000000', A: '2.0' });
    expect(parse(raw)).toEqual({ symbol: 'ETHUSDT', timeMs: NOW, bid: 350110, ask: 350111, volume: 0 });
    expect(parse(bookTicker('ETHUSDT', '3501.10000000', '3501.10000000'))).toMatchObject({ bid: 350110, ask: 350110 });
    expect(parse(bookTicker('ETHUSDT', '3501.11000000', '3501.10000000'))).toBeNull();
  });

  it('ignores unknown symbols and anything malformed', () => {
    const ok = { u: 1, s: 'BTCUSDT', b: '67012.34', a: '67012.35' };
    const rejected = [
      bookTicker('PEPEUSDT', '0.00001234', '0.00001235'), // not in the catalogue
      bookTicker('EURUSD', '1.08500', '1.08510'), // not a crypto of this source
      'not json',
      '{"stream":"btcusdt@bookTicker","data":',
      '42',
      'null',
      '[]',
      '{"result":null,"id":1}', // a subscription reply
      combined('btcusdt@bookTicker', { ...ok, b: undefined }),
      combined('btcusdt@bookTicker', { ...ok, a: undefined }),
      combined('btcusdt@bookTicker', { ...ok, s: undefined }),
      combined('btcusdt@bookTicker', { ...ok, b: 67012.34 }), // a number, not an exact string
      combined('btcusdt@bookTicker', { ...ok, b: '67,012.34' }),
      combined('btcusdt@bookTicker', { ...ok, b: '-1.00' }),
      combined('btcusdt@bookTicker', { ...ok, b: '0.00', a: '0.00' }),
      combined('btcusdt@bookTicker', { ...ok, b: '1e3' }),
      combined('btcusdt@bookTicker', { ...ok, b: '9'.repeat(20) }), // beyond exact integers
      combined('ethusdt@bookTicker', ok), // the stream names another symbol
      combined('btcusdt@aggTrade', ok), // the stream names another kind
      combined('btcusdt', ok),
      JSON.stringify({ stream: 'btcusdt@bookTicker' }),
      JSON.stringify({ stream: 'btcusdt@bookTicker', data: 'x' }),
      JSON.stringify({ stream: 7, data: ok }),
      JSON.stringify({ e: 'depthUpdate', s: 'BTCUSDT', b: '1', a: '2' }),
    ];
    for (const text of rejected) expect(parse(text), text).toBeNull();
  });
});

describe('parseBinanceMessage: aggTrade', () => {
  const quotes = new Map<string, BinanceQuote>([['BTCUSDT', { bid: 6701234, ask: 6701235 }]]);

  it('carries the last known bid/ask, the trade time and the quantity rounded up', () => {
    expect(parse(aggTrade('BTCUSDT', '67012.35000000', '0.00150000', NOW - 40), quotes)).toEqual({
      symbol: 'BTCUSDT', timeMs: NOW - 40, bid: 6701234, ask: 6701235, volume: 1,
    });
    const volumeOf = (quantity: string) => parse(aggTrade('BTCUSDT', '67012.35', quantity, NOW), quotes)?.volume;
    expect(volumeOf('0.001')).toBe(1);
    expect(volumeOf('2.5')).toBe(3);
    expect(volumeOf('3.00000000')).toBe(3);
    expect(volumeOf('100')).toBe(100);
    expect(volumeOf('100.00000001')).toBe(101);
  });

  it('skips trades before any bid/ask of the symbol is known, and does not change the quotes', () => {
    expect(parse(aggTrade('BTCUSDT', '67012.35', '0.5', NOW))).toBeNull();
    expect(parse(aggTrade('ETHUSDT', '3501.11', '0.5', NOW), quotes)).toBeNull();
    parse(bookTicker('BTCUSDT', '1.00', '2.00'), quotes);
    expect(quotes.get('BTCUSDT')).toEqual({ bid: 6701234, ask: 6701235 });
  });

  it('ignores malformed trades', () => {
    const ok = { e: 'aggTrade', E: NOW, s: 'BTCUSDT', a: 1, p: '67012.35', q: '0.1', f: 1, l: 1, T: NOW, m: false, M: true };
    const rejected = [
      combined('btcusdt@aggTrade', { ...ok, q: '0.00000000' }),
      combined('btcusdt@aggTrade', { ...ok, q: '-1' }),
      combined('btcusdt@aggTrade', { ...ok, q: 0.1 }),
      combined('btcusdt@aggTrade', { ...ok, q: undefined }),
      combined('btcusdt@aggTrade', { ...ok, p: 'x' }),
      combined('btcusdt@aggTrade', { ...ok, p: undefined }),
      combined('btcusdt@aggTrade', { ...ok, T: undefined }),
      combined('btcusdt@aggTrade', { ...ok, T: '1717171717000' }),
      combined('btcusdt@aggTrade', { ...ok, T: 1.5 }),
      combined('btcusdt@bookTicker', ok), // the stream names another kind
      combined('btcusdt@aggTrade', { ...ok, s: 'DOGEUSDT' }),
    ];
    for (const text of rejected) expect(parse(text, quotes), text).toBeNull();
  });

  it('is decoded with its exact price', () => {
    expect(decodeBinanceMessage(aggTrade('ETHUSDT', '3501.10500000', '1.204', NOW), byCode, NOW)).toEqual({
      kind: 'trade', symbol: 'ETHUSDT', timeMs: NOW, price: 350111, volume: 2,
    });
  });
});

describe('binance stream URL and reconnect delay', () => {
  it('builds the public combined-stream URL from lower-cased codes', () => {
    const [btc, eth] = [byCode.get('BTCUSDT')!, byCode.get('ETHUSDT')!];
    expect(binanceStreamUrl([btc, eth])).toBe(
      `${BINANCE_STREAM_BASE_URL}?streams=btcusdt@bookTicker/btcusdt@aggTrade/ethusdt@bookTicker/ethusdt@aggTrade`,
    );
    expect(BINANCE_STREAM_BASE_URL).toBe('wss://stream.binance.com:9443/stream');
    expect(binanceStreamUrl([btc], { trades: false, baseUrl: 'ws://127.0.0.1:1/stream' })).toBe('ws://127.0.0.1:1/stream?streams=btcusdt@bookTicker');
    expect(() => binanceStreamUrl([])).toThrow(RangeError);
    const tooMany = Array.from({ length: MAX_STREAMS_PER_CONNECTION / 2 + 1 }, (_, index) => ({ code: `C${index}USDT` }));
    expect(() => binanceStreamUrl(tooMany)).toThrow(RangeError);
    expect(() => binanceStreamUrl(tooMany.slice(1))).not.toThrow();
  });

  it('waits 500 ms per attempt, up to the maximum', () => {
    expect([1, 2, 3, 10].map((attempt) => reconnectDelayMs(attempt))).toEqual([500, 1000, 1500, 5000]);
    expect(reconnectDelayMs(1_000)).toBe(MAX_RECONNECT_DELAY_MS);
    expect([1, 2, 3].map((attempt) => reconnectDelayMs(attempt, 30, 70))).toEqual([30, 60, 70]);
  });
});
