import type { TopicBus } from './topic-bus';

/** Where the tee sends every message besides the local bus (the broker publisher). */
export interface BrokerSink {
  publish(destination: string, body: string): void;
}

export interface TeeTopicBusOptions {
  /**
   * Whether the broker needs `destination` even when no local listener does. The
   * market-data service publishes a per-symbol topic only when it has subscribers, and
   * browsers that subscribe at RabbitMQ are invisible to the server. So by default the
   * broker counts as one subscriber of every destination.
   */
  brokerAlwaysWantsTopic?: (destination: string) => boolean;
}

/**
 * A TopicBus that delivers each message to the local listeners (the server's own STOMP
 * endpoint) and to the broker as well. Subscriptions stay local. `subscriberCount` adds one
 * for the broker where it wants the destination. Without a broker this is the local bus itself.
 */
export function teeTopicBus(local: TopicBus, broker: BrokerSink | null, options: TeeTopicBusOptions = {}): TopicBus {
  if (!broker) return local;
  const brokerWants = options.brokerAlwaysWantsTopic ?? (() => true);
  return {
    publish(destination, body) {
      // The local bus rethrows a listener's error after delivering to the rest; the
      // broker still gets the message.
      try {
        local.publish(destination, body);
      } finally {
        broker.publish(destination, body);
      }
    },
    subscribe: (destination, listener) => local.subscribe(destination, listener),
    subscriberCount: (destination) => local.subscriberCount(destination) + (brokerWants(destination) ? 1 : 0),
  };
}
