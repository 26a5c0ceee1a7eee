/// <reference lib="webworker" />
// First: the content security policy forbids eval (see the module).
import '../../shared/api/zod-jitless';
import * as Comlink from 'comlink';
import { leaderElectedConnection, type MarketRelayMessage } from '../engine/leader-election';
import { createMarketSocket } from '../transport/market-socket';
import { broadcastChannel, browserEngineEdges } from './browser-edges';
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
  // Each tab's engine in this fallback has its own positions socket (the feed is per user and small).
  ...browserEngineEdges(),
  kind: 'dedicated',
  ownsSessionClock: () => sessionClockOwner,
  connectMarket: (url, brokerNaming) =>
    leaderElectedConnection({
      lock: { acquire: (name, hold) => void navigator.locks.request(name, { mode: 'exclusive' }, hold) },
      relay: broadcastChannel<MarketRelayMessage>('tradeweb-market-relay'),
      connect: (handlers) => createMarketSocket({ url, brokerNaming, ...handlers }),
    }),
});

Comlink.expose(host.api);
