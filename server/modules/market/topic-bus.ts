/**
 * In-process publish/subscribe of string bodies by destination (e.g. `/topic/prices`).
 * Producers (the price feed, the kline builder) publish once; every subscriber of that
 * destination, such as a STOMP subscription of one socket, receives the same string.
 */
export interface TopicBus {
  /** Delivers `body` synchronously to every current listener of `destination`. */
  publish(destination: string, body: string): void;
  /** Adds a listener; the returned function removes it (calling it again does nothing). */
  subscribe(destination: string, listener: (body: string) => void): () => void;
  subscriberCount(destination: string): number;
}

export interface TopicBusOptions {
  /**
   * Called when a listener throws. Without it the first error is rethrown to the
   * publisher once every listener has had the message, so one bad listener cannot
   * starve the others but the fault is not silently lost either.
   */
  onListenerError?: (error: unknown, destination: string) => void;
}

// A wrapper object per subscription, so the same function subscribed twice is two
// subscriptions and each unsubscribe removes exactly its own.
interface Entry {
  readonly listener: (body: string) => void;
}

export function createTopicBus(options: TopicBusOptions = {}): TopicBus {
  const topics = new Map<string, Set<Entry>>();

  return {
    publish(destination, body) {
      const entries = topics.get(destination);
      if (!entries) return;
      // A snapshot: listeners that (un)subscribe during delivery do not change who gets this message.
      const snapshot = [...entries];
      let firstError: { error: unknown } | null = null;
      for (const entry of snapshot) {
        try {
          entry.listener(body);
        } catch (error) {
          if (options.onListenerError) options.onListenerError(error, destination);
          else firstError ??= { error };
        }
      }
      if (firstError) throw firstError.error;
    },

    subscribe(destination, listener) {
      let entries = topics.get(destination);
      if (!entries) {
        entries = new Set();
        topics.set(destination, entries);
      }
      const entry: Entry = { listener };
      entries.add(entry);
      let active = true;
      return () => {
        if (!active) return;
        active = false;
        const current = topics.get(destination);
        if (!current) return;
        current.delete(entry);
        // Free the destination with its last listener: symbols and periods come and go.
        if (current.size === 0) topics.delete(destination);
      };
    },

    subscriberCount(destination) {
      return topics.get(destination)?.size ?? 0;
    },
  };
}
