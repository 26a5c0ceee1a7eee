import type { PriceTick } from '../../shared/api/market';
import type { MarketConnection, MarketConnectionFactory } from './market-feed';
import type { ConnectionState } from './reconnect-policy';

/** What the engines of one browser say to each other about the market. */
export type MarketRelayMessage = { type: 'prices'; ticks: PriceTick[] } | { type: 'state'; state: ConnectionState };

export interface RelayChannel {
  post(message: MarketRelayMessage): void;
  listen(handler: (message: MarketRelayMessage) => void): void;
}

/** The part of the Web Locks API needed: an exclusive lock held until `hold` settles. */
export interface ExclusiveLock {
  acquire(name: string, hold: () => Promise<void>): void;
}

export const marketLeaderLockName = 'tradeweb-market-leader';

/**
 * Where SharedWorker is missing each tab runs its own engine, yet the browser must keep
 * one market connection. The engines elect a leader with an exclusive lock: the leader
 * opens the real connection and relays what it hears; the others only listen. When the
 * leader's tab closes its lock is released and a waiting engine takes over.
 */
export function leaderElectedConnection(options: {
  lock: ExclusiveLock;
  relay: RelayChannel;
  connect: MarketConnectionFactory;
  onLeadership?: (leader: boolean) => void;
}): MarketConnectionFactory {
  return (handlers) => {
    let real: MarketConnection | null = null;
    let releaseLock: (() => void) | null = null;
    let stopped = false;

    options.relay.listen((message) => {
      if (real || stopped) return; // the leader hears the socket itself
      if (message.type === 'prices') handlers.onPrices(message.ticks);
      else handlers.onState(message.state);
    });

    function lead() {
      real = options.connect({
        onPrices: (ticks) => {
          handlers.onPrices(ticks);
          options.relay.post({ type: 'prices', ticks });
        },
        onState: (state) => {
          handlers.onState(state);
          options.relay.post({ type: 'state', state });
        },
      });
      options.onLeadership?.(true);
      real.start();
    }

    return {
      start() {
        stopped = false;
        options.lock.acquire(marketLeaderLockName, () => {
          if (stopped) return Promise.resolve();
          lead();
          return new Promise<void>((resolve) => (releaseLock = resolve));
        });
      },
      restart() {
        real?.restart();
      },
      async stop() {
        stopped = true;
        await real?.stop();
        real = null;
        releaseLock?.();
        releaseLock = null;
      },
    };
  };
}
