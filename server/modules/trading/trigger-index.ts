/**
 * Price triggers of one symbol: stop loss, take profit and pending (limit) orders, each
 * waiting for the bid or the ask to cross a level upwards or downwards. Each of the four
 * books is kept sorted with the next level to fire at its end, so a tick costs a
 * comparison per trigger that fires plus one that does not: O(log n + fired) with the
 * binary-searched inserts and removals, never a scan of every open order.
 */
export type PriceSide = 'bid' | 'ask';
/** 'above': fires when the price reaches the level or more; 'below': the level or less. */
export type Crossing = 'above' | 'below';

export interface Trigger<T> {
  id: string;
  side: PriceSide;
  crossing: Crossing;
  /** The level in price units (fixed-point integer of the product's precision). */
  level: number;
  payload: T;
}

interface Book<T> {
  /** 'above' books hold levels descending (lowest last); 'below' ascending (highest last). */
  entries: Trigger<T>[];
  crossing: Crossing;
}

function newBook<T>(crossing: Crossing): Book<T> {
  return { entries: [], crossing };
}

/** Where `level` goes so that the book stays ordered (after equal levels: first in, first out). */
function insertionIndex<T>(book: Book<T>, level: number): number {
  let low = 0;
  let high = book.entries.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const other = book.entries[middle]!.level;
    // Equal levels go before the existing ones, so that the oldest sits nearer the end and fires first.
    const goesAfter = book.crossing === 'above' ? other > level : other < level;
    if (goesAfter) low = middle + 1;
    else high = middle;
  }
  return low;
}

export function createTriggerIndex<T>() {
  const books = {
    bid: { above: newBook<T>('above'), below: newBook<T>('below') },
    ask: { above: newBook<T>('above'), below: newBook<T>('below') },
  };
  const byId = new Map<string, Trigger<T>>();

  function bookOf(trigger: Pick<Trigger<T>, 'side' | 'crossing'>): Book<T> {
    return books[trigger.side][trigger.crossing];
  }

  return {
    /** Adds many at once (open orders at start), sorting each book once instead of inserting one by one. */
    load(triggers: readonly Trigger<T>[]) {
      for (const trigger of triggers) {
        if (byId.has(trigger.id)) throw new Error(`trigger ${trigger.id} exists`);
        byId.set(trigger.id, trigger);
        bookOf(trigger).entries.push(trigger);
      }
      for (const side of ['bid', 'ask'] as const) {
        for (const crossing of ['above', 'below'] as const) {
          const book = books[side][crossing];
          const order = new Map(book.entries.map((trigger, position) => [trigger, position]));
          // The next to fire goes last; among equal levels the earlier added fires first.
          book.entries.sort((a, b) => (crossing === 'above' ? b.level - a.level : a.level - b.level) || order.get(b)! - order.get(a)!);
        }
      }
    },
    add(trigger: Trigger<T>) {
      if (byId.has(trigger.id)) throw new Error(`trigger ${trigger.id} exists`);
      const book = bookOf(trigger);
      book.entries.splice(insertionIndex(book, trigger.level), 0, trigger);
      byId.set(trigger.id, trigger);
    },
    remove(id: string): boolean {
      const trigger = byId.get(id);
      if (!trigger) return false;
      const book = bookOf(trigger);
      // Binary search to the first entry at this level, then step over equal levels.
      let index = insertionIndex(book, trigger.level);
      while (index < book.entries.length && book.entries[index] !== trigger) index += 1;
      if (book.entries[index] === trigger) book.entries.splice(index, 1);
      byId.delete(id);
      return true;
    },
    /** Takes out and answers every trigger the new prices cross, in firing order. */
    fire(bid: number, ask: number): Trigger<T>[] {
      const fired: Trigger<T>[] = [];
      for (const side of ['bid', 'ask'] as const) {
        const price = side === 'bid' ? bid : ask;
        const above = books[side].above.entries;
        while (above.length > 0 && above[above.length - 1]!.level <= price) fired.push(above.pop()!);
        const below = books[side].below.entries;
        while (below.length > 0 && below[below.length - 1]!.level >= price) fired.push(below.pop()!);
      }
      for (const trigger of fired) byId.delete(trigger.id);
      return fired;
    },
    has: (id: string) => byId.has(id),
    get size() {
      return byId.size;
    },
  };
}

export type TriggerIndex<T> = ReturnType<typeof createTriggerIndex<T>>;
