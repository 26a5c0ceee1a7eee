/// <reference lib="webworker" />
// First: the content security policy forbids eval (see the module).
import '../../shared/api/zod-jitless';
import * as Comlink from 'comlink';
import { createMarketSocket } from '../transport/market-socket';
import { browserEngineEdges } from './browser-edges';
import { createEngineHost } from './engine-host';

/** SharedWorker entry: one engine for every tab of this browser. */
declare const self: SharedWorkerGlobalScope;

const host = createEngineHost({
  ...browserEngineEdges(),
  kind: 'shared',
  connectMarket: (url, brokerNaming) => (handlers) => createMarketSocket({ url, brokerNaming, ...handlers }),
});

self.onconnect = (event: MessageEvent) => {
  const port = event.ports[0];
  if (port) Comlink.expose(host.api, port);
};
