import { describe, expect, it } from 'vitest';
import { priceTickSchema, type PriceTick } from '../../../../src/shared/api/market';
import { createTickLinesDecoder, createTickLinesEncoder, joinTickLines, splitTickLines } from '../../../../src/shared/market/tick-lines';

const btc: PriceTick = {
  symbol: 'BTCUSDT', name: 'Bitcoin ₿', price: '64000.50', bidPrice: '64000.50', askPrice: '64001.00', volume: '12',
  lastUpdate: 1_790_000_000_000, type: 'Cryptos', priceChangePercent: '-1.25', low: '63000.00', high: '65000.00',
};
const eur: PriceTick = {
  symbol: 'EURUSD', name: 'Euro / US Dollar', price: '1.08510', bidPrice: '1.08500', askPrice: '1.08512', volume: '0',
  lastUpdate: 1_789_999_999_400, type: 'Forex', priceChangePercent: '0.00', low: '1.08000', high: '1.09000',
};
const brk: PriceTick = { ...btc, symbol: 'BRK.B', name: 'Berkshire', type: 'US stocks', lastUpdate: 1_790_000_000_950 };

/** The next tick of a symbol: a new bid and ask, the rest as before unless `fields` says. */
const next = (tick: PriceTick, bid: string, ask: string, fields: Partial<PriceTick> = {}): PriceTick => ({
  ...tick, price: bid, bidPrice: bid, askPrice: ask, lastUpdate: tick.lastUpdate + 250, ...fields,
});

/** 500 symbols of a load test, and their next ticks. */
const load = Array.from({ length: 500 }, (_, index): PriceTick => ({
  ...btc, symbol: `LOAD${String(index + 1).padStart(3, '0')}USDT`, name: `Load ${index + 1}`, price: '100.07', bidPrice: '100.07', askPrice: '100.09',
  volume: '1234', lastUpdate: btc.lastUpdate + index * 7, priceChangePercent: '0.42', low: '99.00', high: '111.00',
}));
const loadAgain = load.map((tick, index) => next(tick, (100 + index / 100).toFixed(2), (100.02 + index / 100).toFixed(2), { volume: String(1235 + index) }));

describe('tick lines (the compact wire form of price ticks)', () => {
  it('carries every field of the contract exactly, decimals as the same strings, in order, first ticks and changes alike', () => {
    const encoder = createTickLinesEncoder('p');
    const decoder = createTickLinesDecoder();
    const first = [btc, eur, brk];
    const decodedFirst = decoder.decode(encoder.encode(first));
    expect(decodedFirst).toEqual(first);
    for (const tick of decodedFirst!) expect(priceTickSchema.safeParse(tick).success).toBe(true);

    // Each field changing alone, and all at once; the price apart from the bid, then back on it.
    const changes = [
      [next(btc, '64000.75', '64001.25'), next(eur, '1.08501', '1.08513', { price: '1.08511' }), brk],
      [next(btc, '64000.75', '64001.25', { volume: '13', lastUpdate: btc.lastUpdate - 900 }), next(eur, '1.08501', '1.08513'), next(brk, '64000.50', '64001.00', { priceChangePercent: '-1.30' })],
      [next(btc, '64000.75', '64001.25', { low: '62999.99' }), next(eur, '1.08501', '1.08513', { high: '1.09100' }), next(brk, '0.00', '0.00', { volume: '0', priceChangePercent: '0.00', low: '0.00', high: '0.00' })],
      [next(btc, '1.00', '2.00', { price: '1.50', volume: '1', priceChangePercent: '9.99', low: '1.00', high: '2.00', lastUpdate: btc.lastUpdate + 86_400_000 })],
    ];
    for (const batch of changes) expect(decoder.decode(encoder.encode(batch))).toEqual(batch);
  });

  it('sends a symbol whole once, then what changed: a tenth of the JSON body for a load test, under 40 octets a tick', () => {
    const encoder = createTickLinesEncoder('p');
    const decoder = createTickLinesDecoder();
    const whole = encoder.encode(load);
    const changes = encoder.encode(loadAgain);
    expect(decoder.decode(whole)).toEqual(load);
    expect(decoder.decode(changes)).toEqual(loadAgain);
    expect(whole.length).toBeLessThan(JSON.stringify(load).length * 0.4);
    expect(changes.length).toBeLessThan(JSON.stringify(loadAgain).length * 0.15);
    expect(changes.length / loadAgain.length).toBeLessThan(40);
  });

  it('sends a symbol whole again when its name or type changed', () => {
    const encoder = createTickLinesEncoder('p');
    const decoder = createTickLinesDecoder();
    decoder.decode(encoder.encode([btc]));
    const renamed = { ...next(btc, '64000.75', '64001.25'), name: 'Bitcoin', type: 'Forex' as const };
    expect(decoder.decode(encoder.encode([renamed]))).toEqual([renamed]);
  });

  it('keeps each source apart: the same symbol in two sources, each against its own previous tick', () => {
    const everyTick = createTickLinesEncoder('a');
    const glance = createTickLinesEncoder('b');
    const decoder = createTickLinesDecoder();
    const slow = next(btc, '64000.75', '64001.25');
    const fast = next(slow, '64001.00', '64001.50', { volume: '99' });
    expect(decoder.decode(joinTickLines([everyTick.encode([btc]), glance.encode([btc])]))).toEqual([btc, btc]);
    expect(decoder.decode(everyTick.encode([slow]))).toEqual([slow]);
    expect(decoder.decode(joinTickLines([everyTick.encode([fast]), glance.encode([fast])]))).toEqual([fast, fast]);
  });

  it("gives a new subscriber the source's state, so that its next publication reads right for old and new subscribers alike", () => {
    const encoder = createTickLinesEncoder('p');
    const early = createTickLinesDecoder();
    early.decode(encoder.encode([btc, eur]));
    // The latest ticks the server knows, of which brk this source has not sent yet.
    const late = createTickLinesDecoder();
    expect(late.decode(encoder.snapshot([next(btc, '1.00', '2.00'), eur, brk]))).toEqual([btc, eur, brk]);
    const publication = [next(btc, '64000.75', '64001.25'), next(brk, '64000.75', '64001.25')];
    const body = encoder.encode(publication);
    expect(early.decode(body)).toEqual(publication);
    expect(late.decode(body)).toEqual(publication);
    expect(encoder.snapshot([])).toBe('');
  });

  it("after a lost MESSAGE, the source's state sent before the next one puts a subscriber back in step", () => {
    const encoder = createTickLinesEncoder('p');
    const resent = createTickLinesDecoder();
    const notResent = createTickLinesDecoder();
    const start = encoder.encode([btc, eur]);
    resent.decode(start);
    notResent.decode(start);
    const lost = next(btc, '64000.75', '64001.25', { volume: '13' });
    encoder.encode([lost]); // dropped for a slow consumer
    const publication = [next(lost, '64001.00', '64001.50'), next(eur, '1.08501', '1.08513')];
    const body = encoder.encode(publication);
    // The volume did not change in this publication, so it is not in it.
    expect(notResent.decode(body)?.[0]?.volume).toBe('12');
    // The endpoint's order: the state as it is now, then the publication.
    expect(resent.decode(joinTickLines([encoder.snapshot([btc, eur]), body]))?.slice(2)).toEqual(publication);
  });

  it('joins bodies encoded apart (each with its own base time) into one batch', () => {
    const decoder = createTickLinesDecoder();
    const joined = joinTickLines([createTickLinesEncoder('a').encode([btc]), '', createTickLinesEncoder('b').encode([eur, brk])]);
    expect(decoder.decode(joined)).toEqual([btc, eur, brk]);
    expect(joinTickLines([])).toBe('');
    expect(decoder.decode('')).toEqual([]);
  });

  it('sends a tab or line break of a name as a space, so that the lines stay lines', () => {
    const decoded = createTickLinesDecoder().decode(createTickLinesEncoder('p').encode([{ ...btc, name: 'Bit\tcoin\nUSD' }]));
    expect(decoded).toEqual([{ ...btc, name: 'Bit coin USD' }]);
  });

  it('refuses a body that is not of the form, or that refers to an id its source never gave', () => {
    const encoder = createTickLinesEncoder('p');
    const good = encoder.encode([btc]);
    const change = encoder.encode([next(btc, '64000.75', '64001.25')]);
    for (const body of [
      JSON.stringify([btc]),
      good.replace('64001.00', '64,001.00'),
      good.replace('\t4\t0\t', '\t9\t0\t'),
      good.replace('\t12\t', '\t1e3\t'),
      `${good}\n`,
      `${good}\n=1\tEURUSD\tEuro`,
      good.replace(/^@\d+/, '@soon'),
      good.replace(/^@\d+\tp\n/, ''),
      change,
      `${good}\n${change.replace('64000.75', '64000.7x')}`,
      `${good}\n${change}\t1\t2\t3\t4\t5\t6`,
    ]) {
      expect(createTickLinesDecoder().decode(body), body).toBeNull();
    }
    expect(createTickLinesDecoder().decode(`${good}\n${change}`)).toEqual([btc, next(btc, '64000.75', '64001.25')]);
  });
});

describe('splitting a batch into MESSAGEs', () => {
  it('cuts at header lines into pieces of at most the size, together all the ticks in order', () => {
    const encoder = createTickLinesEncoder('a');
    const body = joinTickLines([encoder.encode(load.slice(0, 100)), createTickLinesEncoder('b').encode([eur]), encoder.encode(load.slice(100))]);
    const pieces = splitTickLines(body, 4096);
    expect(pieces.length).toBeGreaterThan(body.length / 4096);
    for (const piece of pieces) {
      expect(piece.length).toBeLessThanOrEqual(4096);
      expect(piece.startsWith('@')).toBe(true);
    }
    const decoder = createTickLinesDecoder();
    expect(pieces.flatMap((piece) => decoder.decode(piece) ?? [null])).toEqual([...load.slice(0, 100), eur, ...load.slice(100)]);
    const changes = splitTickLines(encoder.encode(loadAgain), 1024);
    expect(changes.length).toBeGreaterThan(1);
    expect(changes.flatMap((piece) => decoder.decode(piece) ?? [null])).toEqual(loadAgain);
  });

  it('leaves a small batch whole, and a segment longer than the size whole', () => {
    const small = createTickLinesEncoder('p').encode([btc, eur]);
    expect(splitTickLines(small, 4096)).toEqual([small]);
    const segment = createTickLinesEncoder('p').encode(load.slice(0, 32));
    expect(splitTickLines(joinTickLines([segment, segment]), 100)).toEqual([segment, segment]);
  });
});
