/// <reference lib="webworker" />
import { createStore, del, get, set } from 'idb-keyval';
import { systemClock, type KeyValueStore, type Timers } from '../engine/ports';
import { fetchMarketHistory, fetchMarketHistoryRange } from '../transport/market-history';
import { openPositionsSocket } from '../transport/positions-socket';
import type { SessionApi } from '../engine/session-clock';
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
 * The session's calls and their schemas, fetched by the engine when it first checks a stored
 * session: a visitor's engine never needs them, and they are not in the first load. A fetch
 * that fails (offline) answers as an unreachable server does.
 */
const sessionCalls = () => import('../transport/session-api');

function lazySessionApi(apiRoot: string): SessionApi {
  return {
    checkToken: (token) => sessionCalls().then(({ fetchSessionApi }) => fetchSessionApi(apiRoot).checkToken(token), () => 'unreachable' as const),
    refresh: (tokens) => sessionCalls().then(({ fetchSessionApi }) => fetchSessionApi(apiRoot).refresh(tokens), () => ({ kind: 'unreachable' as const })),
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
    sessionApi: lazySessionApi,
    connectPositions: openPositionsSocket,
    fetchRunningOptions: (apiRoot, token) => sessionCalls().then(({ fetchRunningOptions }) => fetchRunningOptions(apiRoot, token), () => null),
  };
}
