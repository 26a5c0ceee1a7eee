import type { PriceTick } from '../../shared/api/market';
import type { KlinePeriod, WireBar } from '../../shared/market/kline';
import type { MarketConnection, MarketConnectionFactory } from './market-feed';
import type { ConnectionState } from './reconnect-policy';
import { noPrices, unionOfSelections, type PriceSelection } from './price-subscriptions';
import { batchTicks } from './tick-store';

/** What the engines of one browser say to each other about the market. */
export type MarketRelayMessage =
  | { type: 'prices'; ticks: PriceTick[]; glance?: boolean }
  | { type: 'state'; state: ConnectionState }
  | { type: 'bar'; symbol: string; period: KlinePeriod; bar: WireBar }
  /** A follower's chart needs the server's forming bar of this pair: the leader follows it. */
  | { type: 'kline-watch'; symbol: string; period: KlinePeriod }
  /** A follower's tabs show these prices: the leader's socket follows the union of every engine's. */
  | { type: 'prices-follow'; engineId: string; selection: PriceSelection }
  /** A follower's tab is shown, or its network came back: the leader's socket tries now if it is waiting. */
  | { type: 'retry-now' };

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
  /** Names this engine to the leader (random by default). */
  engineId?: string;
}): MarketConnectionFactory {
  return (handlers) => {
    const engineId = options.engineId ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
    let ownSelection: PriceSelection = noPrices;
    /** Each engine's followed prices, while this one leads (followers do not say when they close). */
    const selections = new Map<string, PriceSelection>();
    function followUnion() {
      if (!real) return;
      selections.set(engineId, ownSelection);
      real.followPrices(unionOfSelections(selections.values()));
    }
    let real: MarketConnection | null = null;
    let releaseLock: (() => void) | null = null;
    let stopped = false;
    /** This engine's kline pairs; the leader also follows the followers' (kept while it leads). */
    const ownKlines = new Map<string, { symbol: string; period: KlinePeriod }>();
    const followerKlines = new Map<string, { symbol: string; period: KlinePeriod }>();
    const pairKey = (symbol: string, period: KlinePeriod) => `${symbol}|${period}`;

    options.relay.listen((message) => {
      if (stopped) return;
      if (message.type === 'prices-follow') {
        if (!real) return;
        selections.set(message.engineId, message.selection);
        followUnion();
        return;
      }
      if (message.type === 'retry-now') {
        real?.tryNowIfWaiting();
        return;
      }
      if (message.type === 'kline-watch') {
        if (!real) return;
        followerKlines.set(pairKey(message.symbol, message.period), { symbol: message.symbol, period: message.period });
        real.watchKline(message.symbol, message.period);
        return;
      }
      if (real) return; // the leader hears the socket itself
      if (message.type === 'prices') handlers.onPrices(message.ticks, message.glance === true);
      else if (message.type === 'bar') handlers.onBar(message.symbol, message.period, message.bar);
      else {
        handlers.onState(message.state);
        // A new leader's socket is open: it learns this engine's pairs again.
        if (message.state.status === 'open') {
          for (const pair of ownKlines.values()) options.relay.post({ type: 'kline-watch', ...pair });
          options.relay.post({ type: 'prices-follow', engineId, selection: ownSelection });
        }
      }
    });

    function lead() {
      real = options.connect({
        onPrices: (ticks, glance) => {
          handlers.onPrices(ticks, glance);
          // Decoded ticks live until the next MESSAGE: the relay carries them as objects.
          options.relay.post({ type: 'prices', ticks: [...batchTicks(ticks)], glance: glance === true });
        },
        onState: (state) => {
          handlers.onState(state);
          options.relay.post({ type: 'state', state });
        },
        onBar: (symbol, period, bar) => {
          handlers.onBar(symbol, period, bar);
          options.relay.post({ type: 'bar', symbol, period, bar });
        },
      });
      options.onLeadership?.(true);
      for (const pair of ownKlines.values()) real.watchKline(pair.symbol, pair.period);
      followUnion();
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
      tryNowIfWaiting() {
        if (real) real.tryNowIfWaiting();
        else options.relay.post({ type: 'retry-now' });
      },
      watchKline(symbol, period) {
        ownKlines.set(pairKey(symbol, period), { symbol, period });
        if (real) real.watchKline(symbol, period);
        else options.relay.post({ type: 'kline-watch', symbol, period });
      },
      unwatchKline(symbol, period) {
        const key = pairKey(symbol, period);
        ownKlines.delete(key);
        // A follower's pair stays followed while this engine leads (followers do not say when they stop).
        if (real && !followerKlines.has(key)) real.unwatchKline(symbol, period);
      },
      followPrices(selection) {
        ownSelection = selection;
        if (real) followUnion();
        else options.relay.post({ type: 'prices-follow', engineId, selection });
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
