import type { PriceTick } from '../../shared/api/market';

/**
 * The latest tick of every symbol. Ingesting a batch answers which symbols changed, so
 * that only those travel on to the tabs; an older tick never replaces a newer one.
 */
export function createTickStore() {
  const ticks = new Map<string, PriceTick>();
  return {
    ingest(batch: readonly PriceTick[]): string[] {
      const changed: string[] = [];
      for (const tick of batch) {
        const current = ticks.get(tick.symbol);
        if (current && current.lastUpdate > tick.lastUpdate) continue;
        ticks.set(tick.symbol, tick);
        changed.push(tick.symbol);
      }
      return changed;
    },
    get(symbol: string): PriceTick | undefined {
      return ticks.get(symbol);
    },
    /** Forgets symbols whose prices are no longer followed (their last tick is no longer current). */
    forget(symbols: Iterable<string>) {
      for (const symbol of symbols) ticks.delete(symbol);
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
