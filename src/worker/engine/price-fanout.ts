import type { PriceTick } from '../../shared/api/market';

import type { PriceRow } from '../../shared/protocol/engine';

export type { PriceRow };

export function toPriceRow(tick: PriceTick): PriceRow {
  return [tick.symbol, tick.price, tick.bidPrice, tick.askPrice, tick.priceChangePercent, tick.low, tick.high, tick.volume, tick.lastUpdate];
}

/** Most rows a tab is sent in one batch; the rest follow in the next window. */
export const priceRowsPerBatchMax = 200;
/** Most symbols one tab may watch at once (rows on screen, hot cards, the open chart). */
export const watchedSymbolsPerTabMax = 500;

/**
 * Which tab watches which symbols, and what each tab has not yet been sent. Changes
 * pile up between flushes; a flush sends each tab only its watched symbols that
 * changed, once, however many ticks they had in between.
 */
export function createPriceFanout() {
  const watched = new Map<string, Set<string>>();
  const pending = new Map<string, Set<string>>();
  const watchers = new Map<string, number>();

  function adjust(symbol: string, delta: number) {
    const count = (watchers.get(symbol) ?? 0) + delta;
    if (count <= 0) watchers.delete(symbol);
    else watchers.set(symbol, count);
  }

  return {
    /** Replaces what a tab watches; newly watched symbols are sent at the next flush. */
    setWatched(clientId: string, symbols: readonly string[]) {
      const next = new Set(symbols.slice(0, watchedSymbolsPerTabMax));
      const previous = watched.get(clientId) ?? new Set<string>();
      for (const symbol of previous) if (!next.has(symbol)) adjust(symbol, -1);
      const queue = pending.get(clientId) ?? new Set<string>();
      for (const symbol of next) {
        if (!previous.has(symbol)) {
          adjust(symbol, 1);
          queue.add(symbol);
        }
      }
      for (const symbol of queue) if (!next.has(symbol)) queue.delete(symbol);
      watched.set(clientId, next);
      pending.set(clientId, queue);
    },
    removeClient(clientId: string) {
      for (const symbol of watched.get(clientId) ?? []) adjust(symbol, -1);
      watched.delete(clientId);
      pending.delete(clientId);
    },
    noteChanged(symbols: readonly string[]) {
      for (const [clientId, symbolsWatched] of watched) {
        const queue = pending.get(clientId);
        if (!queue) continue;
        for (const symbol of symbols) if (symbolsWatched.has(symbol)) queue.add(symbol);
      }
    },
    /** Takes each tab's due rows (at most the batch limit); tabs with nothing due are skipped. */
    drain(tickOf: (symbol: string) => PriceTick | undefined): Map<string, PriceRow[]> {
      const out = new Map<string, PriceRow[]>();
      for (const [clientId, queue] of pending) {
        if (queue.size === 0) continue;
        const rows: PriceRow[] = [];
        for (const symbol of queue) {
          if (rows.length >= priceRowsPerBatchMax) break;
          queue.delete(symbol);
          const tick = tickOf(symbol);
          if (tick) rows.push(toPriceRow(tick));
        }
        if (rows.length > 0) out.set(clientId, rows);
      }
      return out;
    },
    /** Some tab still has rows due (its last batch hit the limit, or it just started watching). */
    hasPending(): boolean {
      for (const queue of pending.values()) if (queue.size > 0) return true;
      return false;
    },
    isWatched(symbol: string): boolean {
      return watchers.has(symbol);
    },
    watchedSymbols(): string[] {
      return [...watchers.keys()];
    },
  };
}

export type PriceFanout = ReturnType<typeof createPriceFanout>;
