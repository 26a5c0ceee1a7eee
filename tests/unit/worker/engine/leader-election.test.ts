import { describe, expect, it } from 'vitest';
import type { PriceTick } from '../../../../src/shared/api/market';
import { leaderElectedConnection, type ExclusiveLock, type MarketRelayMessage, type RelayChannel } from '../../../../src/worker/engine/leader-election';
import type { MarketConnectionFactory } from '../../../../src/worker/engine/market-feed';
import type { ConnectionState } from '../../../../src/worker/engine/reconnect-policy';

/** Web Locks stand-in: one holder at a time, the rest wait in order. */
function fakeLocks(): ExclusiveLock {
  const queue: (() => Promise<void>)[] = [];
  let held = false;
  const next = () => {
    const hold = queue.shift();
    if (!hold) return;
    held = true;
    void hold().then(() => {
      held = false;
      next();
    });
  };
  return {
    acquire: (_name, hold) => {
      queue.push(hold);
      if (!held) next();
    },
  };
}

function fakeRelayNetwork() {
  const members: ((message: MarketRelayMessage) => void)[] = [];
  return (): RelayChannel => {
    let own: ((message: MarketRelayMessage) => void) | null = null;
    return {
      post: (message) => members.filter((member) => member !== own).forEach((member) => member(message)),
      listen: (handler) => {
        own = handler;
        members.push(handler);
      },
    };
  };
}

function engineTab(lock: ExclusiveLock, relay: RelayChannel, sockets: { opened: number; emit: ((ticks: PriceTick[]) => void)[] }) {
  const received: PriceTick[][] = [];
  const states: ConnectionState[] = [];
  const connect: MarketConnectionFactory = (handlers) => ({
    start: () => {
      sockets.opened += 1;
      sockets.emit.push(handlers.onPrices);
      handlers.onState({ status: 'open', failedAttempts: 0, gaveUp: false });
    },
    restart: () => undefined,
    stop: async () => undefined,
  });
  const connection = leaderElectedConnection({ lock, relay, connect })({
    onPrices: (ticks) => received.push(ticks),
    onState: (state) => states.push(state),
  });
  return { connection, received, states };
}

const tick = (price: string): PriceTick => ({ symbol: 'BTCUSDT', name: 'Bitcoin', price, bidPrice: price, askPrice: price, volume: '1', lastUpdate: 1, type: 'Cryptos', priceChangePercent: '0.00', low: price, high: price });

describe('market leader election (dedicated-worker fallback)', () => {
  it('opens one socket for all tabs and relays its prices to the others', async () => {
    const lock = fakeLocks();
    const network = fakeRelayNetwork();
    const sockets = { opened: 0, emit: [] as ((ticks: PriceTick[]) => void)[] };
    const first = engineTab(lock, network(), sockets);
    const second = engineTab(lock, network(), sockets);
    first.connection.start();
    second.connection.start();
    await Promise.resolve();
    expect(sockets.opened).toBe(1);
    sockets.emit[0]?.([tick('1.00')]);
    expect(first.received).toEqual([[tick('1.00')]]);
    expect(second.received).toEqual([[tick('1.00')]]);
    expect(second.states.at(-1)?.status).toBe('open');
  });

  it('hands the socket to a waiting tab when the leader goes', async () => {
    const lock = fakeLocks();
    const network = fakeRelayNetwork();
    const sockets = { opened: 0, emit: [] as ((ticks: PriceTick[]) => void)[] };
    const first = engineTab(lock, network(), sockets);
    const second = engineTab(lock, network(), sockets);
    first.connection.start();
    second.connection.start();
    await first.connection.stop();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(sockets.opened).toBe(2);
    sockets.emit[1]?.([tick('2.00')]);
    expect(second.received.at(-1)).toEqual([tick('2.00')]);
    expect(first.received).toEqual([]);
  });
});
