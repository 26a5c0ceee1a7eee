import { describe, expect, it } from 'vitest';
import { createTickStore } from '../../../../src/worker/engine/tick-store';
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
});
