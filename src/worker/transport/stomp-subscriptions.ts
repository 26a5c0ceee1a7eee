import type { StompHeaders } from '../../shared/stomp/frame';

export type StompMessageHandler = (body: string, headers: StompHeaders) => void;

/** What the subscriptions need of their connection: whether it is up, and the two frames. */
export interface SubscriptionWire {
  isConnected(): boolean;
  subscribe(id: string, destination: string): void;
  unsubscribe(id: string): void;
}

/**
 * The client's STOMP subscriptions: callers of one destination share one subscription
 * (the server refuses a second), which is sent when the connection is up (or as soon
 * as it comes up) and cancelled when its last caller leaves.
 */
export interface StompSubscriptions {
  /** Adds a caller; returns its idempotent removal. */
  add(destination: string, onMessage: StompMessageHandler): () => void;
  /** Hands a MESSAGE to the callers of its subscription. */
  deliver(subscriptionId: string | undefined, body: string, headers: StompHeaders): void;
  /** CONNECTED arrived: sends every subscription made meanwhile. */
  sendAll(): void;
  /** The connection is ending: nobody is subscribed any more. */
  clear(): void;
}

interface Subscription {
  readonly destination: string;
  /** One entry per caller (the same function twice is two entries). */
  readonly handlers: Set<{ readonly onMessage: StompMessageHandler }>;
}

export function createStompSubscriptions(wire: SubscriptionWire): StompSubscriptions {
  const byId = new Map<string, Subscription>();
  const idsByDestination = new Map<string, string>();
  let nextId = 1;

  return {
    add(destination, onMessage) {
      const handler = { onMessage };
      let id = idsByDestination.get(destination);
      let subscription = id === undefined ? undefined : byId.get(id);
      if (id === undefined || !subscription) {
        id = `sub-${nextId}`;
        nextId += 1;
        subscription = { destination, handlers: new Set() };
        byId.set(id, subscription);
        idsByDestination.set(destination, id);
        if (wire.isConnected()) wire.subscribe(id, destination);
      }
      subscription.handlers.add(handler);
      const ownId = id;
      const own = subscription;
      return () => {
        if (!own.handlers.delete(handler) || own.handlers.size > 0) return;
        // The last caller of this destination left: the STOMP subscription goes too.
        if (byId.get(ownId) !== own) return;
        byId.delete(ownId);
        idsByDestination.delete(destination);
        if (wire.isConnected()) wire.unsubscribe(ownId);
      };
    },
    deliver(subscriptionId, body, headers) {
      const subscription = subscriptionId === undefined ? undefined : byId.get(subscriptionId);
      // A MESSAGE for a subscription just cancelled may still arrive; it is nobody's.
      if (!subscription) return;
      for (const handler of [...subscription.handlers]) {
        try {
          handler.onMessage(body, headers);
        } catch (error) {
          // A subscriber's fault must not cost the frames (or subscribers) after it; it still surfaces.
          queueMicrotask(() => {
            throw error;
          });
        }
      }
    },
    sendAll() {
      for (const [id, subscription] of byId) wire.subscribe(id, subscription.destination);
    },
    clear() {
      byId.clear();
      idsByDestination.clear();
    },
  };
}
