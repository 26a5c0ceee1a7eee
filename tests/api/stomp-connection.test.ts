import type { FastifyInstance } from 'fastify';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PriceTick } from '../../src/shared/api/market';
import { parseMessage, type StompFrame } from '../../src/shared/stomp/frame';
import type { ConnectionState } from '../../src/worker/engine/reconnect-policy';
import { createMarketSocket, type MarketSocket } from '../../src/worker/transport/market-socket';
import {
  openStompConnection,
  type StompCloseInfo,
  type StompConnection,
  type StompConnectionOptions,
  type StompErrorInfo,
  type StompOpenInfo,
  type WebSocketLike,
} from '../../src/worker/transport/stomp-connection';
import type { StompEndpointOptions } from '../../server/modules/market/stomp/stomp-endpoint';
import { startStompTestServer, type StompTestServer } from './stomp-test-server';

// `ws` ships no type declarations (and @types/ws is not installed). Its WebSocket has the
// browser-style handler properties the client uses, so it is typed as the client's socket.
type SocketConstructor = new (url: string, protocols?: string[]) => WebSocketLike;
const { WebSocket } = createRequire(import.meta.url)('ws') as { WebSocket: SocketConstructor };

const encoder = new TextEncoder();
const SUBSCRIBE_WAIT = { timeout: 2_000, interval: 5 };

/**
 * A `ws` socket as the client sees it, with a tap: what the client sends is recorded,
 * and what the server sends can be held (to hand several messages over as one) or
 * dropped (a server gone silent, as far as the client can tell).
 */
class TappedSocket implements WebSocketLike {
  readonly sent: string[] = [];
  readonly received: string[] = [];
  onopen: WebSocketLike['onopen'] = null;
  onmessage: WebSocketLike['onmessage'] = null;
  onclose: WebSocketLike['onclose'] = null;
  onerror: WebSocketLike['onerror'] = null;
  incoming: 'pass' | 'hold' | 'drop' = 'pass';
  held: string[] = [];

  constructor(readonly inner: WebSocketLike) {
    inner.onopen = (event) => this.onopen?.(event);
    inner.onmessage = (event) => {
      const text = event.data as string;
      if (this.incoming === 'drop') return;
      this.received.push(text);
      if (this.incoming === 'hold') this.held.push(text);
      else this.onmessage?.(event);
    };
    inner.onclose = (event) => this.onclose?.(event);
    inner.onerror = (event) => this.onerror?.(event);
  }

  get readyState() {
    return this.inner.readyState;
  }
  get binaryType() {
    return this.inner.binaryType;
  }
  set binaryType(value: string) {
    this.inner.binaryType = value;
  }
  send(data: string) {
    this.sent.push(data);
    this.inner.send(data);
  }
  close(code?: number, reason?: string) {
    this.inner.close(code, reason);
  }

  /** Hands what was held over as one message, as text or as octets. */
  release(as: 'text' | 'octets' = 'text') {
    const joined = this.held.join('');
    this.held = [];
    this.incoming = 'pass';
    this.onmessage?.({ data: as === 'text' ? joined : encoder.encode(joined).buffer });
  }

  /** Frames the client sent (heart-beats left out). */
  sentFrames(): StompFrame[] {
    return this.sent.flatMap((text) => {
      const parsed = parseMessage(text);
      return parsed.ok ? parsed.items.flatMap((item) => (item.kind === 'frame' ? [item.frame] : [])) : [];
    });
  }
}

type TestServer = StompTestServer;

const apps: FastifyInstance[] = [];
const connections: StompConnection[] = [];
const marketSockets: MarketSocket[] = [];

async function startServer(overrides: Partial<StompEndpointOptions> = {}): Promise<TestServer> {
  const allowedDestination = (destination: string) => destination === '/topic/prices' || destination.startsWith('/topic/price/');
  const server = await startStompTestServer({ allowedDestination, ...overrides });
  apps.push(server.app);
  return server;
}

/** A client with everything it reports recorded, and its sockets tapped. */
function connect(url: string, options: Partial<StompConnectionOptions> = {}) {
  const sockets: TappedSocket[] = [];
  const protocolsOffered: string[][] = [];
  const events: string[] = [];
  const errors: StompErrorInfo[] = [];
  let openInfo: StompOpenInfo | null = null;
  let resolveOpen: (info: StompOpenInfo) => void = () => undefined;
  let resolveClose: (info: StompCloseInfo) => void = () => undefined;
  const opened = new Promise<StompOpenInfo>((resolve) => (resolveOpen = resolve));
  const closed = new Promise<StompCloseInfo & { at: number }>((resolve) => (resolveClose = (info) => resolve({ ...info, at: performance.now() })));
  const connection = openStompConnection({
    url,
    createSocket: (socketUrl, protocols) => {
      protocolsOffered.push(protocols);
      const socket = new TappedSocket(new WebSocket(socketUrl, protocols));
      sockets.push(socket);
      return socket;
    },
    onOpen: (info) => {
      events.push('open');
      openInfo = info;
      resolveOpen(info);
    },
    onError: (error) => {
      events.push('error');
      errors.push(error);
    },
    onClose: (info) => {
      events.push('close');
      resolveClose(info);
    },
    ...options,
  });
  connections.push(connection);
  const socket = () => {
    const first = sockets[0];
    if (!first) throw new Error('no socket was opened');
    return first;
  };
  return { connection, opened, closed, events, errors, socket, protocolsOffered, openInfo: () => openInfo };
}

function collect(connection: StompConnection, destination: string) {
  const messages: { body: string; headers: Readonly<Record<string, string>> }[] = [];
  const unsubscribe = connection.subscribe(destination, (body, headers) => messages.push({ body, headers }));
  return { messages, unsubscribe };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

afterEach(async () => {
  for (const socket of marketSockets.splice(0)) await socket.stop();
  for (const connection of connections.splice(0)) connection.close();
  for (const app of apps.splice(0)) await app.close();
});

describe('STOMP client against the market endpoint', () => {
  it('connects with v12.stomp, CONNECT headers and negotiated heart-beats', async () => {
    const { url } = await startServer({ heartbeatMs: 5_000 });
    const client = connect(url, { host: 'markets.example' });
    const info = await client.opened;
    expect(client.protocolsOffered).toEqual([['v12.stomp']]);
    expect(info).toMatchObject({ version: '1.2', server: expect.stringMatching(/^tradeweb-market\//) });
    // We offer 10 s both ways, the server 5 s: the slower wins each way.
    expect(info.heartbeat).toEqual({ sendMs: 10_000, receiveMs: 10_000 });
    expect(client.connection.state).toBe('connected');
    const [connectFrame] = client.socket().sentFrames();
    expect(connectFrame).toMatchObject({
      command: 'CONNECT',
      headers: { 'accept-version': '1.2', host: 'markets.example', 'heart-beat': '10000,10000' },
    });

    const byDefault = connect(url);
    await byDefault.opened;
    expect(byDefault.socket().sentFrames()[0]?.headers.host).toBe('127.0.0.1');
  });

  it('subscribes (also before CONNECTED), delivers bus publishes and unsubscribes', async () => {
    const { url, bus } = await startServer();
    const client = connect(url);
    const early = collect(client.connection, '/topic/prices'); // sent once CONNECTED arrives
    await client.opened;
    const late = collect(client.connection, '/topic/price/BTCUSDT');
    await vi.waitFor(() => {
      expect(bus.subscriberCount('/topic/prices')).toBe(1);
      expect(bus.subscriberCount('/topic/price/BTCUSDT')).toBe(1);
    }, SUBSCRIBE_WAIT);

    const batch = JSON.stringify([{ symbol: 'BTCUSDT', name: 'Bitcoin ₿', price: '64000.50' }]);
    bus.publish('/topic/prices', batch);
    bus.publish('/topic/price/BTCUSDT', '{"one":1}');
    bus.publish('/topic/price/ETHUSDT', '{"nobody":"listens"}');
    await vi.waitFor(() => expect(early.messages.length + late.messages.length).toBe(2), SUBSCRIBE_WAIT);
    expect(early.messages[0]?.body).toBe(batch);
    expect(early.messages[0]?.headers).toMatchObject({ destination: '/topic/prices', 'content-type': 'application/json' });
    expect(late.messages.map((message) => message.body)).toEqual(['{"one":1}']);
    const ids = client.socket().sentFrames().filter((frame) => frame.command === 'SUBSCRIBE').map((frame) => frame.headers.id);
    expect(new Set(ids).size).toBe(2);

    late.unsubscribe();
    late.unsubscribe(); // idempotent: one UNSUBSCRIBE
    await vi.waitFor(() => expect(bus.subscriberCount('/topic/price/BTCUSDT')).toBe(0), SUBSCRIBE_WAIT);
    expect(client.socket().sentFrames().filter((frame) => frame.command === 'UNSUBSCRIBE')).toHaveLength(1);
    bus.publish('/topic/price/BTCUSDT', '{"two":2}');
    bus.publish('/topic/prices', '[]');
    await vi.waitFor(() => expect(early.messages).toHaveLength(2), SUBSCRIBE_WAIT);
    expect(late.messages).toHaveLength(1);
  });

  it('shares one STOMP subscription among callers of one destination (the endpoint refuses a second)', async () => {
    const { url, bus } = await startServer();
    const client = connect(url);
    await client.opened;
    const first = collect(client.connection, '/topic/prices');
    const second = collect(client.connection, '/topic/prices');
    await vi.waitFor(() => expect(bus.subscriberCount('/topic/prices')).toBe(1), SUBSCRIBE_WAIT);
    bus.publish('/topic/prices', '[1]');
    await vi.waitFor(() => expect([first.messages.length, second.messages.length]).toEqual([1, 1]), SUBSCRIBE_WAIT);
    expect(client.socket().sentFrames().filter((frame) => frame.command === 'SUBSCRIBE')).toHaveLength(1);
    expect(client.connection.state).toBe('connected');

    // The first leaves: the subscription stays for the second; the last one ends it.
    first.unsubscribe();
    bus.publish('/topic/prices', '[2]');
    await vi.waitFor(() => expect(second.messages).toHaveLength(2), SUBSCRIBE_WAIT);
    expect(first.messages).toHaveLength(1);
    expect(client.socket().sentFrames().filter((frame) => frame.command === 'UNSUBSCRIBE')).toHaveLength(0);
    second.unsubscribe();
    await vi.waitFor(() => expect(bus.subscriberCount('/topic/prices')).toBe(0), SUBSCRIBE_WAIT);
    expect(client.socket().sentFrames().filter((frame) => frame.command === 'UNSUBSCRIBE')).toHaveLength(1);

    // Subscribing again afterwards is a new subscription.
    const third = collect(client.connection, '/topic/prices');
    await vi.waitFor(() => expect(bus.subscriberCount('/topic/prices')).toBe(1), SUBSCRIBE_WAIT);
    bus.publish('/topic/prices', '[3]');
    await vi.waitFor(() => expect(third.messages).toHaveLength(1), SUBSCRIBE_WAIT);
  });

  it('reads several frames and heart-beats out of one message, as text or as octets', async () => {
    const { url, bus } = await startServer();
    const client = connect(url);
    await client.opened;
    const prices = collect(client.connection, '/topic/prices');
    await vi.waitFor(() => expect(bus.subscriberCount('/topic/prices')).toBe(1), SUBSCRIBE_WAIT);

    for (const as of ['text', 'octets'] as const) {
      const socket = client.socket();
      socket.incoming = 'hold';
      const bodies = ['["é€😀"]', '[]', JSON.stringify([{ symbol: `X${as}` }])];
      for (const body of bodies) bus.publish('/topic/prices', body);
      const before = socket.received.length;
      await vi.waitFor(() => expect(socket.received.length - before).toBe(bodies.length), SUBSCRIBE_WAIT);
      // Heart-beat EOLs between frames, as a server may send them.
      socket.held.splice(1, 0, '\r\n', '\n');
      const start = prices.messages.length;
      socket.release(as);
      expect(prices.messages.slice(start).map((message) => message.body)).toEqual(bodies);
    }
    expect(client.connection.state).toBe('connected');
  });

  it('sends heart-beats when idle and stays up while the server beats', async () => {
    const { url, endpoint } = await startServer({ heartbeatMs: 100 });
    const client = connect(url, { heartbeatMs: 100 });
    const info = await client.opened;
    expect(info.heartbeat).toEqual({ sendMs: 100, receiveMs: 100 });
    await sleep(550);
    // The server drops clients silent for 200 ms, and we for 200 ms of its silence.
    expect(client.connection.state).toBe('connected');
    expect(endpoint.connectionCount()).toBe(1);
    const beatsSent = client.socket().sent.filter((text) => text === '\n').length;
    const beatsReceived = client.socket().received.filter((text) => text === '\n').length;
    expect(beatsSent).toBeGreaterThanOrEqual(3);
    expect(beatsSent).toBeLessThanOrEqual(6);
    expect(beatsReceived).toBeGreaterThanOrEqual(3);

    // Slower wishes win: 300 ms from us against 100 ms from the server.
    const slow = connect(url, { heartbeatMs: 300 });
    expect((await slow.opened).heartbeat).toEqual({ sendMs: 300, receiveMs: 300 });
    // None at all when the server offers none.
    const { url: quietUrl } = await startServer({ heartbeatMs: 0 });
    const quiet = connect(quietUrl, { heartbeatMs: 100 });
    expect((await quiet.opened).heartbeat).toEqual({ sendMs: 0, receiveMs: 0 });
    await sleep(250);
    expect(quiet.socket().sent.filter((text) => text === '\n')).toEqual([]);
    expect(quiet.connection.state).toBe('connected');
  });

  it('closes a server that goes silent for twice its heart-beat interval', async () => {
    const { url, endpoint } = await startServer({ heartbeatMs: 100 });
    const client = connect(url, { heartbeatMs: 100 });
    await client.opened;
    const silentFrom = performance.now();
    client.socket().incoming = 'drop';
    const closed = await client.closed;
    expect(closed).toMatchObject({ reason: 'heartbeat-timeout', wasConnected: true });
    // Its last beat came at most one interval before we stopped listening.
    expect(closed.at - silentFrom).toBeGreaterThanOrEqual(90);
    expect(closed.at - silentFrom).toBeLessThan(1_000);
    expect(client.connection.state).toBe('closed');
    await vi.waitFor(() => expect(endpoint.connectionCount()).toBe(0), SUBSCRIBE_WAIT);
  });

  it('gives up when CONNECTED does not come in time', async () => {
    const { url } = await startServer();
    const client = connect(url, { connectTimeoutMs: 150 });
    client.socket().incoming = 'drop';
    expect(await client.closed).toMatchObject({ reason: 'connect-timeout', wasConnected: false });
    expect(client.events).toEqual(['close']);
  });

  it('reports an ERROR frame, then closes', async () => {
    const { url, bus } = await startServer();
    const client = connect(url);
    await client.opened;
    const secrets = collect(client.connection, '/topic/secrets');
    expect(await client.closed).toMatchObject({ reason: 'error-frame', wasConnected: true, detail: 'unknown destination' });
    expect(client.events).toEqual(['open', 'error', 'close']);
    expect(client.errors[0]).toMatchObject({ message: 'unknown destination', body: expect.stringContaining('/topic/secrets') });
    expect(secrets.messages).toEqual([]);
    expect(bus.subscriberCount('/topic/secrets')).toBe(0);
    // Nothing more can be done with a closed connection, and nothing throws.
    expect(client.connection.state).toBe('closed');
    collect(client.connection, '/topic/prices').unsubscribe();
  });

  it('disconnects with a receipt, then closes', async () => {
    const { url, endpoint, bus } = await startServer();
    const client = connect(url, { disconnectTimeoutMs: 5_000 });
    await client.opened;
    collect(client.connection, '/topic/prices');
    await vi.waitFor(() => expect(bus.subscriberCount('/topic/prices')).toBe(1), SUBSCRIBE_WAIT);
    const started = performance.now();
    const disconnecting = client.connection.disconnect();
    expect(client.connection.state).toBe('disconnecting');
    expect(client.connection.disconnect()).toBe(disconnecting);
    await disconnecting;
    expect(performance.now() - started).toBeLessThan(1_000);
    const disconnect = client.socket().sentFrames().find((frame) => frame.command === 'DISCONNECT');
    expect(disconnect?.headers.receipt).toBeTruthy();
    expect(client.socket().received.some((text) => text.startsWith(`RECEIPT\nreceipt-id:${disconnect?.headers.receipt}\n`))).toBe(true);
    // Ended by the RECEIPT: no socket close code, no timeout detail.
    const closed = await client.closed;
    expect(closed).toMatchObject({ reason: 'disconnect', wasConnected: true });
    expect(closed.code).toBeUndefined();
    expect(closed.detail).toBeUndefined();
    await vi.waitFor(() => expect(endpoint.connectionCount()).toBe(0), SUBSCRIBE_WAIT);
    await client.connection.disconnect(); // already closed: resolves at once
  });

  it('reports the end when the server goes away, and when there is no server', async () => {
    const server = await startServer();
    const client = connect(server.url);
    await client.opened;
    apps.splice(apps.indexOf(server.app), 1);
    await server.app.close();
    expect(await client.closed).toMatchObject({ reason: 'socket-closed', wasConnected: true, code: expect.any(Number) });

    const refused = connect(server.url); // the port is closed now
    expect(await refused.closed).toMatchObject({ reason: 'socket-closed', wasConnected: false });
    expect(refused.events).toEqual(['close']);
  });

  it('reports a socket that cannot even be created as a closed connection', async () => {
    const closed = await new Promise<StompCloseInfo>((resolve) =>
      openStompConnection({
        url: 'ws://127.0.0.1:1/never',
        createSocket: () => {
          throw new SyntaxError('bad URL');
        },
        onClose: resolve,
      }),
    );
    expect(closed).toMatchObject({ reason: 'socket-closed', wasConnected: false, detail: 'bad URL' });
  });
});

describe('market socket against the market endpoint', () => {
  it('subscribes to /topic/prices when following all prices and hands decoded batches to the engine', async () => {
    const { url, bus } = await startServer();
    const received: PriceTick[][] = [];
    const states: ConnectionState[] = [];
    const socket = createMarketSocket({
      url,
      createSocket: (socketUrl, protocols) => new WebSocket(socketUrl, protocols),
      onPrices: (ticks) => received.push(ticks),
      onState: (state) => states.push(state),
    });
    marketSockets.push(socket);
    socket.followPrices({ all: true });
    socket.start();
    await vi.waitFor(() => expect(bus.subscriberCount('/topic/prices')).toBe(1), SUBSCRIBE_WAIT);
    expect(socket.state).toEqual({ status: 'open', failedAttempts: 0, gaveUp: false });
    const tick: PriceTick = {
      symbol: 'BTCUSDT', name: 'Bitcoin ₿', price: '64000.50', bidPrice: '64000.50', askPrice: '64001.00', volume: '12',
      lastUpdate: 1_790_000_000_000, type: 'Cryptos', priceChangePercent: '1.25', low: '63000.00', high: '65000.00',
    };
    bus.publish('/topic/prices', JSON.stringify([tick]));
    await vi.waitFor(() => expect(received).toEqual([[tick]]), SUBSCRIBE_WAIT);
    await socket.stop();
    await vi.waitFor(() => expect(bus.subscriberCount('/topic/prices')).toBe(0), SUBSCRIBE_WAIT);
    expect(states.map((state) => state.status)).toEqual(['connecting', 'open']);
  });

  it('follows per-symbol topics through the real endpoint: a tick of a followed symbol arrives, the dropped one is unsubscribed', async () => {
    const { url, bus } = await startServer();
    const received: PriceTick[][] = [];
    const socket = createMarketSocket({
      url,
      createSocket: (socketUrl, protocols) => new WebSocket(socketUrl, protocols),
      onPrices: (ticks) => received.push(ticks),
      onState: () => undefined,
    });
    marketSockets.push(socket);
    socket.followPrices({ all: false, symbols: ['BTCUSDT', 'ETHUSDT'], everyTick: ['BTCUSDT', 'ETHUSDT'] });
    socket.start();
    await vi.waitFor(() => expect(bus.subscriberCount('/topic/price/ETHUSDT')).toBe(1), SUBSCRIBE_WAIT);
    const tick: PriceTick = {
      symbol: 'BTCUSDT', name: 'Bitcoin', price: '64000.50', bidPrice: '64000.50', askPrice: '64001.00', volume: '12',
      lastUpdate: 1_790_000_000_000, type: 'Cryptos', priceChangePercent: '1.25', low: '63000.00', high: '65000.00',
    };
    bus.publish('/topic/price/BTCUSDT', JSON.stringify(tick));
    await vi.waitFor(() => expect(received).toEqual([[tick]]), SUBSCRIBE_WAIT);
    socket.followPrices({ all: false, symbols: ['BTCUSDT'], everyTick: ['BTCUSDT'] });
    await vi.waitFor(() => expect(bus.subscriberCount('/topic/price/ETHUSDT')).toBe(0), SUBSCRIBE_WAIT);
    expect(bus.subscriberCount('/topic/prices')).toBe(0);
    await socket.stop();
  });
});
