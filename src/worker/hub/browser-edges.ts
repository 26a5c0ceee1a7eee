/// <reference lib="webworker" />
import { createStore, del, get, set } from 'idb-keyval';
import { systemClock, type KeyValueStore, type Timers } from '../engine/ports';
import { fetchMarketHistory, fetchMarketHistoryRange } from '../transport/market-history';
import { openPositionsSocket } from '../transport/positions-socket';
import { fetchRunningOptions, fetchSessionApi } from '../transport/session-api';
import type { EngineHostOptions, PeerMessage } from './engine-host';

/** The channel on which the engines of one origin keep their sessions in step. */
const enginePeersChannel = 'tradeweb-engine-peers';

/** IndexedDB through idb-keyval: survives reloads and is shared by every engine of the origin. */
export function indexedDbStore(): KeyValueStore {
  const database = createStore('tradeweb-engine', 'state');
  return {
    get: (key) => get(key, database),
    set: (key, value) => set(key, value, database),
    delete: (key) => del(key, database),
  };
}

export const workerTimers: Timers = {
  setInterval: (callback, ms) => setInterval(callback, ms),
  clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** A BroadcastChannel as a post/listen pair (the engines' peers, the fallback's market relay). */
export function broadcastChannel<M>(name: string): { post(message: M): void; listen(handler: (message: M) => void): void } {
  const channel = new BroadcastChannel(name);
  return {
    post: (message) => channel.postMessage(message),
    listen: (handler) => {
      channel.onmessage = (event: MessageEvent<M>) => handler(event.data);
    },
  };
}

/**
 * The browser's edges for either entry file: the shared worker's engine and the
 * fallback's per-tab engines must use the same store and peer channel to meet.
 */
export function browserEngineEdges(): Omit<EngineHostOptions, 'kind' | 'connectMarket' | 'ownsSessionClock'> {
  return {
    clock: systemClock,
    timers: workerTimers,
    store: indexedDbStore(),
    peers: broadcastChannel<PeerMessage>(enginePeersChannel),
    fetchHistory: fetchMarketHistory,
    fetchHistoryRange: fetchMarketHistoryRange,
    sessionApi: fetchSessionApi,
    connectPositions: openPositionsSocket,
    fetchRunningOptions,
  };
}
