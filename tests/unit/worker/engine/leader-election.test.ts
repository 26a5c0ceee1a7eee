import { describe, expect, it } from 'vitest';
import type { PriceTick } from '../../../../src/shared/api/market';
import type { KlinePeriod, WireBar } from '../../../../src/shared/market/kline';
import { leaderElectedConnection, type ExclusiveLock, type MarketRelayMessage, type RelayChannel } from '../../../../src/worker/engine/leader-election';
import type { MarketConnectionFactory } from '../../../../src/worker/engine/market-feed';
import type { PriceSelection } from '../../../../src/worker/engine/price-subscriptions';
import type { ConnectionState } from '../../../../src/worker/engine/reconnect-policy';
import { fakeBroadcastNetwork } from '../../support/fake-broadcast';
import { settle } from '../../support/fake-clock';
import { priceTick } from '../../support/price-tick';
import { batchTicks } from '../../../../src/worker/engine/tick-store';

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

interface FakeSockets {
  opened: number;
  emit: ((ticks: PriceTick[]) => void)[];
  /** Each socket's kline topics followed (`symbol|period`) and how to push a bar on it. */
  klines: Set<string>[];
  emitBar: ((symbol: string, period: KlinePeriod, bar: WireBar) => void)[];
  /** Each socket's followed prices, latest last. */
  prices: PriceSelection[][];
  /** How many times a socket was asked to try now (only the leader's is real). */
  retriesNow: number;
}

function engineTab(lock: ExclusiveLock, relay: RelayChannel, sockets: FakeSockets) {
  const received: PriceTick[][] = [];
  const states: ConnectionState[] = [];
  const bars: string[] = [];
  const connect: MarketConnectionFactory = (handlers) => {
    const klines = new Set<string>();
    const prices: PriceSelection[] = [];
    sockets.prices.push(prices);
    return {
      start: () => {
        sockets.opened += 1;
        sockets.emit.push(handlers.onPrices);
        sockets.klines.push(klines);
        sockets.emitBar.push(handlers.onBar);
        handlers.onState({ status: 'open', failedAttempts: 0, connectionFailed: false, retryAtMs: null });
      },
      restart: () => undefined,
      tryNowIfWaiting: () => void (sockets.retriesNow += 1),
      stop: async () => undefined,
      watchKline: (symbol, period) => void klines.add(`${symbol}|${period}`),
      unwatchKline: (symbol, period) => void klines.delete(`${symbol}|${period}`),
      followPrices: (selection) => void prices.push(selection),
    };
  };
  const connection = leaderElectedConnection({ lock, relay, connect })({
    onPrices: (ticks) => received.push([...batchTicks(ticks)]),
    onState: (state) => states.push(state),
    onBar: (symbol, period, bar) => bars.push(`${symbol}|${period}|${bar.volume}`),
  });
  return { connection, received, states, bars };
}

const tick = (price: string) => priceTick('BTCUSDT', price, 1);

/** Two engines (tabs) of one browser that share one lock and one relay; both started. */
function twoStartedTabs() {
  const lock = fakeLocks();
  const network = fakeBroadcastNetwork<MarketRelayMessage>();
  const sockets: FakeSockets = { opened: 0, emit: [], klines: [], emitBar: [], prices: [], retriesNow: 0 };
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

  it('has the leader’s waiting socket try now when a follower tab is shown or its network is back', async () => {
    const { sockets, first, second } = twoStartedTabs();
    await Promise.resolve();
    second.connection.tryNowIfWaiting();
    expect(sockets.retriesNow).toBe(1);
    first.connection.tryNowIfWaiting();
    expect(sockets.retriesNow).toBe(2);
  });

  it('follows a follower tab’s kline topic on the leader’s socket and relays the server’s bars to it', async () => {
    const { sockets, first, second } = twoStartedTabs();
    await Promise.resolve();
    second.connection.watchKline('BTCUSDT', '1min');
    first.connection.watchKline('ETHUSDT', '5min');
    expect([...(sockets.klines[0] ?? [])].sort()).toEqual(['BTCUSDT|1min', 'ETHUSDT|5min']);
    const bar: WireBar = { time: 60_000, openPrice: '1.00', highestPrice: '1.10', lowestPrice: '0.90', closePrice: '1.05', volume: '42', turnover: '44.1' };
    sockets.emitBar[0]?.('BTCUSDT', '1min', bar);
    expect(first.bars).toEqual(['BTCUSDT|1min|42']);
    expect(second.bars).toEqual(['BTCUSDT|1min|42']);
    // The leader's own chart closes: its topic goes; the follower's stays.
    first.connection.unwatchKline('ETHUSDT', '5min');
    first.connection.unwatchKline('BTCUSDT', '1min');
    expect([...(sockets.klines[0] ?? [])]).toEqual(['BTCUSDT|1min']);
  });

  it('follows the union of every tab’s prices on the leader’s one socket', async () => {
    const { sockets, first, second } = twoStartedTabs();
    await Promise.resolve();
    first.connection.followPrices({ all: false, symbols: ['BTCUSDT', 'ETHUSDT'], everyTick: ['BTCUSDT'] });
    second.connection.followPrices({ all: false, symbols: ['ETHUSDT', 'EURUSD'], everyTick: ['ETHUSDT'] });
    // A symbol one tab glances at and another shows as it ticks is followed at every tick.
    expect(sockets.prices[0]?.at(-1)).toEqual({ all: false, symbols: ['BTCUSDT', 'ETHUSDT', 'EURUSD'], everyTick: ['BTCUSDT', 'ETHUSDT'] });
    second.connection.followPrices({ all: true });
    expect(sockets.prices[0]?.at(-1)).toEqual({ all: true });
    second.connection.followPrices({ all: false, symbols: [], everyTick: [] });
    expect(sockets.prices[0]?.at(-1)).toEqual({ all: false, symbols: ['BTCUSDT', 'ETHUSDT'], everyTick: ['BTCUSDT'] });
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
