/// <reference lib="webworker" />
// First: the content security policy forbids eval (see the module).
import '../../shared/api/zod-jitless';
import * as Comlink from 'comlink';
import { systemClock } from '../engine/ports';
import { leaderElectedConnection, type MarketRelayMessage } from '../engine/leader-election';
import { fetchMarketHistory } from '../transport/market-history';
import { createMarketSocket } from '../transport/market-socket';
import { openPositionsSocket } from '../transport/positions-socket';
import { fetchRunningOptions, fetchSessionApi } from '../transport/session-api';
import { broadcastPeers, indexedDbStore, workerTimers } from './browser-edges';
import { createEngineHost } from './engine-host';

/**
 * Fallback where SharedWorker is missing: the same engine, one per tab, kept in step
 * with the other tabs' engines over BroadcastChannel; only the elected leader holds the
 * market socket.
 */
/** Only the engine holding this lock runs the session clock (one refresh per browser). */
let sessionClockOwner = false;
void navigator.locks.request('tradeweb-session-clock', { mode: 'exclusive' }, () => {
  sessionClockOwner = true;
  // Held for the life of this tab's engine; released when the tab closes.
  return new Promise<void>(() => undefined);
});

const host = createEngineHost({
  kind: 'dedicated',
  clock: systemClock,
  timers: workerTimers,
  store: indexedDbStore(),
  peers: broadcastPeers('tradeweb-engine-peers'),
  fetchHistory: fetchMarketHistory,
  sessionApi: fetchSessionApi,
  // Each tab's engine in this fallback has its own positions socket (the feed is per user and small).
  connectPositions: openPositionsSocket,
  fetchRunningOptions,
  ownsSessionClock: () => sessionClockOwner,
  connectMarket: (url) =>
    leaderElectedConnection({
      lock: { acquire: (name, hold) => void navigator.locks.request(name, { mode: 'exclusive' }, hold) },
      relay: marketRelay(),
      connect: (handlers) => createMarketSocket({ url, ...handlers }),
    }),
});

function marketRelay() {
  const channel = new BroadcastChannel('tradeweb-market-relay');
  return {
    post: (message: MarketRelayMessage) => channel.postMessage(message),
    listen: (handler: (message: MarketRelayMessage) => void) => {
      channel.onmessage = (event: MessageEvent<MarketRelayMessage>) => handler(event.data);
    },
  };
}

Comlink.expose(host.api);
