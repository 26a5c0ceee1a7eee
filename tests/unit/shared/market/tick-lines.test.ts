import { describe, expect, it } from 'vitest';
import { priceTickSchema, type PriceTick } from '../../../../src/shared/api/market';
import { decodeTickLines, encodeTickLines, joinTickLines, splitTickLines } from '../../../../src/shared/market/tick-lines';

const btc: PriceTick = {
  symbol: 'BTCUSDT', name: 'Bitcoin ₿', price: '64000.50', bidPrice: '64000.50', askPrice: '64001.00', volume: '12',
  lastUpdate: 1_790_000_000_000, type: 'Cryptos', priceChangePercent: '-1.25', low: '63000.00', high: '65000.00',
};
const eur: PriceTick = {
  symbol: 'EURUSD', name: 'Euro / US Dollar', price: '1.08510', bidPrice: '1.08500', askPrice: '1.08512', volume: '0',
  lastUpdate: 1_789_999_999_400, type: 'Forex', priceChangePercent: '0.00', low: '1.08000', high: '1.09000',
};
const brk: PriceTick = { ...btc, symbol: 'BRK.B', name: 'Berkshire', type: 'US stocks', lastUpdate: 1_790_000_000_950 };

describe('tick lines (the compact wire form of price ticks)', () => {
  it('carries every field of the contract exactly, decimals as the same strings, in order', () => {
    const ticks = [btc, eur, brk];
    const decoded = decodeTickLines(encodeTickLines(ticks));
    expect(decoded).toEqual(ticks);
    for (const tick of decoded!) expect(priceTickSchema.safeParse(tick).success).toBe(true);
  });

  it('is about a third of the JSON body', () => {
    const ticks = Array.from({ length: 100 }, (_, index) => ({ ...btc, symbol: `LOAD${index}USDT`, lastUpdate: btc.lastUpdate + index * 7 }));
    expect(encodeTickLines(ticks).length).toBeLessThan(JSON.stringify(ticks).length * 0.4);
  });

  it('joins bodies encoded apart (each with its own base time) into one batch', () => {
    const joined = joinTickLines([encodeTickLines([btc]), '', encodeTickLines([eur, brk])]);
    expect(decodeTickLines(joined)).toEqual([btc, eur, brk]);
    expect(joinTickLines([])).toBe('');
    expect(decodeTickLines('')).toEqual([]);
  });

  it('sends a tab or line break of a name as a space, so that the lines stay lines', () => {
    expect(decodeTickLines(encodeTickLines([{ ...btc, name: 'Bit\tcoin\nUSD' }]))).toEqual([{ ...btc, name: 'Bit coin USD' }]);
  });

  it('refuses a body that is not of the form, whole', () => {
    const good = encodeTickLines([btc]);
    for (const body of [
      JSON.stringify([btc]),
      good.replace('64001.00', '64,001.00'),
      good.replace('\t4\t', '\t9\t'),
      good.replace('12', '1e3'),
      `${good}\n`,
      `${good}\nEURUSD\tEuro`,
      good.replace(/^@\d+/, '@soon'),
    ]) {
      expect(decodeTickLines(body), body).toBeNull();
    }
  });
});

describe('splitting a batch into MESSAGEs', () => {
  const many = Array.from({ length: 500 }, (_, index) => ({ ...btc, symbol: `LOAD${index}USDT`, lastUpdate: btc.lastUpdate + index * 7 }));

  it('cuts at base lines into pieces of at most the size, each decoding alone, together all the ticks in order', () => {
    const body = joinTickLines([encodeTickLines(many.slice(0, 100)), encodeTickLines([eur]), encodeTickLines(many.slice(100))]);
    const pieces = splitTickLines(body, 4096);
    expect(pieces.length).toBeGreaterThan(body.length / 4096);
    for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(4096);
    expect(pieces.flatMap((piece) => decodeTickLines(piece) ?? [null])).toEqual([...many.slice(0, 100), eur, ...many.slice(100)]);
  });

  it('leaves a small batch whole, and a segment longer than the size whole', () => {
    const small = encodeTickLines([btc, eur]);
    expect(splitTickLines(small, 4096)).toEqual([small]);
    const segment = encodeTickLines(many.slice(0, 32));
    expect(splitTickLines(joinTickLines([segment, segment]), 100)).toEqual([segment, segment]);
  });
});
