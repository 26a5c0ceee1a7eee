import type { PriceTick } from '../../shared/api/market';
import type { KlinePeriod, WireBar } from '../../shared/market/kline';
import { initialMarketSnapshot, type MarketSnapshot, type PriceRow } from '../../shared/protocol/engine';
import { createKlineAggregator, seriesKey } from './kline-aggregator';
import type { Clock, Timers } from './ports';
import { createPriceFanout } from './price-fanout';
import type { ConnectionState } from './reconnect-policy';
import { createStalenessMonitor, stalenessCheckEveryMs } from './staleness';
import { createTickStore } from './tick-store';

/** The socket as the feed sees it; the worker gives it a STOMP client, tests a fake. */
export interface MarketConnection {
  start(): void;
  restart(): void;
  stop(): Promise<void>;
  /** Follows the server's forming bar of (symbol, period) (its `/topic/kline/{symbol}/{period}`), across reconnections. */
  watchKline(symbol: string, period: KlinePeriod): void;
  unwatchKline(symbol: string, period: KlinePeriod): void;
}

export type MarketConnectionFactory = (handlers: {
  onPrices: (ticks: PriceTick[]) => void;
  onState: (state: ConnectionState) => void;
  /** The server's forming bar of a watched (symbol, period). */
  onBar: (symbol: string, period: KlinePeriod, bar: WireBar) => void;
}) => MarketConnection;

/**
 * The live-price half of the engine: ticks into the store, staleness, the connection's
 * state, and on every batch window each tab's changed rows. Pure but for the injected
 * connection, clock and timers.
 */
export function createMarketFeed(options: {
  clock: Clock;
  timers: Timers;
  batchWindowMs: number;
  connect: MarketConnectionFactory;
  sendRows: (clientId: string, rows: PriceRow[]) => void;
  sendBar: (clientId: string, update: { symbol: string; period: KlinePeriod; bar: WireBar }) => void;
  onSnapshot: (snapshot: MarketSnapshot) => void;
  /** Up to 300 bars of history, oldest first (the market API). */
  fetchHistory: (symbol: string, period: KlinePeriod) => Promise<WireBar[]>;
}) {
  const store = createTickStore();
  const fanout = createPriceFanout();
  const klines = createKlineAggregator();
  /** Who watches each (symbol, period), the bars changed since the last flush, and cached history. */
  const klineWatchers = new Map<string, { symbol: string; period: KlinePeriod; clients: Set<string> }>();
  const changedBars = new Set<string>();
  const historyCache = new Map<string, Promise<WireBar[]>>();

  function dropKlineWatch(clientId: string, key: string) {
    const entry = klineWatchers.get(key);
    if (!entry) return;
    entry.clients.delete(clientId);
    if (entry.clients.size === 0) {
      klineWatchers.delete(key);
      klines.unwatch(entry.symbol, entry.period);
      connection.unwatchKline(entry.symbol, entry.period);
      historyCache.delete(key);
    }
  }
  let snapshot: MarketSnapshot = initialMarketSnapshot;

  function update(change: Partial<MarketSnapshot>) {
    const next = { ...snapshot, ...change };
    if (Object.keys(change).every((key) => next[key as keyof MarketSnapshot] === snapshot[key as keyof MarketSnapshot])) return;
    snapshot = next;
    options.onSnapshot(snapshot);
  }

  const staleness = createStalenessMonitor({ clock: options.clock, onChange: (stale) => update({ stale }) });

  const connection = options.connect({
    onPrices(ticks) {
      staleness.noteData();
      fanout.noteChanged(store.ingest(ticks));
      if (klineWatchers.size > 0) for (const tick of ticks) for (const key of klines.ingest(tick)) changedBars.add(key);
      if (!snapshot.ready || snapshot.symbolCount !== store.size) update({ ready: true, symbolCount: store.size });
      firstPendingAtMs ??= options.clock.nowMs();
      scheduleFlush();
    },
    onState(state) {
      update({ status: state.status, gaveUp: state.gaveUp });
    },
    onBar(symbol, period, bar) {
      const key = klines.adopt(symbol, period, bar);
      if (key === null) return;
      changedBars.add(key);
      firstPendingAtMs ??= options.clock.nowMs();
      scheduleFlush();
    },
  });

  /**
   * Sends each tab its due rows and bars, throttled with a leading edge: prices that
   * arrive a window or more after the last flush go out at once, earlier ones wait for
   * the window's end. A flush counts from when its oldest data arrived, not from when
   * it ran: otherwise a flush that once had to wait (a scroll, a late batch) would set a
   * phase that delays every later batch of a feed on the same cadence as the window.
   */
  let lastFlushMs = Number.NEGATIVE_INFINITY;
  /** When the first prices not yet flushed arrived. */
  let firstPendingAtMs: number | null = null;
  let pendingFlush: unknown = null;
  let stopped = false;

  function flush() {
    pendingFlush = null;
    let sent = false;
    for (const [clientId, rows] of fanout.drain((symbol) => store.get(symbol))) {
      options.sendRows(clientId, rows);
      sent = true;
    }
    for (const key of changedBars) {
      const entry = klineWatchers.get(key);
      const bar = klines.bar(key);
      if (!entry || !bar) continue;
      for (const clientId of entry.clients) options.sendBar(clientId, { symbol: entry.symbol, period: entry.period, bar });
      sent = true;
    }
    changedBars.clear();
    // Only a flush that sent something opens a new window.
    if (sent) lastFlushMs = firstPendingAtMs ?? options.clock.nowMs();
    firstPendingAtMs = null;
    // A tab's batch is capped; what is left over goes in the next window.
    if (fanout.hasPending()) scheduleFlush();
  }

  function scheduleFlush() {
    if (pendingFlush !== null || stopped) return;
    const waitMs = lastFlushMs + options.batchWindowMs - options.clock.nowMs();
    if (waitMs <= 0) flush();
    else pendingFlush = options.timers.setTimeout(flush, waitMs);
  }

  const staleTimer = options.timers.setInterval(() => staleness.check(), stalenessCheckEveryMs);
  connection.start();

  return {
    get snapshot() {
      return snapshot;
    },
    watch(clientId: string, symbols: readonly string[]) {
      fanout.setWatched(clientId, symbols);
      // Rows that scrolled into view show their price without waiting for a tick.
      scheduleFlush();
    },
    forget(clientId: string) {
      fanout.removeClient(clientId);
      for (const key of [...klineWatchers.keys()]) dropKlineWatch(clientId, key);
    },
    /** History for a chart (one request per browser per pair), then the live bar by push. */
    async watchKline(clientId: string, symbol: string, period: KlinePeriod): Promise<WireBar[]> {
      const key = seriesKey(symbol, period);
      let history = historyCache.get(key);
      if (!history) {
        history = options.fetchHistory(symbol, period);
        historyCache.set(key, history);
        history.catch(() => historyCache.delete(key));
      }
      const bars = await history;
      const entry = klineWatchers.get(key);
      if (entry) entry.clients.add(clientId);
      else {
        klineWatchers.set(key, { symbol, period, clients: new Set([clientId]) });
        klines.watch(symbol, period, bars.at(-1) ?? null);
        connection.watchKline(symbol, period);
      }
      const live = klines.bar(key);
      return live && bars.at(-1)?.time !== live.time ? [...bars, live] : live ? [...bars.slice(0, -1), live] : bars;
    },
    unwatchKline(clientId: string, symbol: string, period: KlinePeriod) {
      dropKlineWatch(clientId, seriesKey(symbol, period));
    },
    watchedPairs(): number {
      return klineWatchers.size;
    },
    reconnect() {
      connection.restart();
    },
    watchedCount(): number {
      return fanout.watchedSymbols().length;
    },
    async stop() {
      stopped = true;
      if (pendingFlush !== null) options.timers.clearTimeout(pendingFlush);
      options.timers.clearInterval(staleTimer);
      await connection.stop();
    },
  };
}

export type MarketFeed = ReturnType<typeof createMarketFeed>;
