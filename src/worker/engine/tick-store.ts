import type { PriceTick } from '../../shared/api/market';
import { decimalCount, DecodedTicks, tickOfDecimals } from '../../shared/market/binary-ticks';

/** What the socket hands over: tick objects (JSON bodies, the relay), or a binary body's decoded ticks (read before the next body). */
export type PriceBatch = readonly PriceTick[] | DecodedTicks;

export const batchSymbol = (batch: PriceBatch, index: number) => (batch instanceof DecodedTicks ? batch.symbol(index) : batch[index]!.symbol);
/** The time of the batch's `index`-th tick (the ingest bench's lag). */
export const batchLastUpdate = (batch: PriceBatch, index: number) => (batch instanceof DecodedTicks ? batch.slots.times[batch.slot(index)]! : batch[index]!.lastUpdate);
export const batchTick = (batch: PriceBatch, index: number) => (batch instanceof DecodedTicks ? batch.tick(index) : batch[index]!);
/** The batch as tick objects (what crosses to another thread or engine). */
export const batchTicks = (batch: PriceBatch): readonly PriceTick[] => (batch instanceof DecodedTicks ? batch.ticks() : batch);

/** A symbol's latest tick: its decimals as the decoder gave them, the object made only when read. */
interface StoredTick {
  symbol: string;
  name: string;
  type: PriceTick['type'];
  lastUpdate: number;
  units: Float64Array;
  scales: Float64Array;
  /** A decimal's string where one came; undefined where it is read from units. */
  texts: (string | undefined)[];
  /** The tick as an object, once read (until the next tick). */
  tick: PriceTick | null;
  /** The connection that brought it (the store's count of them). */
  connection: number;
}

/** Where a tick object's decimals go, in the decoder's order of them. */
const tickTexts = (tick: PriceTick) => [tick.bidPrice, tick.askPrice, tick.volume, tick.priceChangePercent, tick.low, tick.high, tick.price];

/**
 * The latest tick of every symbol. Ingesting a batch answers which symbols changed, so
 * that only those travel on to the tabs; an older tick never replaces a newer one of the
 * same connection. A new connection's first tick of a symbol replaces whatever the last one
 * left, however it is dated: the server behind it may have restarted, or be another
 * process, and an earlier connection's date must not hold its prices back.
 *
 * Decoded binary ticks are copied as units (no string, no object a tick): a tick's object
 * is made when something reads it (a tab's row, a chart), at most once per tick kept.
 */
export function createTickStore() {
  const ticks = new Map<string, StoredTick>();
  let connection = 0;

  /** The stored record of `symbol` if a tick of `lastUpdate` may replace it (a new one where none is), else null. */
  function accepting(symbol: string, lastUpdate: number): StoredTick | null {
    const current = ticks.get(symbol);
    if (!current) {
      const created: StoredTick = {
        symbol, name: '', type: 'Cryptos', lastUpdate, units: new Float64Array(decimalCount), scales: new Float64Array(decimalCount), texts: [], tick: null, connection,
      };
      ticks.set(symbol, created);
      return created;
    }
    if (current.lastUpdate > lastUpdate && current.connection === connection) return null;
    return current;
  }

  function read(stored: StoredTick): PriceTick {
    return (stored.tick ??= tickOfDecimals(stored, stored.texts, stored.units, stored.scales));
  }

  return {
    ingest(batch: PriceBatch): string[] {
      const changed: string[] = [];
      if (batch instanceof DecodedTicks) {
        const { slots } = batch;
        for (let index = 0; index < batch.length; index += 1) {
          const slot = batch.slot(index);
          const entry = slots.entries[slot]!;
          const stored = accepting(entry.symbol, slots.times[slot]!);
          if (!stored) continue;
          stored.name = entry.name;
          stored.type = entry.type;
          stored.lastUpdate = slots.times[slot]!;
          stored.connection = connection;
          stored.tick = null;
          const at = slot * decimalCount;
          for (let field = 0; field < decimalCount; field += 1) {
            stored.units[field] = slots.units[at + field]!;
            stored.scales[field] = slots.scales[at + field]!;
            stored.texts[field] = slots.texts[at + field];
          }
          changed.push(entry.symbol);
        }
        return changed;
      }
      for (const tick of batch) {
        const stored = accepting(tick.symbol, tick.lastUpdate);
        if (!stored) continue;
        stored.name = tick.name;
        stored.type = tick.type;
        stored.lastUpdate = tick.lastUpdate;
        stored.connection = connection;
        stored.texts = tickTexts(tick);
        stored.tick = tick;
        changed.push(tick.symbol);
      }
      return changed;
    },
    /** The socket opened again: what it brings is compared only with what it brought. */
    newConnection() {
      connection += 1;
    },
    get(symbol: string): PriceTick | undefined {
      const stored = ticks.get(symbol);
      return stored ? read(stored) : undefined;
    },
    /** Forgets symbols whose prices are no longer followed (their last tick is no longer current). */
    forget(symbols: Iterable<string>) {
      for (const symbol of symbols) ticks.delete(symbol);
    },
    symbols(): string[] {
      return [...ticks.keys()];
    },
    all(): PriceTick[] {
      return [...ticks.values()].map(read);
    },
    get size() {
      return ticks.size;
    },
  };
}

export type TickStore = ReturnType<typeof createTickStore>;
