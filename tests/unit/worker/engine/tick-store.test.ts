import { describe, expect, it } from 'vitest';
import { createBinaryTickDecoder, createBinaryTickEncoder } from '../../../../src/shared/market/binary-ticks';
import { batchTicks, createTickStore } from '../../../../src/worker/engine/tick-store';
import { priceTick as tick } from '../../support/price-tick';

describe('tick store', () => {
  it('keeps the newest tick per symbol and answers what changed', () => {
    const store = createTickStore();
    expect(store.ingest([tick('BTC', '1.00', 10), tick('ETH', '2.00', 10)])).toEqual(['BTC', 'ETH']);
    expect(store.ingest([tick('BTC', '0.50', 5)])).toEqual([]);
    expect(store.get('BTC')?.price).toBe('1.00');
    expect(store.ingest([tick('BTC', '1.10', 11)])).toEqual(['BTC']);
    expect(store.size).toBe(2);
  });

  it('keeps decoded binary ticks as their own copy: exact after the decoder has read its next body into the same slots', () => {
    const encoder = createBinaryTickEncoder('p');
    const decoder = createBinaryTickDecoder();
    const store = createTickStore();
    const first = [tick('BTC', '64000.50', 10, { askPrice: '64001.00', volume: '12', priceChangePercent: '-1.25' }), tick('EUR', '1.08500', 10, { price: '1.08510' })];
    const decoded = decoder.decodeInto(encoder.encode(first))!;
    expect(store.ingest(decoded)).toEqual(['BTC', 'EUR']);
    const moved = [{ ...first[0]!, price: '64000.75', bidPrice: '64000.75', volume: '13', lastUpdate: 11 }];
    const next = decoder.decodeInto(encoder.encode(moved))!;
    // The slots now hold the moved tick; what the store copied is still the first.
    expect(batchTicks(next)).toEqual(moved);
    expect(store.all()).toEqual(first);
    expect(store.ingest(next)).toEqual(['BTC']);
    expect(store.get('BTC')).toEqual(moved[0]);
    expect(store.get('EUR')).toEqual(first[1]);
  });

  it('refuses an older decoded tick of the same connection, and takes a new connection’s first whatever its date', () => {
    const encoder = createBinaryTickEncoder('p');
    const decoder = createBinaryTickDecoder();
    const store = createTickStore();
    store.ingest([tick('BTC', '2.00', 20)]);
    expect(store.ingest(decoder.decodeInto(encoder.encode([tick('BTC', '1.00', 10)]))!)).toEqual([]);
    expect(store.get('BTC')?.price).toBe('2.00');
    store.newConnection();
    expect(store.ingest(decoder.decodeInto(encoder.encode([tick('BTC', '1.50', 15)]))!)).toEqual(['BTC']);
    expect(store.get('BTC')?.price).toBe('1.50');
    expect(store.ingest(decoder.decodeInto(encoder.encode([tick('BTC', '1.40', 14)]))!)).toEqual([]);
  });
});
