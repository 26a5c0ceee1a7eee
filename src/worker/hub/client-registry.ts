import type { EngineBatch, EngineEvent, EngineListener } from '../../shared/protocol/engine';
import type { Clock } from '../engine/ports';

interface Client {
  listener: EngineListener;
  lastSeenMs: number;
  seq: number;
}

/**
 * The tabs connected to this engine. A MessagePort has no close event, so a tab is
 * known to be gone only when it says goodbye (pagehide) or stops sending heartbeats.
 */
export function createClientRegistry(options: { clock: Clock; clientTimeoutMs: number; onEvict?: (id: string) => void }) {
  const { clock, clientTimeoutMs } = options;
  const clients = new Map<string, Client>();

  function send(client: Client, events: EngineEvent[]) {
    client.seq += 1;
    const batch: EngineBatch = { seq: client.seq, events };
    try {
      // Through Comlink this returns a promise that never settles for a dead port; ignore it.
      const pending: unknown = client.listener(batch);
      if (pending instanceof Promise) pending.catch(() => undefined);
    } catch {
      // A listener that throws belongs to a tab in the middle of closing; eviction follows.
    }
  }

  return {
    add(id: string, listener: EngineListener) {
      clients.set(id, { listener, lastSeenMs: clock.nowMs(), seq: 0 });
    },
    touch(id: string): boolean {
      const client = clients.get(id);
      if (!client) return false;
      client.lastSeenMs = clock.nowMs();
      return true;
    },
    remove(id: string) {
      clients.delete(id);
    },
    /** Drops tabs silent for longer than the timeout; returns their ids. */
    evictSilent(): string[] {
      const cutoff = clock.nowMs() - clientTimeoutMs;
      const evicted: string[] = [];
      for (const [id, client] of clients) {
        if (client.lastSeenMs < cutoff) {
          clients.delete(id);
          evicted.push(id);
          options.onEvict?.(id);
        }
      }
      return evicted;
    },
    broadcast(events: EngineEvent[]) {
      for (const client of clients.values()) send(client, events);
    },
    sendTo(id: string, events: EngineEvent[]) {
      const client = clients.get(id);
      if (client) send(client, events);
    },
    get size() {
      return clients.size;
    },
    ids(): string[] {
      return [...clients.keys()];
    },
  };
}

export type ClientRegistry = ReturnType<typeof createClientRegistry>;
