import { describe, expect, it } from 'vitest';
import { createPriceFanout, priceRowsPerBatchMax } from '../../../../src/worker/engine/price-fanout';
import { createTickStore } from '../../../../src/worker/engine/tick-store';
import { priceTick } from '../../support/price-tick';

const tick = (symbol: string, price: string, lastUpdate: number) => priceTick(symbol, price, lastUpdate, { volume: '10', priceChangePercent: '0.50' });

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
