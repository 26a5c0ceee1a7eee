/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import { systemClock } from '../engine/ports';
import { createMarketSocket } from '../transport/market-socket';
import { broadcastPeers, indexedDbStore, workerTimers } from './browser-edges';
import { createEngineHost } from './engine-host';

/**
 * Fallback where SharedWorker is missing: the same engine, one per tab, kept in step
 * with the other tabs' engines over BroadcastChannel.
 */
const host = createEngineHost({
  kind: 'dedicated',
  clock: systemClock,
  timers: workerTimers,
  store: indexedDbStore(),
  peers: broadcastPeers('tradeweb-engine-peers'),
  connectMarket: (url) => (handlers) => createMarketSocket({ url, ...handlers }),
});

Comlink.expose(host.api);
