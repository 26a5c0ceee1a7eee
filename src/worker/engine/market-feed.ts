import type { KlinePeriod, WireBar } from '../../shared/market/kline';
import { initialMarketSnapshot, type MarketSnapshot, type PriceRow } from '../../shared/protocol/engine';
import { createKlineAggregator, seriesKey } from './kline-aggregator';
import type { Clock, Timers } from './ports';
import { createPriceFanout } from './price-fanout';
import { createPriceSubscriptions, type PriceSelection } from './price-subscriptions';
import type { ConnectionState } from './reconnect-policy';
import { createStalenessMonitor, stalenessCheckEveryMs } from './staleness';
import { batchSymbol, batchTick, createTickStore, type PriceBatch } from './tick-store';

/** The socket as the feed sees it; the worker gives it a STOMP client, tests a fake. */
export interface MarketConnection {
  start(): void;
  restart(): void;
  /** Waiting between reconnection attempts: try now, the count from the start (an open or opening connection is left alone). */
  tryNowIfWaiting(): void;
  stop(): Promise<void>;
  /** Follows the server's forming bar of (symbol, period) (its `/topic/kline/{symbol}/{period}`), across reconnections. */
  watchKline(symbol: string, period: KlinePeriod): void;
  unwatchKline(symbol: string, period: KlinePeriod): void;
  /** Follows these prices (per-symbol topics or the all-prices topic), across reconnections. */
  followPrices(selection: PriceSelection): void;
}

export type MarketConnectionFactory = (handlers: {
  /** `glance`: from a glance topic, held to one a second per symbol by the server. A binary body's decoded ticks are read before the call returns. */
  onPrices: (ticks: PriceBatch, glance?: boolean) => void;
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
  /** Tells every tab that these symbols' prices are no longer followed (show them as unknown, not as current). */
  sendExpired?: (symbols: string[]) => void;
  /** The quiet engine's wait with no tab visible (default 60 s). */
  quietAfterMs?: number;
  /** Follow every symbol whatever the tabs show, never quiet (the earlier behaviour). */
  followAllPrices?: boolean;
  /** The quiet engine starts (true) or ends (false): what else the engine follows can slow down too. */
  onQuiet?: (quiet: boolean) => void;
}) {
  const store = createTickStore();
  const fanout = createPriceFanout();
  const klines = createKlineAggregator();
  /**
   * Who watches each (symbol, period), each tab with whether it shows the server's bar (the
   * real volume: a chart) or only the price line ticks draw (a sparkline); whether the
   * socket follows the pair's kline topic (some tab wants the server's bar); the bars
   * changed since the last flush, and cached history.
   */
  const klineWatchers = new Map<string, { symbol: string; period: KlinePeriod; clients: Map<string, boolean>; serverBars: boolean }>();
  const changedBars = new Set<string>();
  const historyCache = new Map<string, Promise<WireBar[]>>();

  function dropKlineWatch(clientId: string, key: string) {
    const entry = klineWatchers.get(key);
    if (!entry) return;
    entry.clients.delete(clientId);
    if (entry.clients.size === 0) {
      klineWatchers.delete(key);
      klines.unwatch(entry.symbol, entry.period);
      if (entry.serverBars) connection.unwatchKline(entry.symbol, entry.period);
      historyCache.delete(key);
      return;
    }
    followServerBars(entry);
  }

  /** The pair's kline topic is followed while some tab shows the server's bar, and only then. */
  function followServerBars(entry: { symbol: string; period: KlinePeriod; clients: Map<string, boolean>; serverBars: boolean }) {
    const wanted = [...entry.clients.values()].some(Boolean);
    if (wanted === entry.serverBars) return;
    entry.serverBars = wanted;
    if (wanted) connection.watchKline(entry.symbol, entry.period);
    else connection.unwatchKline(entry.symbol, entry.period);
  }
  let snapshot: MarketSnapshot = initialMarketSnapshot;

  function update(change: Partial<MarketSnapshot>) {
    const next = { ...snapshot, ...change };
    if (Object.keys(change).every((key) => next[key as keyof MarketSnapshot] === snapshot[key as keyof MarketSnapshot])) return;
    snapshot = next;
    options.onSnapshot(snapshot);
  }

  /** The socket has been open once: from then on, a closed one means the prices shown are old. */
  let everOpen = false;
  /** Stale: silent for 10 s while prices moved, or without a connection (nothing can arrive). */
  const isStale = (status: MarketSnapshot['status']) => staleness.stale || (everOpen && status !== 'open');
  const staleness = createStalenessMonitor({ clock: options.clock, onChange: () => update({ stale: isStale(snapshot.status) }) });
  /** The most symbols the all-prices topic has brought: how many the market has, as far as the engine knows. */
  let knownSymbolCount = 0;

  const subscriptions = createPriceSubscriptions({
    clock: options.clock,
    timers: options.timers,
    ...(options.quietAfterMs !== undefined ? { quietAfterMs: options.quietAfterMs } : {}),
    onQuiet: (quiet) => {
      if (!options.followAllPrices) options.onQuiet?.(quiet);
    },
    apply(selection) {
      if (options.followAllPrices) return;
      connection.followPrices(selection);
      staleness.expect(selection.all || selection.symbols.length > 0);
      if (selection.all) return;
      // What is no longer followed would soon be an old price shown as current: forget it here and in the tabs.
      const kept = new Set(selection.symbols);
      const expired = store.symbols().filter((symbol) => !kept.has(symbol));
      if (expired.length === 0) return;
      store.forget(expired);
      options.sendExpired?.(expired);
    },
  });

  const connection = options.connect({
    onPrices(ticks, glance) {
      // Once the feed is known to move, the symbols are not needed (nor their array, at every batch).
      staleness.noteData(staleness.moving ? undefined : Array.from({ length: ticks.length }, (_, index) => batchSymbol(ticks, index)));
      fanout.noteChanged(store.ingest(ticks));
      // A chart's bar takes every tick of its symbol (its high and low), made an object only for the symbols charted.
      if (klineWatchers.size > 0)
        for (let index = 0; index < ticks.length; index += 1) {
          if (!klines.follows(batchSymbol(ticks, index))) continue;
          for (const key of klines.ingest(batchTick(ticks, index))) changedBars.add(key);
        }
      if (subscriptions.selection.all && store.size > knownSymbolCount) {
        knownSymbolCount = store.size;
        subscriptions.setKnownSymbolCount(knownSymbolCount);
      }
      if (!snapshot.ready || snapshot.symbolCount !== store.size) update({ ready: true, symbolCount: store.size });
      firstPendingAtMs ??= options.clock.nowMs();
      scheduleFlush(glance === true);
    },
    onState(state) {
      if (state.status === 'open' && snapshot.status !== 'open') store.newConnection();
      everOpen ||= state.status === 'open';
      // Ready once the socket is open: with per-symbol topics no price may come before a tab asks for one.
      update({
        status: state.status,
        connectionFailed: state.connectionFailed,
        retryAtMs: state.retryAtMs,
        stale: isStale(state.status),
        ...(state.status === 'open' ? { ready: true } : {}),
      });
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
   * arrive a window or more after the last flush go out at once (once the messages that
   * came with them are read), earlier ones wait for the window's end. A flush counts from when its oldest data arrived, not from when
   * it ran: otherwise a flush that once had to wait (a scroll, a late batch) would set a
   * phase that delays every later batch of a feed on the same cadence as the window.
   */
  let lastFlushMs = Number.NEGATIVE_INFINITY;
  /** When the first prices not yet flushed arrived. */
  let firstPendingAtMs: number | null = null;
  let pendingFlush: unknown = null;
  /** When the scheduled flush runs, and whether it was brought forward for a glance. */
  let pendingFlushAtMs = Number.POSITIVE_INFINITY;
  let pendingFlushExpedited = false;
  let stopped = false;

  function flush() {
    const expedited = pendingFlushExpedited;
    pendingFlush = null;
    pendingFlushAtMs = Number.POSITIVE_INFINITY;
    pendingFlushExpedited = false;
    let sent = false;
    for (const [clientId, rows] of fanout.drain((symbol) => store.get(symbol))) {
      options.sendRows(clientId, rows);
      sent = true;
    }
    for (const key of changedBars) {
      const entry = klineWatchers.get(key);
      const bar = klines.bar(key);
      if (!entry || !bar) continue;
      for (const clientId of entry.clients.keys()) options.sendBar(clientId, { symbol: entry.symbol, period: entry.period, bar });
      sent = true;
    }
    changedBars.clear();
    // Only a flush that sent something opens a new window; a glance's flush leaves the
    // window where it was, so the every-tick rows behind it keep their cadence.
    if (sent && !expedited) lastFlushMs = firstPendingAtMs ?? options.clock.nowMs();
    firstPendingAtMs = null;
    // A tab's batch is capped; what is left over goes in the next window.
    if (fanout.hasPending()) scheduleFlush();
  }

  /**
   * The leading edge waits for the messages already queued behind this one: per-symbol
   * topics (a glance burst: several symbols published at one server flush) arrive as a
   * frame each, and flushing on the first would hold the rest for a whole window.
   * `expedite`: a glance goes out at once even inside a window. The server already holds
   * each glanced symbol to one message a second, and a window kept busy by an every-tick
   * symbol (an open chart) would otherwise hold every list row for up to a window.
   */
  function scheduleFlush(expedite = false) {
    if (stopped) return;
    const nowMs = options.clock.nowMs();
    const dueAtMs = expedite ? nowMs : Math.max(nowMs, lastFlushMs + options.batchWindowMs);
    if (pendingFlush !== null) {
      if (dueAtMs >= pendingFlushAtMs) return;
      options.timers.clearTimeout(pendingFlush);
    }
    pendingFlushAtMs = dueAtMs;
    pendingFlushExpedited = expedite;
    pendingFlush = options.timers.setTimeout(flush, dueAtMs - nowMs);
  }

  const staleTimer = options.timers.setInterval(() => staleness.check(), stalenessCheckEveryMs);
  if (options.followAllPrices) connection.followPrices({ all: true });
  connection.start();

  return {
    get snapshot() {
      return snapshot;
    },
    /** What a tab shows; `glance`: those of them it does not need at every tick. */
    watch(clientId: string, symbols: readonly string[], glance: readonly string[] = []) {
      fanout.setWatched(clientId, symbols);
      subscriptions.setTab(clientId, symbols, glance);
      // Rows that scrolled into view show their price without waiting for a tick.
      scheduleFlush();
    },
    /** Whether a tab is visible (the quiet engine waits for none to be). */
    setVisible(clientId: string, visible: boolean) {
      subscriptions.setVisible(clientId, visible);
    },
    /** The symbols of open positions and running options, which stay live even when no tab is visible. */
    setAccountSymbols(symbols: Iterable<string>) {
      subscriptions.setAccountSymbols(symbols);
    },
    get priceSelection(): PriceSelection {
      return subscriptions.selection;
    },
    get quiet(): boolean {
      return subscriptions.quiet;
    },
    forget(clientId: string) {
      fanout.removeClient(clientId);
      subscriptions.removeTab(clientId);
      for (const key of [...klineWatchers.keys()]) dropKlineWatch(clientId, key);
    },
    /**
     * History for a chart (one request per browser per pair), then the live bar by push.
     * `fromTicks`: the tab draws only a price line (a sparkline), so the bar its ticks form
     * suffices and the server's kline topic (its real volume, every flush) is not followed for it.
     */
    async watchKline(clientId: string, symbol: string, period: KlinePeriod, fromTicks = false): Promise<WireBar[]> {
      const key = seriesKey(symbol, period);
      let history = historyCache.get(key);
      if (!history) {
        // Never rejects: a failed history answers no bars (transport/market-history.ts).
        history = options.fetchHistory(symbol, period);
        historyCache.set(key, history);
      }
      const bars = await history;
      let entry = klineWatchers.get(key);
      if (!entry) {
        entry = { symbol, period, clients: new Map(), serverBars: false };
        klineWatchers.set(key, entry);
        klines.watch(symbol, period, bars.at(-1) ?? null);
      }
      // A tab watching the pair both ways (a chart and a sparkline) wants the server's bar.
      entry.clients.set(clientId, entry.clients.get(clientId) === true || !fromTicks);
      followServerBars(entry);
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
    /** The network is back or a tab shows: a socket waiting to reconnect tries now. */
    retryNow() {
      connection.tryNowIfWaiting();
    },
    watchedCount(): number {
      return fanout.watchedSymbols().length;
    },
    async stop() {
      stopped = true;
      subscriptions.stop();
      if (pendingFlush !== null) options.timers.clearTimeout(pendingFlush);
      options.timers.clearInterval(staleTimer);
      await connection.stop();
    },
  };
}

export type MarketFeed = ReturnType<typeof createMarketFeed>;
