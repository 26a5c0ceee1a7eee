import type { PriceTick } from '../../shared/api/market';

/**
 * The latest tick of every symbol. Ingesting a batch answers which symbols changed, so
 * that only those travel on to the tabs; an older tick never replaces a newer one of the
 * same connection. A new connection's first tick of a symbol replaces whatever the last one
 * left, however it is dated: the server behind it may have restarted, or be another
 * process, and an earlier connection's date must not hold its prices back.
 */
export function createTickStore() {
  const ticks = new Map<string, PriceTick>();
  /** The symbols the current connection has brought. */
  const fromThisConnection = new Set<string>();
  return {
    ingest(batch: readonly PriceTick[]): string[] {
      const changed: string[] = [];
      for (const tick of batch) {
        const current = ticks.get(tick.symbol);
        if (current && current.lastUpdate > tick.lastUpdate && fromThisConnection.has(tick.symbol)) continue;
        ticks.set(tick.symbol, tick);
        fromThisConnection.add(tick.symbol);
        changed.push(tick.symbol);
      }
      return changed;
    },
    /** The socket opened again: what it brings is compared only with what it brought. */
    newConnection() {
      fromThisConnection.clear();
    },
    get(symbol: string): PriceTick | undefined {
      return ticks.get(symbol);
    },
    /** Forgets symbols whose prices are no longer followed (their last tick is no longer current). */
    forget(symbols: Iterable<string>) {
      for (const symbol of symbols) {
        ticks.delete(symbol);
        fromThisConnection.delete(symbol);
      }
    },
    symbols(): string[] {
      return [...ticks.keys()];
    },
    all(): PriceTick[] {
      return [...ticks.values()];
    },
    get size() {
      return ticks.size;
    },
  };
}

export type TickStore = ReturnType<typeof createTickStore>;
