/// <reference lib="webworker" />
/**
 * The worker side of the browser ingest bench: the engine's market feed (createMarketFeed,
 * as the SharedWorker runs it: store, staleness, one tab's rows every batch window)
 * over the worker's market socket (@stomp/stompjs, the batch subscription's tick lines),
 * following every price. It answers `stats` with how many ticks arrived and how late.
 */
import { createMarketFeed } from '../../src/worker/engine/market-feed';
import { systemClock } from '../../src/worker/engine/ports';
import { workerTimers } from '../../src/worker/hub/browser-edges';
import { batchLastUpdate } from '../../src/worker/engine/tick-store';
import { createMarketSocket } from '../../src/worker/transport/market-socket';

declare const self: DedicatedWorkerGlobalScope;

let ticks = 0;
/** Every tick since the start (never reset): the backlog is what the feed sent less this. */
let totalTicks = 0;
let rows = 0;
/** How late each batch's newest tick arrived (now − its lastUpdate), since the last reset. */
let lags: number[] = [];

self.onmessage = (event: MessageEvent<{ type: 'start'; url: string; watched: string[] } | { type: 'stats'; reset: boolean }>) => {
  const message = event.data;
  if (message.type === 'start') {
    const feed = createMarketFeed({
      clock: systemClock,
      timers: workerTimers,
      batchWindowMs: 100,
      followAllPrices: true,
      connect: (handlers) =>
        createMarketSocket({
          url: message.url,
          ...handlers,
          onPrices(batch, glance) {
            ticks += batch.length;
            totalTicks += batch.length;
            if (batch.length > 0) lags.push(Date.now() - batchLastUpdate(batch, batch.length - 1));
            handlers.onPrices(batch, glance);
          },
        }),
      sendRows: (_client, sent) => (rows += sent.length),
      sendBar: () => undefined,
      onSnapshot: () => undefined,
      fetchHistory: async () => [],
    });
    feed.watch('tab-1', message.watched);
    return;
  }
  const sorted = [...lags].sort((a, b) => a - b);
  self.postMessage({ ticks, totalTicks, rows, lagP50Ms: sorted[Math.floor(sorted.length / 2)] ?? null, lagP99Ms: sorted[Math.floor(sorted.length * 0.99)] ?? null, lagMaxMs: sorted.at(-1) ?? null });
  if (message.reset) {
    ticks = 0;
    rows = 0;
    lags = [];
  }
};
