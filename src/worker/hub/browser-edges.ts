/// <reference lib="webworker" />
import { createStore, del, get, set } from 'idb-keyval';
import type { KeyValueStore, Timers } from '../engine/ports';
import type { PeerChannel, PeerMessage } from './engine-host';

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

export function broadcastPeers(name: string): PeerChannel {
  const channel = new BroadcastChannel(name);
  return {
    post: (message) => channel.postMessage(message),
    listen: (handler) => {
      channel.onmessage = (event: MessageEvent<PeerMessage>) => handler(event.data);
    },
  };
}
