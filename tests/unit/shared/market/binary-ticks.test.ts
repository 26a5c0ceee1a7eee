import { describe, expect, it } from 'vitest';
import { priceTickSchema, type PriceTick } from '../../../../src/shared/api/market';
import {
  createBinaryTickDecoder,
  createBinaryTickEncoder,
  joinBinaryTicks,
  splitBinaryTicks,
  ticksPerSegment,
} from '../../../../src/shared/market/binary-ticks';
import { createTickLinesEncoder } from '../../../../src/shared/market/tick-lines';
import { formatMoney, money } from '../../../../src/shared/money/money';

/** An exact decimal moved by `step`, written with its own decimals as a price feed would (never through floats). */
const decimalsOf = (value: string) => value.split('.')[1]?.length ?? 0;
const plus = (value: string, step: string) => formatMoney(money(value) + money(step), Math.max(decimalsOf(value), decimalsOf(step)));

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

/** 500 symbols of a load test, and their next ticks (as the server's move: bid, ask, change and volume). */
const load = Array.from({ length: 500 }, (_, index): PriceTick => ({
  ...btc, symbol: `LOAD${String(index + 1).padStart(3, '0')}USDT`, name: `Load ${index + 1}`, price: '100.07', bidPrice: '100.07', askPrice: '100.09',
  volume: '1234', lastUpdate: btc.lastUpdate + index * 7, priceChangePercent: '0.42', low: '99.00', high: '111.00',
}));
const loadAgain = load.map((tick, index) =>
  next(tick, (100 + index / 100).toFixed(2), (100.02 + index / 100).toFixed(2), { volume: String(1235 + index), priceChangePercent: (index / 100).toFixed(2) }),
);

describe('binary ticks (the worker’s wire form of price ticks)', () => {
  it('carries every field of the contract exactly, decimals as the same strings, in order, first ticks and changes alike', () => {
    const encoder = createBinaryTickEncoder('p');
    const decoder = createBinaryTickDecoder();
    const first = [btc, eur, brk];
    const decodedFirst = decoder.decode(encoder.encode(first));
    expect(decodedFirst).toEqual(first);
    for (const tick of decodedFirst!) expect(priceTickSchema.safeParse(tick).success).toBe(true);

    const changes = [
      // Each field changing alone, the price apart from the bid, then back on it.
      [next(btc, '64000.75', '64001.25'), next(eur, '1.08501', '1.08513', { price: '1.08511' }), brk],
      [next(btc, '64000.75', '64001.25', { volume: '13', lastUpdate: btc.lastUpdate - 900 }), next(eur, '1.08501', '1.08513'), next(brk, '64000.50', '64001.00', { priceChangePercent: '-1.30' })],
      [next(btc, '64000.75', '64001.25', { low: '62999.99' }), next(eur, '1.08501', '1.08513', { high: '1.09100' }), next(brk, '0.00', '0.00', { volume: '0', priceChangePercent: '0.00', low: '0.00', high: '0.00' })],
      // Signs crossing zero, a price below zero, a day later.
      [next(btc, '-0.05', '2.00', { price: '1.50', volume: '1', priceChangePercent: '9.99', low: '-1.00', high: '2.00', lastUpdate: btc.lastUpdate + 86_400_000 })],
      // Decimals whose digits after the point change, or that do not write back from units: as strings, exactly.
      [next(btc, '1.5', '2', { volume: '0012', priceChangePercent: '-0.00', low: '1.000000000000000000001', high: '123456789012345678901234567890' })],
      [next(btc, '1.75', '3.10', { volume: '13', priceChangePercent: '-0.01', low: '1.000000000000000000002', high: '9007199254740993' })],
      [next(btc, '1.76', '3.11', { volume: '14', priceChangePercent: '0.01', high: '9007199254740994' })],
    ];
    for (const batch of changes) expect(decoder.decode(encoder.encode(batch))).toEqual(batch);
  });

  it('sends a symbol whole once, then what changed: about 8 octets a tick that moved a few units, a third of the tick lines', () => {
    const encoder = createBinaryTickEncoder('p');
    const lines = createTickLinesEncoder('p');
    const decoder = createBinaryTickDecoder();
    const whole = encoder.encode(load);
    const changes = encoder.encode(loadAgain);
    lines.encode(load);
    const lineOctets = new TextEncoder().encode(lines.encode(loadAgain)).length;
    expect(decoder.decode(whole)).toEqual(load);
    expect(decoder.decode(changes)).toEqual(loadAgain);
    expect(changes.length).toBeLessThan(lineOctets / 2);
    // As a live market moves: bid, ask and the day's change by a few units, the volume by one.
    const moved = loadAgain.map((tick) =>
      next(tick, plus(tick.bidPrice, '0.03'), plus(tick.askPrice, '0.03'), {
        volume: plus(tick.volume, '1'), priceChangePercent: plus(tick.priceChangePercent, '0.03'), lastUpdate: tick.lastUpdate + 1,
      }),
    );
    const small = encoder.encode(moved);
    expect(decoder.decode(small)).toEqual(moved);
    expect(small.length / moved.length).toBeLessThanOrEqual(8.5);
    expect(small.length).toBeLessThan(new TextEncoder().encode(lines.encode(moved)).length / 3);
  });

  it('names a symbol listed in the order the source first sent it in one octet, and a stamp the previous tick shares in none: about 6 octets a tick', () => {
    const encoder = createBinaryTickEncoder('p');
    const decoder = createBinaryTickDecoder();
    decoder.decode(encoder.encode(load));
    // A window's ticks, stamped alike, in the source's order (ids 0–499, two octets each past 63 as absolute ids).
    const stamp = btc.lastUpdate + 100;
    const windowed = load.map((tick) => next(tick, plus(tick.bidPrice, '0.03'), plus(tick.askPrice, '0.03'), { volume: plus(tick.volume, '1'), priceChangePercent: '0.45', lastUpdate: stamp }));
    const body = encoder.encode(windowed);
    expect(decoder.decode(body)).toEqual(windowed);
    expect(body.length / windowed.length).toBeLessThanOrEqual(6.2);
    // In any other order, and stamped apart, the same ticks still read back exactly (ids by difference, times as before).
    const shuffled = windowed.map((_, index) => windowed[(index * 211) % windowed.length]!).map((tick, index) =>
      next(tick, plus(tick.bidPrice, '0.01'), plus(tick.askPrice, '0.01'), { volume: plus(tick.volume, '1'), priceChangePercent: '0.46', lastUpdate: stamp + (index % 3) * 40 }),
    );
    const other = encoder.encode(shuffled);
    expect(decoder.decode(other)).toEqual(shuffled);
    expect(other.length / shuffled.length).toBeGreaterThan(body.length / windowed.length);
  });

  it('sends a symbol whole again when its name or type changed', () => {
    const encoder = createBinaryTickEncoder('p');
    const decoder = createBinaryTickDecoder();
    decoder.decode(encoder.encode([btc]));
    const renamed = { ...next(btc, '64000.75', '64001.25'), name: 'Bitcoin', type: 'Forex' as const };
    expect(decoder.decode(encoder.encode([renamed]))).toEqual([renamed]);
    const moved = next(renamed, '64001.00', '64001.50');
    expect(decoder.decode(encoder.encode([moved]))).toEqual([moved]);
  });

  it('keeps each source apart: the same symbol in two sources, each against its own previous tick', () => {
    const everyTick = createBinaryTickEncoder('a');
    const glance = createBinaryTickEncoder('b');
    const decoder = createBinaryTickDecoder();
    const slow = next(btc, '64000.75', '64001.25');
    const fast = next(slow, '64001.00', '64001.50', { volume: '99' });
    expect(decoder.decode(joinBinaryTicks([everyTick.encode([btc]), glance.encode([btc])]))).toEqual([btc, btc]);
    expect(decoder.decode(everyTick.encode([slow]))).toEqual([slow]);
    expect(decoder.decode(joinBinaryTicks([everyTick.encode([fast]), glance.encode([fast])]))).toEqual([fast, fast]);
  });

  it("gives a new subscriber the source's state, so that its next publication reads right for old and new subscribers alike", () => {
    const encoder = createBinaryTickEncoder('p');
    const early = createBinaryTickDecoder();
    early.decode(encoder.encode([btc, eur]));
    // The latest ticks the server knows, of which brk this source has not sent yet.
    const late = createBinaryTickDecoder();
    expect(late.decode(encoder.snapshot([next(btc, '1.00', '2.00'), eur, brk]))).toEqual([btc, eur, brk]);
    const publication = [next(btc, '64000.75', '64001.25'), next(eur, '1.08501', '1.08513', { price: '1.08600' }), next(brk, '64000.75', '64001.25')];
    const body = encoder.encode(publication);
    expect(early.decode(body)).toEqual(publication);
    expect(late.decode(body)).toEqual(publication);
    expect(encoder.snapshot([])).toEqual(new Uint8Array(0));
  });

  it("after a lost MESSAGE (a gap), the source's state sent instead of the next publication puts a subscriber back in step", () => {
    const encoder = createBinaryTickEncoder('p');
    const resent = createBinaryTickDecoder();
    const notResent = createBinaryTickDecoder();
    const start = encoder.encode([btc, eur]);
    resent.decode(start);
    notResent.decode(start);
    const lost = next(btc, '64000.75', '64001.25', { volume: '13' });
    encoder.encode([lost]); // dropped for a slow consumer
    const publication = [next(lost, '64001.00', '64001.50'), next(eur, '1.08501', '1.08513')];
    const body = encoder.encode(publication);
    // Without the state, the differences apply to what this decoder last had: why the endpoint resends it.
    expect(notResent.decode(body)?.[0]?.volume).toBe('12');
    // The state after the publication holds its ticks; the publication's differences must not be applied to it again.
    expect(resent.decode(encoder.snapshot([btc, eur]))).toEqual(publication);
    const after = [next(publication[0]!, '64001.25', '64001.75'), next(publication[1]!, '1.08502', '1.08514')];
    expect(resent.decode(encoder.encode(after))).toEqual(after);
  });

  it('joins bodies encoded apart into one batch', () => {
    const decoder = createBinaryTickDecoder();
    const joined = joinBinaryTicks([createBinaryTickEncoder('a').encode([btc]), new Uint8Array(0), createBinaryTickEncoder('b').encode([eur, brk])]);
    expect(decoder.decode(joined)).toEqual([btc, eur, brk]);
    expect(joinBinaryTicks([])).toEqual(new Uint8Array(0));
    expect(decoder.decode(new Uint8Array(0))).toEqual([]);
  });

  it('refuses a body cut short, corrupted, or referring to a symbol its source never gave, without a tick of it', () => {
    const encoder = createBinaryTickEncoder('p');
    const good = encoder.encode([btc, eur]);
    const change = encoder.encode([next(btc, '64000.75', '64001.25'), next(eur, '1.08501', '1.08513')]);
    const ready = () => {
      const decoder = createBinaryTickDecoder();
      expect(decoder.decode(good)).toEqual([btc, eur]);
      return decoder;
    };
    // A change of a source whose symbols this connection never got.
    expect(createBinaryTickDecoder().decode(change)).toBeNull();
    // Cut at every octet: never a crash, never a part of it.
    for (let length = 1; length < change.length; length += 1) expect(ready().decode(change.subarray(0, length)), `cut at ${length}`).toBeNull();
    for (let length = 1; length < good.length; length += 1) expect(createBinaryTickDecoder().decode(good.subarray(0, length)), `cut at ${length}`).toBeNull();
    // Every octet of the body flipped in turn: refused or read as other ticks, never a throw.
    for (let index = 0; index < good.length; index += 1) {
      const corrupted = good.slice();
      corrupted[index] = corrupted[index]! ^ 0xff;
      const decoded = createBinaryTickDecoder().decode(corrupted);
      if (decoded) for (const tick of decoded) expect(priceTickSchema.safeParse(tick).success).toBe(true);
    }
    const text = new TextEncoder();
    for (const body of [
      text.encode(JSON.stringify([btc])),
      text.encode(createTickLinesEncoder('p').encode([btc])),
      // A decimal that is not one, a product type of none, an octet after the last segment.
      good.map((octet, index) => (index === good.indexOf(0x2e) ? 0x2c : octet)),
      good.map((octet, index) => (index === good.indexOf(4) ? 9 : octet)),
      joinBinaryTicks([good, new Uint8Array([7])]),
    ]) {
      expect(createBinaryTickDecoder().decode(body)).toBeNull();
    }
    expect(ready().decode(change)).toEqual([next(btc, '64000.75', '64001.25'), next(eur, '1.08501', '1.08513')]);
  });
});

describe('splitting a binary batch into MESSAGEs', () => {
  it('cuts between segments into pieces of at most the size, together all the ticks in order', () => {
    const encoder = createBinaryTickEncoder('a');
    const body = joinBinaryTicks([encoder.encode(load.slice(0, 100)), createBinaryTickEncoder('b').encode([eur]), encoder.encode(load.slice(100))]);
    const pieces = splitBinaryTicks(body, 8192);
    expect(pieces.length).toBeGreaterThan(body.length / 8192);
    for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(8192);
    const decoder = createBinaryTickDecoder();
    expect(pieces.flatMap((piece) => decoder.decode(piece) ?? [null])).toEqual([...load.slice(0, 100), eur, ...load.slice(100)]);
    const changes = splitBinaryTicks(encoder.encode(loadAgain), 1024);
    expect(changes.length).toBeGreaterThan(1);
    expect(changes.flatMap((piece) => decoder.decode(piece) ?? [null])).toEqual(loadAgain);
  });

  it('leaves a small batch whole, and a segment longer than the size whole', () => {
    const small = createBinaryTickEncoder('p').encode([btc, eur]);
    expect(splitBinaryTicks(small, 4096)).toEqual([small]);
    const segment = createBinaryTickEncoder('p').encode(load.slice(0, ticksPerSegment));
    expect(splitBinaryTicks(joinBinaryTicks([segment, segment]), 100)).toEqual([segment, segment]);
    expect(() => splitBinaryTicks(new Uint8Array(200).fill(5), 100)).toThrow(RangeError);
  });
});
