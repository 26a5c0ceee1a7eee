import { SignJWT } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import type { OptionOrder } from '../../../../src/shared/api/options';
import { engineClientTimeoutMs, type EngineBatch, type OptionsState, type SessionSnapshot } from '../../../../src/shared/protocol/engine';
import { readAccessToken } from '../../../../src/shared/session/token';
import type { PriceTick } from '../../../../src/shared/api/market';
import type { MarketConnectionFactory } from '../../../../src/worker/engine/market-feed';
import type { ConnectionState } from '../../../../src/worker/engine/reconnect-policy';
import type { SessionApi } from '../../../../src/worker/engine/session-clock';
import type { PositionsConnector } from '../../../../src/worker/engine/positions-channel';
import { createEngineHost, type EngineHostOptions, type PeerChannel, type PeerMessage } from '../../../../src/worker/hub/engine-host';
import { memoryStore, type Clock, type Timers } from '../../../../src/worker/engine/ports';

const key = new TextEncoder().encode('k'.repeat(40));
async function accessToken(uid: number, virtualStatus = 0, expSeconds = 2_000_000_000) {
  return new SignJWT({ uid, virtualStatus, aesKey: 'a'.repeat(16) })
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime(expSeconds)
    .sign(key);
}

function fakeClock(start = 1_700_000_000_000) {
  let now = start;
  // ms 0 marks a one-shot timeout.
  const intervals: { callback: () => void; ms: number; next: number }[] = [];
  const clock: Clock = { nowMs: () => now };
  const cancel = (handle: unknown) => {
    const index = intervals.indexOf(handle as (typeof intervals)[number]);
    if (index >= 0) intervals.splice(index, 1);
  };
  const timers: Timers = {
    setInterval: (callback, ms) => {
      const entry = { callback, ms, next: now + ms };
      intervals.push(entry);
      return entry;
    },
    clearInterval: cancel,
    setTimeout: (callback, ms) => {
      const entry = { callback, ms: 0, next: now + Math.max(0, ms) };
      intervals.push(entry);
      return entry;
    },
    clearTimeout: cancel,
  };
  return {
    clock,
    timers,
    advance(ms: number) {
      const target = now + ms;
      for (;;) {
        const due = intervals.filter((entry) => entry.next <= target).sort((a, b) => a.next - b.next)[0];
        if (!due) break;
        now = due.next;
        if (due.ms === 0) cancel(due);
        else due.next += due.ms;
        due.callback();
      }
      now = target;
    },
  };
}

/** A market socket the test drives: it hands over prices and connection states. */
function fakeMarket() {
  const handlers: { onPrices?: (ticks: PriceTick[]) => void; onState?: (state: ConnectionState) => void } = {};
  const urls: string[] = [];
  const connect = (url: string): MarketConnectionFactory => (given) => {
    urls.push(url);
    Object.assign(handlers, given);
    return { start: () => given.onState({ status: 'connecting', failedAttempts: 0, gaveUp: false }), restart: () => undefined, stop: async () => undefined };
  };
  return { connect, handlers, urls };
}

function host_(options: {
  time: ReturnType<typeof fakeClock>;
  store?: EngineHostOptions['store'];
  kind?: EngineHostOptions['kind'];
  peers?: PeerChannel | null;
  market?: ReturnType<typeof fakeMarket>;
  fetchHistory?: EngineHostOptions['fetchHistory'];
  sessionApi?: SessionApi;
}) {
  return createEngineHost({
    kind: options.kind ?? 'shared',
    clock: options.time.clock,
    timers: options.time.timers,
    store: options.store ?? memoryStore(),
    peers: options.peers ?? null,
    connectMarket: (options.market ?? fakeMarket()).connect,
    fetchHistory: options.fetchHistory ?? (async () => []),
    sessionApi: () => options.sessionApi ?? { checkToken: async () => 'valid', refresh: async () => ({ kind: 'unreachable' }) },
  });
}

/** A BroadcastChannel stand-in: delivers to every other member, never to the sender. */
function peerNetwork() {
  const members: ((message: PeerMessage) => void)[] = [];
  return (): PeerChannel => {
    let own: ((message: PeerMessage) => void) | null = null;
    return {
      post: (message) => members.filter((member) => member !== own).forEach((member) => member(structuredClone(message))),
      listen: (handler) => {
        own = handler;
        members.push(handler);
      },
    };
  };
}

function tab() {
  const batches: EngineBatch[] = [];
  const listener = vi.fn((batch: EngineBatch) => void batches.push(batch));
  const sessions = () =>
    batches.flatMap((batch) => batch.events.filter((event) => event.type === 'session').map((event) => event.payload as SessionSnapshot));
  return { listener, batches, sessions };
}

describe('engine host', () => {
  it('answers the ready handshake with the stored session and pushes sign-in to every tab', async () => {
    const time = fakeClock();
    const host = host_({ time });
    const first = tab();
    const second = tab();
    const welcome = await host.api.hello('tab-1', first.listener);
    await host.api.hello('tab-2', second.listener);
    expect(welcome.session.signedIn).toBe(false);
    expect(welcome.kind).toBe('shared');

    const token = await accessToken(42, 1);
    await host.api.signIn({ token, refreshToken: 'r1' });
    for (const each of [first, second]) {
      expect(each.sessions()).toHaveLength(1);
      expect(each.sessions()[0]).toMatchObject({ signedIn: true, uid: 42, book: 'demo', token });
    }
    expect(first.batches[0]?.seq).toBe(1);

    await host.api.signOut('logout');
    expect(second.sessions()[1]).toMatchObject({ signedIn: false, token: null, endReason: 'logout' });
    expect(second.batches[1]?.seq).toBe(2);
  });

  it('keeps the session across an engine restart (reload) through its store', async () => {
    const time = fakeClock();
    const store = memoryStore();
    const before = host_({ time, store });
    await before.api.signIn({ token: await accessToken(7), refreshToken: 'r' });
    before.dispose();
    const after = host_({ time, store });
    const welcome = await after.api.hello('tab', tab().listener);
    expect(welcome.session).toMatchObject({ signedIn: true, uid: 7, book: 'real' });
  });

  it('refuses a token that is not an access token and changes nothing', async () => {
    const time = fakeClock();
    const host = host_({ time });
    const only = tab();
    await host.api.hello('tab', only.listener);
    await expect(host.api.signIn({ token: 'not-a-jwt', refreshToken: 'r' })).rejects.toThrow();
    expect(only.batches).toHaveLength(0);
    expect(host.session.snapshot.signedIn).toBe(false);
  });

  it('evicts a tab that stops sending heartbeats and tells it to say hello again', async () => {
    const time = fakeClock();
    const host = host_({ time });
    const quiet = tab();
    const lively = tab();
    await host.api.hello('quiet', quiet.listener);
    await host.api.hello('lively', lively.listener);
    for (let elapsed = 0; elapsed <= engineClientTimeoutMs + 20_000; elapsed += 10_000) {
      time.advance(10_000);
      await host.api.heartbeat('lively');
    }
    expect(host.clients.ids()).toEqual(['lively']);
    expect(await host.api.heartbeat('quiet')).toBe(false);
    await host.api.signIn({ token: await accessToken(1), refreshToken: 'r' });
    expect(quiet.batches).toHaveLength(0);
    expect(lively.batches).toHaveLength(1);
  });

  it('drops a tab at once when it says goodbye', async () => {
    const time = fakeClock();
    const host = host_({ time });
    await host.api.hello('a', tab().listener);
    await host.api.goodbye('a');
    expect((await host.api.diagnostics()).clientCount).toBe(0);
  });

  it('keeps dedicated-worker engines of several tabs in step (fallback)', async () => {
    const time = fakeClock();
    const network = peerNetwork();
    const store = memoryStore();
    const engineA = host_({ time, store, kind: 'dedicated', peers: network() });
    const engineB = host_({ time, store, kind: 'dedicated', peers: network() });
    const tabA = tab();
    const tabB = tab();
    await engineA.api.hello('a', tabA.listener);
    await engineB.api.hello('b', tabB.listener);

    await engineA.api.signIn({ token: await accessToken(99), refreshToken: 'r' });
    expect(tabB.sessions().at(-1)).toMatchObject({ signedIn: true, uid: 99 });

    time.advance(5);
    await engineB.api.signOut('logout');
    expect(tabA.sessions().at(-1)).toMatchObject({ signedIn: false, endReason: 'logout' });
    // An older snapshot arriving late does not undo the newer one.
    expect(engineA.session.adopt({ ...tabA.sessions()[0]!, version: 1 })).toBe(false);
  });

  it('reads the token payload the server signs', async () => {
    const payload = readAccessToken(await accessToken(5, 0, 1_900_000_000));
    expect(payload).toEqual({ uid: 5, virtualStatus: 0, aesKey: 'a'.repeat(16), exp: 1_900_000_000 });
    expect(readAccessToken('a.b.c')).toBeNull();
    expect(readAccessToken('')).toBeNull();
  });
});

function priceTick(symbol: string, price: string, lastUpdate: number): PriceTick {
  return { symbol, name: symbol, price, bidPrice: price, askPrice: price, volume: '1', lastUpdate, type: 'Forex', priceChangePercent: '0.00', low: price, high: price };
}

describe('engine market feed', () => {
  it('opens one socket however many tabs configure it, and batches each tab its watched prices', async () => {
    const time = fakeClock();
    const market = fakeMarket();
    const host = host_({ time, market });
    const first = tab();
    const second = tab();
    await host.api.hello('tab-1', first.listener);
    await host.api.hello('tab-2', second.listener);
    await host.api.configureMarket({ socketUrl: 'ws://x/market/stomp', batchWindowMs: 100, marketRoot: '' });
    await host.api.configureMarket({ socketUrl: 'ws://x/market/stomp', batchWindowMs: 100, marketRoot: '' });
    expect(market.urls).toEqual(['ws://x/market/stomp']);
    await host.api.watchPrices('tab-1', ['EURUSD', 'GBPUSD']);
    await host.api.watchPrices('tab-2', ['BTCUSDT']);

    market.handlers.onState?.({ status: 'open', failedAttempts: 0, gaveUp: false });
    for (let index = 0; index < 20; index += 1) {
      market.handlers.onPrices?.([priceTick('EURUSD', `1.0${index}`, index), priceTick('USDJPY', '150.0', index)]);
    }
    const rowsOf = (each: ReturnType<typeof tab>) =>
      each.batches.flatMap((batch) => batch.events.filter((event) => event.type === 'prices').flatMap((event) => event.payload as unknown[]));
    // Leading edge: the first prices after a quiet window go out at once; the next 19
    // ticks wait for the window's end and arrive as one row carrying the latest.
    expect(rowsOf(first)).toEqual([['EURUSD', '1.00', '1.00', '1.00', '0.00', '1.00', '1.00', '1', 0]]);
    time.advance(99);
    expect(rowsOf(first)).toHaveLength(1);
    time.advance(1);
    expect(rowsOf(first)).toEqual([
      ['EURUSD', '1.00', '1.00', '1.00', '0.00', '1.00', '1.00', '1', 0],
      ['EURUSD', '1.019', '1.019', '1.019', '0.00', '1.019', '1.019', '1', 19],
    ]);
    time.advance(1_000);
    expect(rowsOf(first)).toHaveLength(2);
    expect(rowsOf(second)).toEqual([]);
    const marketEvents = first.batches.flatMap((batch) => batch.events.filter((event) => event.type === 'market').map((event) => event.payload));
    expect(marketEvents.at(-1)).toMatchObject({ status: 'open', ready: true, stale: false, symbolCount: 2 });
    expect(await host.api.diagnostics()).toMatchObject({ marketSocketOpen: true, watchedSymbols: 3 });
  });

  it('sends a feed on the window\'s own cadence at once, even after a flush off the beat (no phase lock)', async () => {
    const time = fakeClock();
    const market = fakeMarket();
    const host = host_({ time, market });
    const only = tab();
    await host.api.hello('tab', only.listener);
    await host.api.configureMarket({ socketUrl: 'ws://x', batchWindowMs: 100, marketRoot: '' });
    const delivered: number[] = [];
    const prices = (lastUpdate: number) => {
      market.handlers.onPrices?.([priceTick('EURUSD', `1.${lastUpdate}`, lastUpdate), priceTick('GBPUSD', `1.${lastUpdate}`, lastUpdate)]);
    };
    const seen = () => only.batches.flatMap((batch) => batch.events.filter((event) => event.type === 'prices')).length;
    await host.api.watchPrices('tab', ['EURUSD']);
    prices(1);
    // A row scrolls into view 42 ms after a batch: its price is sent at once, off the beat.
    time.advance(42);
    await host.api.watchPrices('tab', ['EURUSD', 'GBPUSD']);
    for (let batch = 2; batch <= 6; batch += 1) {
      time.advance(batch === 2 ? 58 : 100);
      const before = seen();
      prices(batch);
      delivered.push(seen() - before);
    }
    // At most one batch is held back (to the window's end); the feed then goes out as it arrives.
    expect(delivered.slice(1)).toEqual([1, 1, 1, 1]);
  });

  it('flags the feed stale after 10 s of silence and fresh on the next prices', async () => {
    const time = fakeClock();
    const market = fakeMarket();
    const host = host_({ time, market });
    const only = tab();
    await host.api.hello('tab', only.listener);
    await host.api.configureMarket({ socketUrl: 'ws://x', batchWindowMs: 100, marketRoot: '' });
    market.handlers.onPrices?.([priceTick('EURUSD', '1.1', 1)]);
    time.advance(9_000);
    const staleStates = () => only.batches.flatMap((batch) => batch.events.filter((event) => event.type === 'market').map((event) => (event.payload as { stale: boolean }).stale));
    expect(staleStates().includes(true)).toBe(false);
    time.advance(1_000);
    expect(staleStates().at(-1)).toBe(true);
    market.handlers.onPrices?.([priceTick('EURUSD', '1.2', 2)]);
    expect(staleStates().at(-1)).toBe(false);
  });

  it('stops sending prices to a tab that left', async () => {
    const time = fakeClock();
    const market = fakeMarket();
    const host = host_({ time, market });
    const leaving = tab();
    await host.api.hello('gone', leaving.listener);
    await host.api.configureMarket({ socketUrl: 'ws://x', batchWindowMs: 100, marketRoot: '' });
    await host.api.watchPrices('gone', ['EURUSD']);
    await host.api.goodbye('gone');
    market.handlers.onPrices?.([priceTick('EURUSD', '1.1', 1)]);
    time.advance(200);
    expect(leaving.batches.some((batch) => batch.events.some((event) => event.type === 'prices'))).toBe(false);
    expect((await host.api.diagnostics()).watchedSymbols).toBe(0);
  });
});

describe('engine kline watch', () => {
  it('fetches history once per browser, then pushes the forming bar to the tabs watching it', async () => {
    const time = fakeClock(Date.parse('2026-01-12T10:00:30Z'));
    const market = fakeMarket();
    const requests: string[] = [];
    const t0 = Date.parse('2026-01-12T10:00:00Z');
    const history = [
      { time: t0 - 60_000, openPrice: '1.10000', highestPrice: '1.10100', lowestPrice: '1.09900', closePrice: '1.10050', volume: '10', turnover: '11' },
      { time: t0, openPrice: '1.10050', highestPrice: '1.10060', lowestPrice: '1.10040', closePrice: '1.10055', volume: '3', turnover: '3' },
    ];
    const host = host_({
      time,
      market,
      fetchHistory: async (root, symbol, period) => {
        requests.push(`${root}|${symbol}|${period}`);
        return history;
      },
    });
    const chart = tab();
    const otherChart = tab();
    const quotes = tab();
    await host.api.hello('chart', chart.listener);
    await host.api.hello('other', otherChart.listener);
    await host.api.hello('quotes', quotes.listener);
    await host.api.configureMarket({ socketUrl: 'ws://x', batchWindowMs: 100, marketRoot: 'https://md.example' });
    const bars = await host.api.watchKline('chart', 'EURUSD', '1min');
    await host.api.watchKline('other', 'EURUSD', '1min');
    expect(bars).toEqual(history);
    expect(requests).toEqual(['https://md.example|EURUSD|1min']);

    market.handlers.onPrices?.([{ ...priceTick('EURUSD', '1.10200', t0 + 31_000) }]);
    time.advance(100);
    const barsOf = (each: ReturnType<typeof tab>) =>
      each.batches.flatMap((batch) => batch.events.filter((event) => event.type === 'kline').map((event) => event.payload));
    expect(barsOf(chart)).toEqual([
      { symbol: 'EURUSD', period: '1min', bar: { time: t0, openPrice: '1.10050', highestPrice: '1.10200', lowestPrice: '1.10040', closePrice: '1.10200', volume: '4', turnover: '4' } },
    ]);
    expect(barsOf(otherChart)).toHaveLength(1);
    expect(barsOf(quotes)).toEqual([]);

    await host.api.unwatchKline('chart', 'EURUSD', '1min');
    await host.api.goodbye('other');
    market.handlers.onPrices?.([priceTick('EURUSD', '1.10300', t0 + 40_000)]);
    time.advance(100);
    expect(barsOf(chart)).toHaveLength(1);
    // Nobody watches the pair any more: the next watch fetches fresh history.
    await host.api.watchKline('quotes', 'EURUSD', '1min');
    expect(requests).toHaveLength(2);
  });
});

describe('engine session clock', () => {
  const start = 1_700_000_000_000;
  const minutes = (count: number) => count * 60_000;
  const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

  function fakeSessionApi(options: { check?: 'valid' | 'invalid' | 'unreachable'; refresh?: Awaited<ReturnType<SessionApi['refresh']>>[] } = {}) {
    const refreshes: string[] = [];
    const answers = [...(options.refresh ?? [])];
    const api: SessionApi = {
      checkToken: async () => options.check ?? 'valid',
      refresh: async (tokens) => {
        refreshes.push(tokens.refreshToken);
        return answers.shift() ?? { kind: 'unreachable' };
      },
    };
    return { api, refreshes };
  }

  async function signedInHost(expiresInMs: number, sessionApi: SessionApi, virtualStatus = 0) {
    const time = fakeClock(start);
    const host = host_({ time, sessionApi });
    const only = tab();
    await host.api.hello('tab', only.listener);
    await host.api.signIn({ token: await accessToken(7, virtualStatus, Math.floor((start + expiresInMs) / 1000)), refreshToken: 'r1' });
    return { time, host, only };
  }

  it('refreshes once under five minutes left, and every tab gets the new tokens', async () => {
    const next = await accessToken(7, 0, Math.floor((start + minutes(20)) / 1000));
    const fake = fakeSessionApi({ refresh: [{ kind: 'ok', tokens: { token: next, refreshToken: 'r2' } }] });
    const { time, host, only } = await signedInHost(minutes(6) + 30_000, fake.api);
    await host.api.configureSession({ apiRoot: '', demoAllowed: false, positionsSocketUrl: '' });
    await flush();
    expect(fake.refreshes).toEqual([]);
    time.advance(minutes(1)); // 5.5 minutes left
    await flush();
    expect(fake.refreshes).toEqual([]);
    time.advance(minutes(1)); // 4.5 minutes left
    await flush();
    expect(fake.refreshes).toEqual(['r1']);
    expect(only.sessions().at(-1)).toMatchObject({ signedIn: true, token: next, refreshToken: 'r2' });
    time.advance(minutes(1));
    await flush();
    expect(fake.refreshes).toEqual(['r1']);
  });

  it('keeps the session when the server cannot be reached, and tries again the next minute', async () => {
    const fake = fakeSessionApi({ refresh: [{ kind: 'unreachable' }, { kind: 'unreachable' }] });
    const { time, host, only } = await signedInHost(minutes(4), fake.api);
    await host.api.configureSession({ apiRoot: '', demoAllowed: false, positionsSocketUrl: '' });
    await flush();
    time.advance(minutes(1));
    await flush();
    expect(fake.refreshes).toEqual(['r1', 'r1']);
    expect(only.sessions().at(-1)?.signedIn).toBe(true);
  });

  it('signs out when the refresh is refused (ended server-side) or the token has expired', async () => {
    const refused = fakeSessionApi({ refresh: [{ kind: 'ended' }] });
    const first = await signedInHost(minutes(3), refused.api);
    await first.host.api.configureSession({ apiRoot: '', demoAllowed: false, positionsSocketUrl: '' });
    await flush();
    expect(first.only.sessions().at(-1)).toMatchObject({ signedIn: false, endReason: 'ended-by-server' });

    const unreachable = fakeSessionApi();
    const second = await signedInHost(minutes(7), unreachable.api);
    await second.host.api.configureSession({ apiRoot: '', demoAllowed: false, positionsSocketUrl: '' });
    for (let minute = 0; minute < 8; minute += 1) {
      second.time.advance(minutes(1));
      await second.host.api.heartbeat('tab'); // a tab that stays
      await flush();
    }
    expect(second.only.sessions().at(-1)).toMatchObject({ signedIn: false, endReason: 'expired' });
  });

  it('signs out at start when the server says the token is invalid (-1)', async () => {
    const fake = fakeSessionApi({ check: 'invalid' });
    const { host, only } = await signedInHost(minutes(15), fake.api);
    await host.api.configureSession({ apiRoot: '', demoAllowed: false, positionsSocketUrl: '' });
    await flush();
    expect(only.sessions().at(-1)).toMatchObject({ signedIn: false, endReason: 'invalid' });
  });

  it('signs a demo session out while demo trading is off', async () => {
    const fake = fakeSessionApi();
    const { host, only } = await signedInHost(minutes(15), fake.api, 1);
    await host.api.configureSession({ apiRoot: '', demoAllowed: true, positionsSocketUrl: '' });
    await flush();
    expect(only.sessions().at(-1)?.signedIn).toBe(true);
    await host.api.configureSession({ apiRoot: '', demoAllowed: false, positionsSocketUrl: '' });
    await flush();
    expect(only.sessions().at(-1)).toMatchObject({ signedIn: false, endReason: 'invalid' });
  });
});

describe('engine positions feed', () => {
  function fakePositionsServer() {
    const opened: string[] = [];
    const live: { handlers: Parameters<PositionsConnector>[1]; closed: boolean }[] = [];
    const connect: PositionsConnector = (url, handlers) => {
      opened.push(url);
      const entry = { handlers, closed: false };
      live.push(entry);
      return { close: () => void (entry.closed = true) };
    };
    return { connect, opened, live };
  }
  const summary = (count: number) => ({ orderList: [], profitLossSum: String(count), netValue: '0.00', securityDepositPrent: '0.00', securityDepositAvailableSum: '0.00' });

  it('opens one socket for the signed-in account, pushes its messages to every tab, and follows an account switch and sign-out', async () => {
    const time = fakeClock();
    const feed = fakePositionsServer();
    const host = createEngineHost({
      kind: 'shared', clock: time.clock, timers: time.timers, store: memoryStore(), peers: null,
      connectMarket: fakeMarket().connect, fetchHistory: async () => [],
      sessionApi: () => ({ checkToken: async () => 'valid', refresh: async () => ({ kind: 'unreachable' }) }),
      connectPositions: feed.connect,
    });
    const first = tab();
    const second = tab();
    await host.api.hello('one', first.listener);
    await host.api.hello('two', second.listener);
    await host.api.configureSession({ apiRoot: '', demoAllowed: true, positionsSocketUrl: 'ws://x/exchange/ws' });
    expect(feed.opened).toEqual([]);

    const real = await accessToken(9, 0);
    await host.api.signIn({ token: real, refreshToken: 'r' });
    expect(feed.opened).toEqual([`ws://x/exchange/ws?token=${encodeURIComponent(real)}`]);
    feed.live[0]!.handlers.onMessage(JSON.stringify({ type: 'holtOrder', data: summary(1) }));
    feed.live[0]!.handlers.onMessage('not json');
    feed.live[0]!.handlers.onMessage(JSON.stringify({ type: 'notice', data: { count: 2 } }));
    const positionsOf = (each: ReturnType<typeof tab>) =>
      each.batches.flatMap((batch) => batch.events.filter((event) => event.type === 'positions').map((event) => event.payload as { holt: { profitLossSum: string } | null }));
    for (const each of [first, second]) expect(positionsOf(each).at(-1)?.holt?.profitLossSum).toBe('1');
    expect((await host.api.positions()).holt?.profitLossSum).toBe('1');

    // A refreshed token for the same account keeps the socket; a switch to demo replaces it.
    await host.api.signIn({ token: await accessToken(9, 0, 2_000_000_100), refreshToken: 'r2' });
    expect(feed.opened).toHaveLength(1);
    const demo = await accessToken(9, 1);
    await host.api.signIn({ token: demo, refreshToken: 'r3' });
    expect(feed.opened).toHaveLength(2);
    expect(feed.live[0]!.closed).toBe(true);
    expect(positionsOf(first).at(-1)).toEqual({ holt: null, pending: null });

    // A dropped socket reconnects after a second; a refusal (4401) does not retry.
    feed.live[1]!.handlers.onClose(1006);
    time.advance(1_000);
    expect(feed.opened).toHaveLength(3);
    feed.live[2]!.handlers.onClose(4401);
    time.advance(60_000);
    expect(feed.opened).toHaveLength(3);

    await host.api.signOut('logout');
    expect(feed.live.every((entry) => entry.closed || entry === feed.live[1] || entry === feed.live[2])).toBe(true);
    expect(positionsOf(first).at(-1)).toEqual({ holt: null, pending: null });
  });

  it('asks the server at once when the socket is refused (4401), and signs every tab out when the session ended', async () => {
    const time = fakeClock();
    const feed = fakePositionsServer();
    let verdict: 'valid' | 'invalid' = 'valid';
    const checks: string[] = [];
    const host = createEngineHost({
      kind: 'shared', clock: time.clock, timers: time.timers, store: memoryStore(), peers: null,
      connectMarket: fakeMarket().connect, fetchHistory: async () => [],
      sessionApi: () => ({
        checkToken: async (token) => {
          checks.push(token);
          return verdict;
        },
        refresh: async () => ({ kind: 'unreachable' }),
      }),
      connectPositions: feed.connect,
    });
    const first = tab();
    const second = tab();
    await host.api.hello('one', first.listener);
    await host.api.hello('two', second.listener);
    await host.api.configureSession({ apiRoot: '', demoAllowed: true, positionsSocketUrl: 'ws://x/exchange/ws' });
    const token = await accessToken(9, 0);
    await host.api.signIn({ token, refreshToken: 'r' });
    const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
    await settle();
    const before = checks.length;

    // Logged out elsewhere: the server closes the socket with 4401 and says -1 to checkToken.
    verdict = 'invalid';
    feed.live[0]!.handlers.onClose(4401);
    await settle();
    expect(checks.length).toBe(before + 1);
    for (const each of [first, second]) expect(each.sessions().at(-1)).toMatchObject({ signedIn: false, endReason: 'ended-by-server' });
    time.advance(60_000);
    expect(feed.opened).toHaveLength(1);
  });
});

describe('engine option countdowns', () => {
  const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
  const optionAt = (uid: string, beginTime: number, timeLong: number, status: 0 | 1 = 0): OptionOrder => ({
    id: Number(uid.slice(-3)), uid, orderType: 0, tradePair: 'BTCUSDT', productName: 'Bitcoin', optionsProductId: 1,
    price: '67000.00', priceTime: beginTime, priceEnd: status === 1 ? '67010.00' : null, priceEndTime: status === 1 ? beginTime + timeLong * 1000 : null,
    feeAmount: '1.00', timeLong, beginTime, endTime: beginTime + timeLong * 1000, completeTime: status === 1 ? beginTime + timeLong * 1000 + 50 : null,
    amount: '100.00', rate: '0.80', winLost: status === 1 ? '80.00' : null, status, result: status === 1 ? 'win' : null, voidReason: null,
  });

  it('loads the running list for the account, counts each option down from its end time every 200 ms, drops it at zero, and keeps the settlement push', async () => {
    const time = fakeClock();
    const sockets: Parameters<PositionsConnector>[1][] = [];
    const loads: string[] = [];
    const start = time.clock.nowMs();
    // The server's clock runs 5 s behind this browser's; the placement push shows it.
    const serverNow = () => time.clock.nowMs() - 5_000;
    let running: OptionOrder[] = [optionAt('1000000000000001', start - 5_000 - 10_000, 60)];
    const host = createEngineHost({
      kind: 'shared', clock: time.clock, timers: time.timers, store: memoryStore(), peers: null,
      connectMarket: fakeMarket().connect, fetchHistory: async () => [],
      sessionApi: () => ({ checkToken: async () => 'valid', refresh: async () => ({ kind: 'unreachable' }) }),
      connectPositions: (_url, handlers) => {
        sockets.push(handlers);
        return { close: () => undefined };
      },
      fetchRunningOptions: async (apiRoot, token) => {
        loads.push(`${apiRoot}|${token.length > 0}`);
        return running;
      },
    });
    const screen = tab();
    await host.api.hello('one', screen.listener);
    await host.api.configureSession({ apiRoot: '/api', demoAllowed: true, positionsSocketUrl: 'ws://x/exchange/ws' });
    await host.api.signIn({ token: await accessToken(9, 0), refreshToken: 'r' });
    await flush();
    expect(loads).toEqual(['/api|true']);
    const latest = () => screen.batches.flatMap((batch) => batch.events.filter((event) => event.type === 'options')).at(-1)?.payload as OptionsState;
    expect(latest().loaded).toBe(true);
    // Without a placement seen, the local clock is taken as the server's: 45 s of 60 left → 75 %.
    expect(latest().running.map((entry) => entry.progress)).toEqual([75]);

    // A 30 s option placed now: the push teaches the 5 s offset, so it starts at 100 %.
    const placed = optionAt('1000000000000002', serverNow(), 30);
    sockets[0]!.onMessage(JSON.stringify({ type: 'option', data: placed }));
    // The connection's first message also reloads the list (pushes may have been missed before it).
    await flush();
    expect(loads).toHaveLength(2);
    expect(latest().running.find((entry) => entry.order.uid === placed.uid)).toMatchObject({ progress: 100, remainingMs: 30_000 });
    const pushesBefore = screen.batches.length;
    time.advance(1_000);
    // About every 200 ms: five updates in a second.
    expect(screen.batches.length - pushesBefore).toBe(5);
    // 29 s of 30 left: ceil(96.67) = 97.
    expect(latest().running.find((entry) => entry.order.uid === placed.uid)?.progress).toBe(97);
    expect((await host.api.options()).running).toHaveLength(2);

    // At zero the option leaves the running list; the settlement push lands in `settled`.
    time.advance(29_000);
    expect(latest().running.map((entry) => entry.order.uid)).toEqual(['1000000000000001']);
    sockets[0]!.onMessage(JSON.stringify({ type: 'option', data: optionAt(placed.uid, placed.beginTime, 30, 1) }));
    expect(latest().settled.map((order) => [order.uid, order.result])).toEqual([[placed.uid, 'win']]);

    // The last running option ends: the ticker stops.
    time.advance(20_000);
    expect(latest().running).toEqual([]);
    const quiet = screen.batches.length;
    time.advance(5_000);
    expect(screen.batches.length).toBe(quiet);

    // A switch to demo starts over with that account's list.
    running = [];
    const loadsBefore = loads.length;
    await host.api.signIn({ token: await accessToken(9, 1), refreshToken: 'r2' });
    await flush();
    expect(loads).toHaveLength(loadsBefore + 1);
    expect(latest()).toEqual({ loaded: true, running: [], settled: [] });
  });
});
