import { describe, expect, it } from 'vitest';
import { createTriggerIndex, type Trigger } from '../../../../../server/modules/trading/trigger-index';
import { seededRandom } from '../../../../../server/modules/market/sources/random';

const trigger = (id: string, side: 'bid' | 'ask', crossing: 'above' | 'below', level: number): Trigger<string> => ({ id, side, crossing, level, payload: id });

describe('trigger index', () => {
  it('fires each trigger once, at the first prices that cross its level, on its own side', () => {
    const index = createTriggerIndex<string>();
    index.add(trigger('buy-stop-loss', 'bid', 'below', 1000)); // a buy closes at the bid
    index.add(trigger('buy-take-profit', 'bid', 'above', 1100));
    index.add(trigger('sell-stop-loss', 'ask', 'above', 1100)); // a sell closes at the ask
    index.add(trigger('buy-limit', 'ask', 'below', 990)); // a pending buy fills at the ask
    expect(index.fire(1050, 1052)).toEqual([]);
    expect(index.fire(1099, 1101).map((fired) => fired.id)).toEqual(['sell-stop-loss']);
    expect(index.fire(1100, 1102).map((fired) => fired.id)).toEqual(['buy-take-profit']);
    expect(index.fire(1100, 1102)).toEqual([]);
    expect(index.fire(985, 987).map((fired) => fired.id).sort()).toEqual(['buy-limit', 'buy-stop-loss']);
    expect(index.size).toBe(0);
  });

  it('fires equal levels oldest first, and removed triggers never', () => {
    const index = createTriggerIndex<string>();
    for (const id of ['a', 'b', 'c']) index.add(trigger(id, 'bid', 'above', 500));
    index.add(trigger('d', 'bid', 'above', 400));
    expect(index.remove('b')).toBe(true);
    expect(index.remove('b')).toBe(false);
    expect(index.fire(500, 501).map((fired) => fired.id)).toEqual(['d', 'a', 'c']);
  });

  it('agrees with a linear scan over random triggers and prices', () => {
    const random = seededRandom(7);
    const index = createTriggerIndex<string>();
    const naive = new Map<string, Trigger<string>>();
    let next = 0;
    for (let step = 0; step < 2000; step += 1) {
      const roll = random.next();
      if (roll < 0.5) {
        const created = trigger(`t${(next += 1)}`, random.next() < 0.5 ? 'bid' : 'ask', random.next() < 0.5 ? 'above' : 'below', 900 + Math.floor(random.next() * 200));
        // Place a trigger only on the side the price has not crossed yet.
        index.add(created);
        naive.set(created.id, created);
      } else if (roll < 0.6 && naive.size > 0) {
        const id = [...naive.keys()][Math.floor(random.next() * naive.size)]!;
        naive.delete(id);
        expect(index.remove(id)).toBe(true);
      } else {
        const bid = 900 + Math.floor(random.next() * 200);
        const ask = bid + 2;
        const expected = [...naive.values()]
          .filter((each) => {
            const price = each.side === 'bid' ? bid : ask;
            return each.crossing === 'above' ? price >= each.level : price <= each.level;
          })
          .map((each) => each.id)
          .sort();
        const fired = index.fire(bid, ask).map((each) => each.id).sort();
        expect(fired).toEqual(expected);
        for (const id of fired) naive.delete(id);
      }
      expect(index.size).toBe(naive.size);
    }
  });
});

describe('trigger index bulk load', () => {
  it('loads many at once in the same order as adding them one by one', () => {
    const triggers = [trigger('a', 'bid', 'above', 5), trigger('b', 'bid', 'above', 5), trigger('c', 'bid', 'above', 3), trigger('d', 'ask', 'below', 9)];
    const loaded = createTriggerIndex<string>();
    loaded.load(triggers);
    const added = createTriggerIndex<string>();
    for (const each of triggers) added.add(each);
    expect(loaded.fire(6, 8).map((each) => each.id)).toEqual(added.fire(6, 8).map((each) => each.id));
    expect(loaded.size).toBe(0);
  });
});
