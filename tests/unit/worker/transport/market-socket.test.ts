import type { IStompSocket } from '@stomp/stompjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PriceTick } from '../../../../src/shared/api/market';
import { createBinaryTickEncoder } from '../../../../src/shared/market/binary-ticks';
import type { ConnectionState } from '../../../../src/worker/engine/reconnect-policy';
import { createMarketSocket, type MarketSocketOptions } from '../../../../src/worker/transport/market-socket';
import { parseMessage, serializeBinaryFrame, serializeFrame, type OutgoingFrame, type StompFrame } from '../../../../server/modules/market/stomp/frame';
import { priceTick } from '../../support/price-tick';
import { batchTicks } from '../../../../src/worker/engine/tick-store';

const CONNECTING = 0;
const OPEN = 1;
const CLOSED = 3;

/** A WebSocket the test plays the server of; @stomp/stompjs's Client drives it. */
class FakeSocket implements IStompSocket {
  readyState = CONNECTING;
  binaryType = 'blob';
  readonly sent: string[] = [];
  closed = false;
  onopen: IStompSocket['onopen'] = null;
  onmessage: IStompSocket['onmessage'] = null;
  onclose: IStompSocket['onclose'] = null;
  onerror: IStompSocket['onerror'] = null;

  constructor(
    readonly url: string,
    readonly protocols: string[],
  ) {}

  send(data: string | ArrayBufferLike | Blob | ArrayBufferView) {
    if (this.readyState !== OPEN) throw new Error('send on a socket that is not open');
    this.sent.push(String(data));
  }
  /** As a browser's: the close event follows. */
  close() {
    if (this.closed) return;
    this.closed = true;
    setTimeout(() => this.drop(1000), 0);
  }

  // The server's side.
  open() {
    this.readyState = OPEN;
    this.onopen?.({});
  }
  receive(frame: OutgoingFrame | string) {
    this.onmessage?.({ data: typeof frame === 'string' ? frame : serializeFrame(frame) });
  }
  /** Opens and answers CONNECT. */
  accept(heartBeat = '0,0') {
    this.open();
    this.receive({ command: 'CONNECTED', headers: { version: '1.2', 'heart-beat': heartBeat } });
  }
  /** The connection drops (or never came up). */
  drop(code = 1006) {
    if (this.readyState === CLOSED) return;
    this.readyState = CLOSED;
    this.onclose?.({ code, reason: '' });
  }
  frames(): StompFrame[] {
    return this.sent.flatMap((text) => {
      const parsed = parseMessage(text);
      if (!parsed.ok) throw new Error(`client sent a malformed frame: ${parsed.error.code}`);
      return parsed.items.flatMap((item) => (item.kind === 'frame' ? [item.frame] : []));
    });
  }
  subscriptions(destination: string): StompFrame[] {
    return this.frames().filter((frame) => frame.command === 'SUBSCRIBE' && frame.headers.destination === destination);
  }
  subscriptionIds(destination: string): string[] {
    return this.subscriptions(destination).map((frame) => frame.headers.id ?? '');
  }
  /** The client's SUBSCRIBE and UNSUBSCRIBE frames as `SUBSCRIBE destination` / `UNSUBSCRIBE id`. */
  subscribeCommands(): string[] {
    return this.frames()
      .filter((frame) => frame.command === 'SUBSCRIBE' || frame.command === 'UNSUBSCRIBE')
      .map((frame) => `${frame.command} ${frame.command === 'SUBSCRIBE' ? frame.headers.destination : frame.headers.id}`);
  }
  /** The server's encoder of the source the test's batches come from (one per connection here). */
  readonly binaryTicks = createBinaryTickEncoder('p');
  /** A batch MESSAGE of these ticks, as the market endpoint sends it: binary, to the latest batch subscription. */
  receiveTicks(ticks: readonly PriceTick[], body = this.binaryTicks.encode(ticks), subscription = this.subscriptionIds('/topic/ticks').at(-1) ?? '') {
    const frame = serializeBinaryFrame({ command: 'MESSAGE', headers: { destination: '/topic/ticks', subscription, 'message-id': '1', 'content-type': 'application/octet-stream' } }, body);
    this.onmessage?.({ data: frame.buffer.slice(frame.byteOffset, frame.byteOffset + frame.length) });
  }
}

const tick = (symbol: string, price: string) => priceTick(symbol, price, 1_790_000_000_000);

function setup(overrides: Partial<MarketSocketOptions> = {}) {
  const sockets: FakeSocket[] = [];
  const states: ConnectionState[] = [];
  const prices: { ticks: PriceTick[]; glance: boolean }[] = [];
  const logs: string[] = [];
  const market = createMarketSocket({
    url: 'wss://markets.example/market/stomp',
    createSocket: (url, protocols) => {
      const socket = new FakeSocket(url, protocols);
      sockets.push(socket);
      return socket;
    },
    // Decoded binary ticks are read before the next MESSAGE: kept here as objects.
    onPrices: (ticks, glance) => prices.push({ ticks: [...batchTicks(ticks)], glance: glance === true }),
    onState: (state) => states.push(state),
    log: (message) => logs.push(message),
    // No jitter unless a test brings its own: each wait is exactly 500 ms × the attempt.
    random: () => 0.5,
    ...overrides,
  });
  const latest = () => {
    const socket = sockets.at(-1);
    if (!socket) throw new Error('no socket yet');
    return socket;
  };
  return { market, sockets, states, prices, logs, latest };
}

/** Lets the Client's asynchronous steps (it opens a socket a microtask after activate) and due timers run. */
const settle = (ms = 0) => vi.advanceTimersByTimeAsync(ms);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('market socket (@stomp/stompjs)', () => {
  it('connects with STOMP 1.2, follows all prices as a member of the batch subscription, and decodes its binary ticks', async () => {
    const { market, sockets, states, prices, logs, latest } = setup();
    market.followPrices({ all: true });
    market.start();
    await settle();
    expect(sockets).toHaveLength(1);
    expect(latest()).toMatchObject({ url: 'wss://markets.example/market/stomp', protocols: ['v12.stomp'] });
    expect(market.state).toEqual({ status: 'connecting', failedAttempts: 0, connectionFailed: false, retryAtMs: null });

    latest().open();
    const [connect] = latest().frames();
    expect(connect).toMatchObject({ command: 'CONNECT', headers: { 'accept-version': '1.2', host: '/', 'heart-beat': '10000,10000' } });
    latest().receive({ command: 'CONNECTED', headers: { version: '1.2', 'heart-beat': '0,0' } });
    expect(market.state).toEqual({ status: 'open', failedAttempts: 0, connectionFailed: false, retryAtMs: null });
    expect(latest().subscriptions('/topic/ticks').map((frame) => frame.headers)).toEqual([expect.objectContaining({ id: 'ticks', 'tick-form': 'binary' })]);
    expect(latest().subscriptions('/topic/prices').map((frame) => frame.headers.batch)).toEqual(['ticks']);

    const batch = [tick('BTCUSDT', '64000.50'), tick('ETHUSDT', '3100.25')];
    latest().receiveTicks(batch);
    expect(prices).toEqual([{ ticks: batch, glance: false }]);
    const moved = [tick('BTCUSDT', '64000.75')];
    latest().receiveTicks(moved);
    expect(prices).toEqual([{ ticks: batch, glance: false }, { ticks: moved, glance: false }]);
    expect(logs).toEqual([]);
    expect(states.map((state) => state.status)).toEqual(['connecting', 'open']);
  });

  it('after a body that does not read (cut short, or not the form), starts the batch afresh under a new id and reads the states the server sends again', async () => {
    const { market, prices, logs, latest } = setup();
    market.followPrices({ all: true });
    market.start();
    await settle();
    latest().accept();
    const socket = latest();
    const memberId = socket.subscriptionIds('/topic/prices')[0];
    socket.receiveTicks([tick('BTCUSDT', '64000.50')]);
    const change = socket.binaryTicks.encode([tick('BTCUSDT', '64000.75')]);
    socket.receiveTicks([], change.subarray(0, change.length - 1));
    expect(prices).toHaveLength(1);
    expect(logs).toEqual(['market: unreadable binary ticks; subscribing afresh']);
    expect(socket.subscribeCommands().slice(2)).toEqual([`UNSUBSCRIBE ${memberId}`, 'UNSUBSCRIBE ticks', 'SUBSCRIBE /topic/ticks', 'SUBSCRIBE /topic/prices']);
    expect(socket.subscriptionIds('/topic/ticks')).toEqual(['ticks', 'ticks-1']);
    expect(socket.subscriptions('/topic/prices').at(-1)?.headers.batch).toBe('ticks-1');
    // What was on its way under the old id is not read against the new batch's state.
    socket.receiveTicks([], change, 'ticks');
    expect(prices).toHaveLength(1);
    // The new member's state first (the server's snapshot), then changes against it.
    socket.receiveTicks([], socket.binaryTicks.snapshot([tick('BTCUSDT', '64000.75')]));
    socket.receiveTicks([tick('BTCUSDT', '64001.00')]);
    expect(prices.slice(1).map((each) => each.ticks)).toEqual([[tick('BTCUSDT', '64000.75')], [tick('BTCUSDT', '64001.00')]]);
    expect(logs).toHaveLength(1);
    // Not JSON either.
    socket.receiveTicks([], new TextEncoder().encode('{"symbol":"BTCUSDT"}'));
    expect(logs).toHaveLength(2);
    expect(socket.subscriptionIds('/topic/ticks').at(-1)).toBe('ticks-2');
  });

  it('follows per-symbol topics in the batch: subscribes to added symbols, unsubscribes from removed ones, and tells glances apart', async () => {
    const { market, prices, latest } = setup();
    market.followPrices({ all: false, symbols: ['BTCUSDT', 'EURUSD'], everyTick: ['BTCUSDT'] });
    market.start();
    await settle();
    latest().accept();
    const socket = latest();
    expect(socket.subscriptionIds('/topic/prices')).toEqual([]);
    const [btc] = socket.subscriptions('/topic/price/BTCUSDT');
    const [eur] = socket.subscriptions('/topic/price-1s/EURUSD');
    expect([btc?.headers.batch, eur?.headers.batch]).toEqual(['ticks', 'ticks']);

    // One MESSAGE carries both: the every-tick symbol as such, the glance expedited.
    socket.receiveTicks([tick('BTCUSDT', '64000.50'), tick('EURUSD', '1.08512')]);
    expect(prices).toEqual([
      { ticks: [tick('BTCUSDT', '64000.50')], glance: false },
      { ticks: [tick('EURUSD', '1.08512')], glance: true },
    ]);

    market.followPrices({ all: false, symbols: ['BTCUSDT', 'ETHUSDT'], everyTick: ['BTCUSDT', 'ETHUSDT'] });
    expect(socket.subscribeCommands().slice(-2)).toEqual(['SUBSCRIBE /topic/price/ETHUSDT', `UNSUBSCRIBE ${eur?.headers.id}`]);
    // BTCUSDT stays on its first subscription.
    expect(socket.subscriptionIds('/topic/price/BTCUSDT')).toHaveLength(1);

    // A glance moving to every tick subscribes to its other topic before leaving the first.
    market.followPrices({ all: false, symbols: ['BTCUSDT', 'ETHUSDT'], everyTick: ['ETHUSDT'] });
    const [btcEvery] = socket.subscriptionIds('/topic/price/BTCUSDT');
    expect(socket.subscribeCommands().slice(-2)).toEqual(['SUBSCRIBE /topic/price-1s/BTCUSDT', `UNSUBSCRIBE ${btcEvery}`]);

    market.followPrices({ all: true });
    expect(socket.subscriptionIds('/topic/prices')).toHaveLength(1);
    expect(socket.frames().filter((frame) => frame.command === 'UNSUBSCRIBE')).toHaveLength(4);
  });

  it('follows the kline topic of a watched pair, on this connection and the next, and stops on unwatch', async () => {
    const bars: string[] = [];
    const { market, latest, sockets, logs } = setup({ onBar: (symbol, period, bar) => bars.push(`${symbol}|${period}|${bar.volume}`) });
    market.start();
    // Watched before the socket opens: subscribed once it does.
    market.watchKline('BTCUSDT', '1min');
    await settle();
    latest().accept();
    const [id] = latest().subscriptionIds('/topic/kline/BTCUSDT/1min');
    expect(id).toBeTruthy();
    const bar = { time: 1_790_000_040_000, openPrice: '1.00', highestPrice: '1.10', lowestPrice: '0.90', closePrice: '1.05', volume: '812', turnover: '850.5' };
    const message = (body: string) => serializeFrame({ command: 'MESSAGE', headers: { destination: '/topic/kline/BTCUSDT/1min', subscription: id!, 'message-id': '1' }, body });
    latest().receive(message(JSON.stringify(bar)));
    latest().receive(message('{"time":"soon"}'));
    expect(bars).toEqual(['BTCUSDT|1min|812']);
    expect(logs).toEqual(['market: a kline message did not match the contract']);

    // A reconnection subscribes again.
    latest().drop();
    await settle(500);
    expect(sockets).toHaveLength(2);
    latest().accept();
    expect(latest().subscriptionIds('/topic/kline/BTCUSDT/1min')).toHaveLength(1);
    market.unwatchKline('BTCUSDT', '1min');
    expect(latest().frames().filter((frame) => frame.command === 'UNSUBSCRIBE')).toHaveLength(1);
  });

  it('retries after 500 ms × the attempt up to 30 s for ever, raising the alert after more than 10 failed attempts and clearing it once open', async () => {
    const { market, sockets, latest } = setup();
    market.start();
    await settle();
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      latest().drop();
      expect(market.state).toEqual({ status: 'closed', failedAttempts: attempt, connectionFailed: false, retryAtMs: Date.now() + 500 * attempt });
      const count = sockets.length;
      await settle(500 * attempt - 1);
      expect(sockets).toHaveLength(count);
      await settle(1);
      expect(sockets).toHaveLength(count + 1);
      expect(market.state).toMatchObject({ status: 'connecting', retryAtMs: null });
    }
    latest().drop();
    expect(market.state).toEqual({ status: 'closed', failedAttempts: 11, connectionFailed: true, retryAtMs: expect.any(Number) });
    // Still trying, for more than half an hour: the waits grow to 30 s and stay there.
    for (let attempt = 11; attempt <= 80; attempt += 1) {
      const count = sockets.length;
      await settle(Math.min(30_000, 500 * attempt));
      expect(sockets).toHaveLength(count + 1);
      expect(market.state.connectionFailed).toBe(true);
      latest().drop();
    }
    await settle(30_000);
    latest().accept();
    expect(market.state).toEqual({ status: 'open', failedAttempts: 0, connectionFailed: false, retryAtMs: null });
  });

  it('tries at once when told the network is back while it waits, from the first attempt; an open connection is left alone', async () => {
    const { market, sockets, latest } = setup();
    market.start();
    await settle();
    for (let attempt = 1; attempt <= 20; attempt += 1) {
      latest().drop();
      await settle(Math.min(30_000, 500 * attempt));
    }
    latest().drop();
    expect(market.state.failedAttempts).toBe(21);
    const count = sockets.length;
    market.tryNowIfWaiting();
    await settle();
    expect(sockets).toHaveLength(count + 1);
    expect(market.state).toEqual({ status: 'connecting', failedAttempts: 0, connectionFailed: true, retryAtMs: null });
    // Failing again waits 500 ms, not 11 s.
    latest().drop();
    await settle(500);
    expect(sockets).toHaveLength(count + 2);
    // Asked again while an attempt is under way, or once open: no second socket.
    market.tryNowIfWaiting();
    await settle();
    expect(sockets).toHaveLength(count + 2);
    latest().accept();
    market.tryNowIfWaiting();
    await settle();
    expect(sockets).toHaveLength(count + 2);
    expect(market.state.status).toBe('open');
  });

  it('spreads the waits by the injected random', async () => {
    const early = setup({ random: () => 0 });
    early.market.start();
    await settle();
    early.latest().drop();
    await settle(399);
    expect(early.sockets).toHaveLength(1);
    await settle(1);
    expect(early.sockets).toHaveLength(2);
  });

  it('subscribes again to every followed topic on every reconnection, prices move again, and a success resets the count', async () => {
    const { market, sockets, prices, logs, latest } = setup();
    market.followPrices({ all: false, symbols: ['BTCUSDT', 'EURUSD'], everyTick: ['BTCUSDT'] });
    market.start();
    await settle();
    latest().accept();
    const first = latest();
    expect(first.subscribeCommands()).toEqual(['SUBSCRIBE /topic/ticks', 'SUBSCRIBE /topic/price/BTCUSDT', 'SUBSCRIBE /topic/price-1s/EURUSD']);
    first.receiveTicks([tick('BTCUSDT', '64000.50')]);
    prices.length = 0;

    first.drop(1001);
    expect(market.state).toEqual({ status: 'closed', failedAttempts: 1, connectionFailed: false, retryAtMs: expect.any(Number) });
    await settle(500);
    latest().drop(); // the first retry fails too
    expect(market.state.failedAttempts).toBe(2);
    await settle(1000);
    expect(sockets).toHaveLength(3);
    latest().accept();
    expect(market.state).toEqual({ status: 'open', failedAttempts: 0, connectionFailed: false, retryAtMs: null });
    expect(latest().subscribeCommands()).toEqual(['SUBSCRIBE /topic/ticks', 'SUBSCRIBE /topic/price/BTCUSDT', 'SUBSCRIBE /topic/price-1s/EURUSD']);
    // A change against what the first connection got is not of this connection: its server has not given that id.
    latest().receiveTicks([], first.binaryTicks.encode([tick('BTCUSDT', '64000.75')]));
    expect(prices).toEqual([]);
    expect(logs.at(-1)).toBe('market: unreadable binary ticks; subscribing afresh');
    latest().receiveTicks([tick('BTCUSDT', '64001.00')]);
    expect(prices).toEqual([{ ticks: [tick('BTCUSDT', '64001.00')], glance: false }]);

    // Dropped after being open: the count starts from 1 again (500 ms).
    latest().drop();
    expect(market.state.failedAttempts).toBe(1);
    await settle(500);
    expect(sockets).toHaveLength(4);
  });

  it('counts a server that never answers CONNECT as a lost connection, and retries', async () => {
    const { market, sockets, latest } = setup();
    market.start();
    await settle();
    latest().open(); // no CONNECTED
    await settle(9_999);
    expect(market.state.status).toBe('connecting');
    await settle(1);
    expect(latest().closed).toBe(true);
    expect(market.state).toEqual({ status: 'closed', failedAttempts: 1, connectionFailed: false, retryAtMs: expect.any(Number) });

    await settle(500);
    expect(sockets).toHaveLength(2);
  });

  it('beats every 10 s while quiet, and counts a server that goes silent as a lost connection', async () => {
    const { market, latest } = setup();
    market.start();
    await settle();
    latest().accept('10000,10000');
    expect(market.state.status).toBe('open');
    await settle(10_000);
    expect(latest().sent.filter((text) => text === '\n')).toHaveLength(1);
    // The server beats for a while, then stops: silence is fatal after twice its interval.
    latest().receive('\n');
    await settle(19_000);
    expect(market.state.status).toBe('open');
    await settle(11_000);
    expect(latest().closed).toBe(true);
    expect(market.state).toEqual({ status: 'closed', failedAttempts: 1, connectionFailed: false, retryAtMs: expect.any(Number) });
  });

  it('reports an ERROR frame, and reconnects when the server closes after it', async () => {
    const { market, sockets, logs, latest } = setup();
    market.start();
    await settle();
    latest().accept();
    latest().receive({ command: 'ERROR', headers: { message: 'unknown destination' }, body: 'no such destination' });
    expect(logs).toContain('market: STOMP error unknown destination');
    latest().drop(1002);
    expect(market.state).toEqual({ status: 'closed', failedAttempts: 1, connectionFailed: false, retryAtMs: expect.any(Number) });
    await settle(500);
    expect(sockets).toHaveLength(2);
  });

  it('stops retrying on stop()', async () => {
    const { market, sockets, latest } = setup();
    market.start();
    await settle();
    latest().drop();
    await market.stop();
    await settle(60_000);
    expect(sockets).toHaveLength(1);
  });

  it('disconnects an open connection on stop(), with a receipt, and takes its close for no lost connection', async () => {
    const { market, sockets, states, latest } = setup();
    market.start();
    await settle();
    latest().accept();
    const reported = states.length;
    const stopping = market.stop();
    const disconnect = latest().frames().find((frame) => frame.command === 'DISCONNECT');
    expect(disconnect?.headers.receipt).toBeTruthy();
    latest().receive({ command: 'RECEIPT', headers: { 'receipt-id': disconnect!.headers.receipt! } });
    await settle();
    await stopping;
    expect(latest().closed).toBe(true);
    await settle(60_000);
    expect(sockets).toHaveLength(1);
    expect(states).toHaveLength(reported);
  });

  it('does not wait for ever for the RECEIPT when stopping', async () => {
    const { market, sockets, latest } = setup();
    market.start();
    await settle();
    latest().accept();
    const stopping = market.stop();
    await settle(1_000);
    await stopping;
    expect(latest().closed).toBe(true);
    await settle(60_000);
    expect(sockets).toHaveLength(1);
  });

  it("uses RabbitMQ's dotted destinations and the documented JSON bodies in broker naming", async () => {
    const { market, prices, latest } = setup({ brokerNaming: true });
    market.followPrices({ all: false, symbols: ['BTCUSDT', 'EURUSD'], everyTick: ['BTCUSDT'] });
    market.watchKline('BTCUSDT', '1min');
    market.start();
    await settle();
    latest().accept();
    const subscribes = latest().frames().filter((frame) => frame.command === 'SUBSCRIBE');
    expect(subscribes.map((frame) => frame.headers.destination).sort()).toEqual(['/topic/kline.BTCUSDT.1min', '/topic/price-1s.EURUSD', '/topic/price.BTCUSDT']);
    expect(subscribes.some((frame) => frame.headers.batch !== undefined)).toBe(false);
    const [glance] = latest().subscriptionIds('/topic/price-1s.EURUSD');
    latest().receive({ command: 'MESSAGE', headers: { destination: '/topic/price-1s.EURUSD', subscription: glance!, 'message-id': '1' }, body: JSON.stringify(tick('EURUSD', '1.08512')) });
    expect(prices).toEqual([{ ticks: [tick('EURUSD', '1.08512')], glance: true }]);
  });
});
