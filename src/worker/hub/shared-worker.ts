/// <reference lib="webworker" />
// First: the content security policy forbids eval (see the module).
import '../../shared/api/zod-jitless';
import * as Comlink from 'comlink';
import { systemClock } from '../engine/ports';
import { fetchMarketHistory } from '../transport/market-history';
import { createMarketSocket } from '../transport/market-socket';
import { openPositionsSocket } from '../transport/positions-socket';
import { fetchRunningOptions, fetchSessionApi } from '../transport/session-api';
import { broadcastPeers, indexedDbStore, workerTimers } from './browser-edges';
import { createEngineHost } from './engine-host';

/** SharedWorker entry: one engine for every tab of this browser. */
declare const self: SharedWorkerGlobalScope;

const host = createEngineHost({
  kind: 'shared',
  clock: systemClock,
  timers: workerTimers,
  store: indexedDbStore(),
  peers: broadcastPeers('tradeweb-engine-peers'),
  fetchHistory: fetchMarketHistory,
  sessionApi: fetchSessionApi,
  connectPositions: openPositionsSocket,
  fetchRunningOptions,
  connectMarket: (url) => (handlers) => createMarketSocket({ url, ...handlers }),
});

self.onconnect = (event: MessageEvent) => {
  const port = event.ports[0];
  if (port) Comlink.expose(host.api, port);
};
