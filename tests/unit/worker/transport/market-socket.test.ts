import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PriceTick } from '../../../../src/shared/api/market';
import { parseMessage, serializeFrame, type OutgoingFrame, type StompFrame } from '../../../../src/shared/stomp/frame';
import type { ConnectionState } from '../../../../src/worker/engine/reconnect-policy';
import { createMarketSocket, type MarketSocketOptions } from '../../../../src/worker/transport/market-socket';
import type { WebSocketLike } from '../../../../src/worker/transport/stomp-connection';
import { priceTick } from '../../support/price-tick';

const CONNECTING = 0;
const OPEN = 1;
const CLOSED = 3;

/** A WebSocket the test plays the server of. */
class FakeSocket implements WebSocketLike {
  readyState = CONNECTING;
  binaryType = 'blob';
  readonly sent: string[] = [];
  closedWith: number | null = null;
  onopen: WebSocketLike['onopen'] = null;
  onmessage: WebSocketLike['onmessage'] = null;
  onclose: WebSocketLike['onclose'] = null;
  onerror: WebSocketLike['onerror'] = null;

  constructor(
    readonly url: string,
    readonly protocols: string[],
  ) {}

  send(data: string) {
    if (this.readyState !== OPEN) throw new Error('send on a socket that is not open');
    this.sent.push(data);
  }
  close(code?: number) {
    this.closedWith = code ?? 1005;
    this.readyState = CLOSED;
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
  subscriptionIds(destination: string): string[] {
    return this.frames()
      .filter((frame) => frame.command === 'SUBSCRIBE' && frame.headers.destination === destination)
      .map((frame) => frame.headers.id ?? '');
  }
}

const tick = (symbol: string, price: string) => priceTick(symbol, price, 1_790_000_000_000);

function setup(overrides: Partial<MarketSocketOptions> = {}) {
  const sockets: FakeSocket[] = [];
  const states: ConnectionState[] = [];
  const prices: PriceTick[][] = [];
  const logs: string[] = [];
  const market = createMarketSocket({
    url: 'wss://markets.example/market/stomp',
    createSocket: (url, protocols) => {
      const socket = new FakeSocket(url, protocols);
      sockets.push(socket);
      return socket;
    },
    onPrices: (ticks) => prices.push(ticks),
    onState: (state) => states.push(state),
    log: (message) => logs.push(message),
    ...overrides,
  });
  const latest = () => {
    const socket = sockets.at(-1);
    if (!socket) throw new Error('no socket yet');
    return socket;
  };
  return { market, sockets, states, prices, logs, latest };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('market socket', () => {
  it('connects with STOMP 1.2, subscribes to /topic/prices when following all prices, and decodes batches', () => {
    const { market, sockets, states, prices, logs, latest } = setup();
    market.followPrices({ all: true });
    market.start();
    expect(sockets).toHaveLength(1);
    expect(latest()).toMatchObject({ url: 'wss://markets.example/market/stomp', protocols: ['v12.stomp'] });
    expect(market.state).toEqual({ status: 'connecting', failedAttempts: 0, gaveUp: false });

    latest().open();
    expect(latest().frames()).toEqual([
      { command: 'CONNECT', headers: { 'accept-version': '1.2', host: '/', 'heart-beat': '10000,10000' }, body: '' },
    ]);
    latest().receive({ command: 'CONNECTED', headers: { version: '1.2', 'heart-beat': '0,0' } });
    expect(market.state).toEqual({ status: 'open', failedAttempts: 0, gaveUp: false });
    const [id] = latest().subscriptionIds('/topic/prices');
    expect(id).toBeTruthy();

    const batch = [tick('BTCUSDT', '64000.50'), tick('ETHUSDT', '3100.25')];
    // Two MESSAGE frames and a heart-beat in one WebSocket message.
    const message = (body: string) => serializeFrame({ command: 'MESSAGE', headers: { destination: '/topic/prices', subscription: id!, 'message-id': '1' }, body });
    latest().receive(`${message(JSON.stringify(batch))}\n${message(JSON.stringify([batch[0]]))}`);
    expect(prices).toEqual([batch, [batch[0]]]);

    latest().receive(message('[{"symbol":"BTCUSDT","price":64000.5}]'));
    expect(prices).toHaveLength(2);
    expect(logs).toEqual(['market: a prices message did not match the contract']);
    expect(states.map((state) => state.status)).toEqual(['connecting', 'open']);
  });

  it('follows the kline topic of a watched pair, on this connection and the next, and stops on unwatch', () => {
    const bars: string[] = [];
    const { market, latest, sockets, logs } = setup({ onBar: (symbol, period, bar) => bars.push(`${symbol}|${period}|${bar.volume}`) });
    market.start();
    // Watched before the socket opens: subscribed once it does.
    market.watchKline('BTCUSDT', '1min');
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
    vi.advanceTimersByTime(500);
    expect(sockets).toHaveLength(2);
    latest().accept();
    expect(latest().subscriptionIds('/topic/kline/BTCUSDT/1min')).toHaveLength(1);
    market.unwatchKline('BTCUSDT', '1min');
    expect(latest().frames().filter((frame) => frame.command === 'UNSUBSCRIBE')).toHaveLength(1);
  });

  it('retries after 500 ms × the attempt, and gives up after 10 failed attempts', () => {
    const { market, sockets, latest } = setup();
    market.start();
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      latest().drop();
      expect(market.state).toEqual({ status: 'closed', failedAttempts: attempt, gaveUp: false });
      const count = sockets.length;
      vi.advanceTimersByTime(500 * attempt - 1);
      expect(sockets).toHaveLength(count);
      vi.advanceTimersByTime(1);
      expect(sockets).toHaveLength(count + 1);
      expect(market.state.status).toBe('connecting');
      delays.push(500 * attempt);
    }
    expect(delays).toEqual([500, 1000, 1500, 2000, 2500, 3000, 3500, 4000, 4500, 5000]);
    latest().drop();
    expect(market.state).toEqual({ status: 'closed', failedAttempts: 11, gaveUp: true });
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(11);

    // The user's "retry" starts again from a clean count.
    market.restart();
    expect(sockets).toHaveLength(12);
    expect(market.state).toEqual({ status: 'connecting', failedAttempts: 0, gaveUp: false });
    latest().accept();
    expect(market.state).toEqual({ status: 'open', failedAttempts: 0, gaveUp: false });
  });

  it('subscribes again on every reconnection, and a success resets the count', () => {
    const { market, sockets, prices, latest } = setup();
    market.followPrices({ all: true });
    market.start();
    latest().accept();
    const first = latest();
    expect(first.subscriptionIds('/topic/prices')).toHaveLength(1);

    first.drop(1001);
    expect(market.state).toEqual({ status: 'closed', failedAttempts: 1, gaveUp: false });
    vi.advanceTimersByTime(500);
    latest().drop(); // the first retry fails too
    expect(market.state.failedAttempts).toBe(2);
    vi.advanceTimersByTime(1000);
    expect(sockets).toHaveLength(3);
    latest().accept();
    expect(market.state).toEqual({ status: 'open', failedAttempts: 0, gaveUp: false });
    const [id] = latest().subscriptionIds('/topic/prices');
    expect(id).toBeTruthy();
    latest().receive({ command: 'MESSAGE', headers: { destination: '/topic/prices', subscription: id!, 'message-id': '9' }, body: JSON.stringify([tick('EURUSD', '1.08512')]) });
    expect(prices).toEqual([[tick('EURUSD', '1.08512')]]);

    // Dropped after being open: the count starts from 1 again (500 ms).
    latest().drop();
    expect(market.state.failedAttempts).toBe(1);
    vi.advanceTimersByTime(500);
    expect(sockets).toHaveLength(4);
  });

  it('counts a server that never answers CONNECT as a lost connection, and retries', () => {
    const { market, sockets, latest } = setup();
    market.start();
    latest().open(); // no CONNECTED
    vi.advanceTimersByTime(9_999);
    expect(market.state.status).toBe('connecting');
    vi.advanceTimersByTime(1);
    expect(latest().closedWith).not.toBeNull();
    expect(market.state).toEqual({ status: 'closed', failedAttempts: 1, gaveUp: false });

    vi.advanceTimersByTime(500);
    expect(sockets).toHaveLength(2);
  });

  it('counts a server that goes silent as a lost connection', () => {
    const { market, latest } = setup();
    market.start();
    latest().accept('10000,10000');
    expect(market.state.status).toBe('open');
    // We beat every 10 s while quiet; the server beats for a while, then stops.
    vi.advanceTimersByTime(10_000);
    expect(latest().sent.filter((text) => text === '\n')).toHaveLength(1);
    latest().receive('\n');
    vi.advanceTimersByTime(19_999);
    expect(market.state.status).toBe('open');
    vi.advanceTimersByTime(1);
    expect(latest().closedWith).not.toBeNull();
    expect(market.state).toEqual({ status: 'closed', failedAttempts: 1, gaveUp: false });
  });

  it('reports an ERROR frame and reconnects', () => {
    const { market, sockets, logs, latest } = setup();
    market.start();
    latest().accept();
    latest().receive({ command: 'ERROR', headers: { message: 'unknown destination' }, body: 'no such destination' });
    expect(logs).toContain('market: STOMP error unknown destination');
    expect(latest().closedWith).not.toBeNull();
    expect(market.state).toEqual({ status: 'closed', failedAttempts: 1, gaveUp: false });
    vi.advanceTimersByTime(500);
    expect(sockets).toHaveLength(2);
  });

  it('stops retrying on stop()', async () => {
    const { market, sockets, latest } = setup();
    market.start();
    latest().drop();
    await market.stop();
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
  });

  it('disconnects an open connection on stop(), with a receipt, and takes its late close for no lost connection', async () => {
    const { market, sockets, states, latest } = setup();
    market.start();
    latest().accept();
    const reported = states.length;
    const stopping = market.stop();
    const disconnect = latest().frames().find((frame) => frame.command === 'DISCONNECT');
    expect(disconnect?.headers.receipt).toBeTruthy();
    latest().receive({ command: 'RECEIPT', headers: { 'receipt-id': disconnect!.headers.receipt! } });
    await stopping;
    expect(latest().closedWith).toBe(1000);
    latest().drop(1000); // the close event comes later: not a lost connection
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
    expect(states).toHaveLength(reported);
  });

  it('does not wait for ever for the RECEIPT when stopping', async () => {
    const { market, latest } = setup();
    market.start();
    latest().accept();
    const stopping = market.stop();
    vi.advanceTimersByTime(1_000);
    await stopping;
    expect(latest().closedWith).toBe(1000);
  });

  it('follows per-symbol topics: subscribes to added symbols, unsubscribes from removed ones, and decodes single ticks', () => {
    const { market, prices, latest } = setup();
    market.followPrices({ all: false, symbols: ['BTCUSDT', 'EURUSD'], everyTick: ['BTCUSDT', 'EURUSD'] });
    market.start();
    latest().accept();
    const socket = latest();
    expect(socket.subscriptionIds('/topic/prices')).toEqual([]);
    const [btc] = socket.subscriptionIds('/topic/price/BTCUSDT');
    const [eur] = socket.subscriptionIds('/topic/price/EURUSD');
    expect(btc && eur).toBeTruthy();

    const btcTick = tick('BTCUSDT', '64000.50');
    socket.receive({ command: 'MESSAGE', headers: { destination: '/topic/price/BTCUSDT', subscription: btc!, 'message-id': '1' }, body: JSON.stringify(btcTick) });
    expect(prices).toEqual([[btcTick]]);

    market.followPrices({ all: false, symbols: ['BTCUSDT', 'ETHUSDT'], everyTick: ['BTCUSDT', 'ETHUSDT'] });
    const unsubscribed = socket.frames().filter((frame) => frame.command === 'UNSUBSCRIBE').map((frame) => frame.headers.id);
    expect(unsubscribed).toEqual([eur]);
    expect(socket.subscriptionIds('/topic/price/ETHUSDT')).toHaveLength(1);
    // BTCUSDT stays on its first subscription.
    expect(socket.subscriptionIds('/topic/price/BTCUSDT')).toHaveLength(1);

    market.followPrices({ all: true });
    expect(socket.subscriptionIds('/topic/prices')).toHaveLength(1);
    expect(socket.frames().filter((frame) => frame.command === 'UNSUBSCRIBE')).toHaveLength(3);
  });

  it('glances at a symbol through its once-a-second topic, and moves it to every tick by subscribing before leaving', () => {
    const { market, prices, latest } = setup();
    market.followPrices({ all: false, symbols: ['BTCUSDT', 'EURUSD'], everyTick: ['EURUSD'] });
    market.start();
    latest().accept();
    const socket = latest();
    const [glance] = socket.subscriptionIds('/topic/price-1s/BTCUSDT');
    expect(glance).toBeTruthy();
    expect(socket.subscriptionIds('/topic/price/BTCUSDT')).toEqual([]);
    expect(socket.subscriptionIds('/topic/price/EURUSD')).toHaveLength(1);
    const btcTick = tick('BTCUSDT', '64000.50');
    socket.receive({ command: 'MESSAGE', headers: { destination: '/topic/price-1s/BTCUSDT', subscription: glance!, 'message-id': '1' }, body: JSON.stringify(btcTick) });
    expect(prices).toEqual([[btcTick]]);

    market.followPrices({ all: false, symbols: ['BTCUSDT', 'EURUSD'], everyTick: ['BTCUSDT', 'EURUSD'] });
    const commands = socket.frames().map((frame) => `${frame.command} ${frame.headers.destination ?? frame.headers.id}`);
    expect(commands.slice(-2)).toEqual(['SUBSCRIBE /topic/price/BTCUSDT', `UNSUBSCRIBE ${glance}`]);
  });

  it('uses RabbitMQ\'s dotted destinations in broker naming', () => {
    const { market, latest } = setup({ brokerNaming: true });
    market.followPrices({ all: false, symbols: ['BTCUSDT', 'EURUSD'], everyTick: ['BTCUSDT'] });
    market.watchKline('BTCUSDT', '1min');
    market.start();
    latest().accept();
    const destinations = latest()
      .frames()
      .filter((frame) => frame.command === 'SUBSCRIBE')
      .map((frame) => frame.headers.destination)
      .sort();
    expect(destinations).toEqual(['/topic/kline.BTCUSDT.1min', '/topic/price-1s.EURUSD', '/topic/price.BTCUSDT']);
  });
});
