import { describe, expect, it } from 'vitest';
import type { PriceTick } from '../../../../src/shared/api/market';
import { leaderElectedConnection, type ExclusiveLock, type MarketRelayMessage, type RelayChannel } from '../../../../src/worker/engine/leader-election';
import type { MarketConnectionFactory } from '../../../../src/worker/engine/market-feed';
import type { ConnectionState } from '../../../../src/worker/engine/reconnect-policy';
import { fakeBroadcastNetwork } from '../../support/fake-broadcast';
import { settle } from '../../support/fake-clock';
import { priceTick } from '../../support/price-tick';

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

const tick = (price: string) => priceTick('BTCUSDT', price, 1);

/** Two engines (tabs) of one browser that share one lock and one relay; both started. */
function twoStartedTabs() {
  const lock = fakeLocks();
  const network = fakeBroadcastNetwork<MarketRelayMessage>();
  const sockets = { opened: 0, emit: [] as ((ticks: PriceTick[]) => void)[] };
  const first = engineTab(lock, network(), sockets);
  const second = engineTab(lock, network(), sockets);
  first.connection.start();
  second.connection.start();
  return { sockets, first, second };
}

describe('market leader election (dedicated-worker fallback)', () => {
  it('opens one socket for all tabs and relays its prices to the others', async () => {
    const { sockets, first, second } = twoStartedTabs();
    await Promise.resolve();
    expect(sockets.opened).toBe(1);
    sockets.emit[0]?.([tick('1.00')]);
    expect(first.received).toEqual([[tick('1.00')]]);
    expect(second.received).toEqual([[tick('1.00')]]);
    expect(second.states.at(-1)?.status).toBe('open');
  });

  it('hands the socket to a waiting tab when the leader goes', async () => {
    const { sockets, first, second } = twoStartedTabs();
    await first.connection.stop();
    await settle();
    expect(sockets.opened).toBe(2);
    sockets.emit[1]?.([tick('2.00')]);
    expect(second.received.at(-1)).toEqual([tick('2.00')]);
    expect(first.received).toEqual([]);
  });
});
