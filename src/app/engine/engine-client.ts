import * as Comlink from 'comlink';
import type { EngineApi, EngineKind, EngineWelcome } from '../../shared/protocol/engine';
import { logDebug } from '../debug/debug-log';
import { createEngineLink, type EngineCalls, type EngineEndpoint } from './engine-link';
import {
  adoptSession,
  applyEngineBatch,
  balanceSignal,
  engineKindSignal,
  marketSignal,
  optionsSignal,
  positionsSignal,
  resetBatchSequence,
} from './signals';
import type { KlinePeriod, WireBar } from '../../shared/market/kline';
import { createWatchRegistry, type WatchRegistry } from './watch-registry';

/** The charts this tab shows: history once, then the forming bar through `barSignal`. */
export interface KlineWatches {
  /**
   * Starts watching (counted per use) and answers up to 300 bars of history, oldest first.
   * `fromTicks`: the view draws only a price line, so the bar the watched prices form
   * suffices (no server kline topic for it).
   */
  watch(symbol: string, period: KlinePeriod, options?: { fromTicks?: boolean }): Promise<WireBar[]>;
  unwatch(symbol: string, period: KlinePeriod): void;
  /** The bars between two times (ms), asked of the engine (views never fetch market data themselves). */
  range(symbol: string, period: KlinePeriod, fromMs: number, toMs: number): Promise<WireBar[]>;
}

function createKlineWatches(remote: EngineCalls, clientId: string) {
  const uses = new Map<string, { symbol: string; period: KlinePeriod; count: number; fromTicks: boolean }>();
  const watches: KlineWatches = {
    watch(symbol, period, options = {}) {
      const key = `${symbol}|${period}`;
      const fromTicks = options.fromTicks === true;
      const entry = uses.get(key);
      if (entry) {
        entry.count += 1;
        // Once any use wants the server's bar, this tab's watch of the pair keeps it.
        entry.fromTicks &&= fromTicks;
      } else uses.set(key, { symbol, period, count: 1, fromTicks });
      return remote.watchKline(clientId, symbol, period, fromTicks);
    },
    unwatch(symbol, period) {
      const key = `${symbol}|${period}`;
      const entry = uses.get(key);
      if (!entry) return;
      entry.count -= 1;
      if (entry.count > 0) return;
      uses.delete(key);
      void remote.unwatchKline(clientId, symbol, period);
    },
    range(symbol, period, fromMs, toMs) {
      return remote.historyRange(symbol, period, fromMs, toMs);
    },
  };
  return {
    watches,
    /** After a new hello the engine has forgotten this tab's charts: watch them again. */
    resend() {
      for (const { symbol, period, fromTicks } of uses.values()) void remote.watchKline(clientId, symbol, period, fromTicks);
    },
  };
}

export type EngineRemote = EngineCalls;

/** A worker's port as an engine endpoint: Comlink over it, its error event as the failure. */
function workerEndpoint(port: Comlink.Endpoint, worker: { addEventListener(type: 'error', listener: () => void): void; terminate?: () => void }): EngineEndpoint {
  const calls = Comlink.wrap<EngineApi>(port);
  return {
    calls: calls as unknown as EngineCalls,
    onFailure: (handler) => worker.addEventListener('error', handler),
    close() {
      calls[Comlink.releaseProxy]();
      worker.terminate?.();
    },
  };
}

function openEngine(kind: EngineKind): EngineEndpoint | null {
  if (kind === 'shared') {
    if (typeof SharedWorker === 'undefined') return null;
    try {
      const worker = new SharedWorker(new URL('../../worker/hub/shared-worker.ts', import.meta.url), {
        type: 'module',
        name: 'tradeweb-engine',
      });
      worker.port.start();
      return workerEndpoint(worker.port, worker);
    } catch {
      // Some browsers expose SharedWorker but refuse module workers; use the fallback.
      return null;
    }
  }
  const worker = new Worker(new URL('../../worker/hub/dedicated-worker.ts', import.meta.url), {
    type: 'module',
    name: 'tradeweb-engine',
  });
  return workerEndpoint(worker, worker);
}

function newClientId(): string {
  return typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

/**
 * Connects this tab to the data engine: the ready handshake (with a fallback to a dedicated
 * worker when the shared one does not answer or dies), the heartbeat that keeps the tab
 * registered, the network's return and the tab's visibility told to the engine, and a
 * goodbye when the page goes away.
 */
export async function connectEngine(): Promise<{ remote: EngineRemote; welcome: EngineWelcome; watches: WatchRegistry; klines: KlineWatches }> {
  const clientId = newClientId();
  // What this tab shows, sent as one set; re-sent after a new hello (eviction, bfcache, another engine).
  const watches = createWatchRegistry((symbols, glance) => void link.calls.watchPrices(clientId, symbols, glance));
  // Whether this tab is seen: with none visible for a while the engine goes quiet (only the account's prices
  // stay live); shown again, a socket waiting to reconnect tries at once.
  const sendVisibility = () => void link.calls.setVisible(clientId, document.visibilityState === 'visible');
  const link = createEngineLink({
    open: openEngine,
    clientId,
    listener: applyEngineBatch,
    exposeListener: (listener) => Comlink.proxy(listener),
    timers: { setTimeout: (callback, ms) => setTimeout(callback, ms), clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>) },
    onWelcome(welcome) {
      resetBatchSequence();
      engineKindSignal.value = welcome.kind;
      marketSignal.value = welcome.market;
      adoptSession(welcome.session);
      const remote = link.calls;
      void remote.positions().then((state) => (positionsSignal.value = state));
      void remote.options().then((state) => (optionsSignal.value = state));
      // Only a known balance: null would wipe one a view has just loaded while the socket joins.
      void remote.balance().then((balance) => {
        if (balance) balanceSignal.value = balance;
      });
    },
    onReplaced() {
      sendVisibility();
      watches.resend();
      klines.resend();
    },
    log: logDebug,
  });
  const remote = link.calls;
  const klines = createKlineWatches(remote, clientId);
  const welcome = await link.start();
  sendVisibility();
  document.addEventListener('visibilitychange', sendVisibility);
  // The network is back: a socket waiting out its backoff tries now.
  window.addEventListener('online', () => void remote.connectivityHint());

  const heartbeat = setInterval(() => void link.heartbeat(welcome.heartbeatIntervalMs), welcome.heartbeatIntervalMs);

  window.addEventListener('pagehide', (event) => {
    // A page kept in the back/forward cache comes back; it says hello again on pageshow.
    void remote.goodbye(clientId);
    if (!event.persisted) clearInterval(heartbeat);
  });
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) void link.heartbeat(welcome.heartbeatIntervalMs);
  });

  return { remote, welcome, watches, klines: klines.watches };
}
