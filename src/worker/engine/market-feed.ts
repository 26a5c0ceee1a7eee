import type { PriceTick } from '../../shared/api/market';
import { initialMarketSnapshot, type MarketSnapshot, type PriceRow } from '../../shared/protocol/engine';
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
}

export type MarketConnectionFactory = (handlers: {
  onPrices: (ticks: PriceTick[]) => void;
  onState: (state: ConnectionState) => void;
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
  onSnapshot: (snapshot: MarketSnapshot) => void;
}) {
  const store = createTickStore();
  const fanout = createPriceFanout();
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
      if (!snapshot.ready || snapshot.symbolCount !== store.size) update({ ready: true, symbolCount: store.size });
    },
    onState(state) {
      update({ status: state.status, gaveUp: state.gaveUp });
    },
  });

  const flushTimer = options.timers.setInterval(() => {
    for (const [clientId, rows] of fanout.drain((symbol) => store.get(symbol))) options.sendRows(clientId, rows);
  }, options.batchWindowMs);
  const staleTimer = options.timers.setInterval(() => staleness.check(), stalenessCheckEveryMs);
  connection.start();

  return {
    get snapshot() {
      return snapshot;
    },
    watch(clientId: string, symbols: readonly string[]) {
      fanout.setWatched(clientId, symbols);
    },
    forget(clientId: string) {
      fanout.removeClient(clientId);
    },
    reconnect() {
      connection.restart();
    },
    watchedCount(): number {
      return fanout.watchedSymbols().length;
    },
    async stop() {
      options.timers.clearInterval(flushTimer);
      options.timers.clearInterval(staleTimer);
      await connection.stop();
    },
  };
}

export type MarketFeed = ReturnType<typeof createMarketFeed>;
