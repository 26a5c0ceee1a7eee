import crypto from 'node:crypto';
import type { ClusterChannel, ClusterLink } from '../../../server/cluster/cluster-link';

/**
 * The cluster link of several simulated processes in one test, without a broker: what a
 * member publishes reaches every other member at once, as JSON (copied, as over the wire),
 * never itself, like the RabbitMQ link.
 */
export function memoryLinkHub() {
  const members: { origin: string; handlers: Map<ClusterChannel, ((data: unknown) => void)[]> }[] = [];
  return {
    member(): ClusterLink {
      const self = { origin: crypto.randomBytes(8).toString('hex'), handlers: new Map<ClusterChannel, ((data: unknown) => void)[]>() };
      members.push(self);
      let stopped = false;
      return {
        origin: self.origin,
        start: async () => true,
        connected: () => !stopped,
        publish(channel, data) {
          if (stopped) return;
          const wire = JSON.stringify(data);
          for (const other of members) {
            if (other === self) continue;
            for (const handler of other.handlers.get(channel) ?? []) handler(JSON.parse(wire));
          }
        },
        subscribe(channel, handler) {
          self.handlers.set(channel, [...(self.handlers.get(channel) ?? []), handler]);
        },
        async stop() {
          stopped = true;
          self.handlers.clear();
        },
      };
    },
  };
}
