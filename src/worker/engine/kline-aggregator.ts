import type { PriceTick } from '../../shared/api/market';
import { decimalToUnits } from '../../shared/market/decimal';
import { foldTick, fromWireBar, toWireBar, type Bar, type KlinePeriod, type WireBar } from '../../shared/market/kline';

const decimals = (value: string) => (value.split('.')[1] ?? '').length;
const toUnits = (value: string, precision: number) => decimalToUnits(value, precision) ?? 0;

export interface WatchedSeries {
  symbol: string;
  period: KlinePeriod;
  precision: number;
  bar: Bar | null;
}

export const seriesKey = (symbol: string, period: KlinePeriod) => `${symbol}|${period}`;

/**
 * Forms the live bar of every (symbol, period) some tab watches, after seeding it with the
 * last bar of the history. The server's forming bar (its kline topic) is the truth: it
 * carries the real volume and replaces ours whenever it comes. Ticks in between only move
 * the price: a quote is not a trade, so it adds no volume (counting each as 1 made VOL
 * jump on reload, when stored bars came back with the real figure). Pairs nobody watches
 * cost nothing.
 */
export function createKlineAggregator() {
  const series = new Map<string, WatchedSeries>();
  const bySymbol = new Map<string, Set<string>>();

  return {
    watch(symbol: string, period: KlinePeriod, lastBar: WireBar | null, precisionHint = 2) {
      const key = seriesKey(symbol, period);
      const precision = lastBar ? decimals(lastBar.closePrice) : precisionHint;
      const bar: Bar | null = lastBar ? fromWireBar(lastBar, precision) : null;
      series.set(key, { symbol, period, precision, bar });
      const keys = bySymbol.get(symbol) ?? new Set<string>();
      keys.add(key);
      bySymbol.set(symbol, keys);
    },
    unwatch(symbol: string, period: KlinePeriod) {
      const key = seriesKey(symbol, period);
      series.delete(key);
      const keys = bySymbol.get(symbol);
      keys?.delete(key);
      if (keys && keys.size === 0) bySymbol.delete(symbol);
    },
    /** Whether some series of `symbol` is watched (its ticks are worth folding). */
    follows(symbol: string): boolean {
      return bySymbol.has(symbol);
    },
    /** Folds a tick's price into the watched series of its symbol; answers the keys that changed. */
    ingest(tick: PriceTick): string[] {
      const keys = bySymbol.get(tick.symbol);
      if (!keys) return [];
      for (const key of keys) {
        const entry = series.get(key);
        if (!entry) continue;
        const price = toUnits(tick.price, entry.precision);
        entry.bar = foldTick(entry.bar, entry.period, tick.lastUpdate, price, 0);
      }
      return [...keys];
    },
    /**
     * The server's forming bar of a watched series: replaces ours (OHLC and volume) unless
     * it is older than the bar we already have. Answers the key when it changed a series.
     */
    adopt(symbol: string, period: KlinePeriod, serverBar: WireBar): string | null {
      const key = seriesKey(symbol, period);
      const entry = series.get(key);
      if (!entry || (entry.bar && serverBar.time < entry.bar.time)) return null;
      entry.bar = fromWireBar(serverBar, entry.precision);
      return key;
    },
    bar(key: string): WireBar | null {
      const entry = series.get(key);
      return entry?.bar ? toWireBar(entry.bar, entry.precision) : null;
    },
    get watchedCount() {
      return series.size;
    },
  };
}
