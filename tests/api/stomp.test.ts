import fastifyWebsocket from '@fastify/websocket';
import { Client, type IMessage, type IStompSocket } from '@stomp/stompjs';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_FRAME_LIMITS, parseMessage, serializeFrame, type ParsedItem, type StompFrame } from '../../server/modules/market/stomp/frame';
import { registerStompEndpoint, type StompEndpointOptions } from '../../server/modules/market/stomp/stomp-endpoint';
import { createTopicBus } from '../../server/modules/market/topic-bus';
import type { PriceTick } from '../../src/shared/api/market';
import { createTickLinesDecoder, createTickLinesEncoder } from '../../src/shared/market/tick-lines';
import { binaryTicksMessageBytes, createBinaryTickDecoder, createBinaryTickEncoder } from '../../src/shared/market/binary-ticks';
import { priceTick } from '../unit/support/price-tick';
import { startStompTestServer, type StompTestServer } from './stomp-test-server';

// `ws` ships no type declarations (and @types/ws is not installed): type what the tests use.
interface ClientSocket {
  readonly protocol: string;
  readonly readyState: number;
  send(data: string): void;
  close(code?: number): void;
  terminate(): void;
  on(event: 'open', listener: () => void): void;
  on(event: 'message', listener: (data: Uint8Array, isBinary: boolean) => void): void;
  on(event: 'close', listener: (code: number, reason: Uint8Array) => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
}
type ClientSocketConstructor = new (url: string, protocols?: string[], options?: { localAddress?: string }) => ClientSocket;
const { WebSocket } = createRequire(import.meta.url)('ws') as { WebSocket: ClientSocketConstructor };

const WAIT_MS = 2_000;
// The server's MESSAGE frames may be larger than what it accepts from clients.
const serverFrameLimits = { ...DEFAULT_FRAME_LIMITS, maxFrameBytes: 16 * 1024 * 1024 };
const SOCKET_OPEN = 1;
const SYMBOL_PATTERN = '[A-Z0-9]{2,20}';
const PERIODS = '1min|5min|15min|30min|1h|1d';
const allowedDestinations = [
  /^\/topic\/prices$/,
  new RegExp(`^/topic/price/${SYMBOL_PATTERN}$`),
  new RegExp(`^/topic/kline/${SYMBOL_PATTERN}/(${PERIODS})$`),
];

function allowedDestination(destination: string): boolean {
  return allowedDestinations.some((pattern) => pattern.test(destination));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Received {
  item: ParsedItem;
  at: number;
}

/** A raw `ws` client that speaks STOMP frames by hand and queues what arrives. */
class RawClient {
  readonly received: Received[] = [];
  /** Parse errors of what the server sent: always expected to stay empty. */
  readonly malformed: string[] = [];
  private cursor = 0;
  private wake: (() => void) | null = null;
  readonly closed: Promise<{ code: number; reason: string; at: number }>;

  private constructor(readonly socket: ClientSocket) {
    socket.on('message', (data) => {
      const parsed = parseMessage(new Uint8Array(data), serverFrameLimits);
      if (parsed.ok) for (const item of parsed.items) this.received.push({ item, at: performance.now() });
      else this.malformed.push(parsed.error.code);
      this.wake?.();
    });
    this.closed = new Promise((resolve) => {
      socket.on('close', (code, reason) => {
        resolve({ code, reason: Buffer.from(reason).toString(), at: performance.now() });
        this.wake?.();
      });
    });
  }

  static open(url: string, protocols?: string[], options?: { localAddress?: string }): Promise<RawClient> {
    const socket = new WebSocket(url, protocols, options);
    const client = new RawClient(socket);
    clients.push(client);
    return new Promise((resolve, reject) => {
      socket.on('open', () => resolve(client));
      socket.on('error', reject);
    });
  }

  get isOpen(): boolean {
    return this.socket.readyState === SOCKET_OPEN;
  }

  send(text: string): void {
    this.socket.send(text);
  }

  sendFrame(command: 'CONNECT' | 'STOMP' | 'SEND' | 'SUBSCRIBE' | 'UNSUBSCRIBE' | 'ACK' | 'DISCONNECT', headers: Record<string, string>, body?: string) {
    this.send(serializeFrame(body === undefined ? { command, headers } : { command, headers, body }));
  }

  /** The next item (frame or heart-beat) received, waiting for it if need be. */
  async next(timeoutMs = WAIT_MS): Promise<Received> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      if (this.malformed.length > 0) throw new Error(`server sent a malformed frame: ${this.malformed.join(', ')}`);
      const item = this.received[this.cursor];
      if (item) {
        this.cursor += 1;
        return item;
      }
      const remaining = deadline - performance.now();
      if (remaining <= 0) throw new Error('nothing received in time');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
  }

  /** The next frame, skipping heart-beats. */
  async nextFrame(timeoutMs = WAIT_MS): Promise<StompFrame> {
    for (;;) {
      const { item } = await this.next(timeoutMs);
      if (item.kind === 'frame') return item.frame;
    }
  }

  async connect(heartBeat = '0,0'): Promise<StompFrame> {
    this.sendFrame('CONNECT', { 'accept-version': '1.2', host: 'localhost', 'heart-beat': heartBeat });
    const frame = await this.nextFrame();
    expect(frame.command).toBe('CONNECTED');
    return frame;
  }

  async subscribe(id: string, destination: string): Promise<void> {
    this.sendFrame('SUBSCRIBE', { id, destination, receipt: `sub-${id}` });
    const receipt = await this.nextFrame();
    expect(receipt).toMatchObject({ command: 'RECEIPT', headers: { 'receipt-id': `sub-${id}` } });
  }

  /** Expects an ERROR frame followed by the server closing the socket. */
  async expectErrorAndClose(): Promise<StompFrame> {
    const frame = await this.nextFrame();
    expect(frame.command).toBe('ERROR');
    expect(frame.headers.message).toBeTruthy();
    const { code } = await this.closed;
    expect(code).toBe(1002);
    return frame;
  }
}

type TestServer = StompTestServer;

const clients: RawClient[] = [];
const apps: FastifyInstance[] = [];

async function startServer(overrides: Partial<StompEndpointOptions> = {}): Promise<TestServer> {
  const server = await startStompTestServer({ allowedDestination, ...overrides });
  apps.push(server.app);
  return server;
}

afterEach(async () => {
  for (const client of clients.splice(0)) {
    client.socket.terminate();
    expect(client.malformed).toEqual([]);
  }
  for (const app of apps.splice(0)) await app.close();
});

describe('market STOMP endpoint with a raw ws client', () => {
  it('answers v12.stomp when offered, and also works without a subprotocol', async () => {
    const { url } = await startServer();
    expect((await RawClient.open(url, ['v10.stomp', 'v12.stomp', 'v11.stomp'])).socket.protocol).toBe('v12.stomp');
    expect((await RawClient.open(url, ['v11.stomp'])).socket.protocol).toBe('v11.stomp');
    const bare = await RawClient.open(url);
    expect(bare.socket.protocol).toBe('');
    await bare.connect();
    await expect(RawClient.open(url, ['mqtt'])).rejects.toThrow(/subprotocol/);
  });

  it('answers CONNECT with CONNECTED, version 1.2, its heart-beat and server name', async () => {
    const { url } = await startServer();
    const client = await RawClient.open(url, ['v12.stomp']);
    const connected = await client.connect('5000,20000');
    expect(connected.headers.version).toBe('1.2');
    expect(connected.headers['heart-beat']).toBe('10000,10000');
    expect(connected.headers.server).toMatch(/^tradeweb-market\//);

    const viaStomp = await RawClient.open(url);
    viaStomp.sendFrame('STOMP', { 'accept-version': '1.1,1.2' });
    expect((await viaStomp.nextFrame()).headers.version).toBe('1.2');
  });

  it('refuses a first frame other than CONNECT, and clients without 1.2', async () => {
    const { url } = await startServer();
    const early = await RawClient.open(url);
    early.sendFrame('SUBSCRIBE', { id: '1', destination: '/topic/prices' });
    expect((await early.expectErrorAndClose()).headers.message).toBe('CONNECT expected');

    const old = await RawClient.open(url);
    old.sendFrame('CONNECT', { 'accept-version': '1.0,1.1' });
    expect((await old.expectErrorAndClose()).headers.message).toBe('unsupported version');

    const badBeat = await RawClient.open(url);
    badBeat.sendFrame('CONNECT', { 'accept-version': '1.2', 'heart-beat': 'soon' });
    expect((await badBeat.expectErrorAndClose()).headers.message).toBe('malformed heart-beat');
  });

  it('delivers bus publishes as MESSAGE frames with the right headers', async () => {
    const { url, bus } = await startServer();
    const client = await RawClient.open(url, ['v12.stomp']);
    await client.connect();
    await client.subscribe('sub-0', '/topic/price/BTCUSDT');
    expect(bus.subscriberCount('/topic/price/BTCUSDT')).toBe(1);

    const tick = JSON.stringify({ symbol: 'BTCUSDT', name: 'Bitcoin ₿', price: 64000.5 });
    bus.publish('/topic/price/BTCUSDT', tick);
    bus.publish('/topic/price/ETHUSDT', '{"ignored":true}');
    bus.publish('/topic/price/BTCUSDT', '{"second":true}');

    const first = await client.nextFrame();
    expect(first.command).toBe('MESSAGE');
    expect(first.body).toBe(tick);
    expect(first.headers).toMatchObject({
      destination: '/topic/price/BTCUSDT',
      subscription: 'sub-0',
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(tick)),
    });
    const second = await client.nextFrame();
    expect(second.body).toBe('{"second":true}');
    expect(Number(second.headers['message-id'])).toBeGreaterThan(Number(first.headers['message-id']));
  });

  it('sends a new subscriber the destination’s snapshot at once (the last prices of products that do not tick, such as closed markets)', async () => {
    const lastPrices = '[{"symbol":"AAPL","price":"189.50"}]';
    const { url, bus } = await startServer({ snapshotOf: (destination) => (destination === '/topic/prices' ? lastPrices : null) });
    const client = await RawClient.open(url);
    await client.connect();
    await client.subscribe('a', '/topic/prices');
    expect(await client.nextFrame()).toMatchObject({ command: 'MESSAGE', body: lastPrices, headers: { subscription: 'a', destination: '/topic/prices' } });
    // A destination without a snapshot gets only what is published.
    await client.subscribe('b', '/topic/kline/BTCUSDT/1min');
    bus.publish('/topic/kline/BTCUSDT/1min', '{"bar":1}');
    expect(await client.nextFrame()).toMatchObject({ command: 'MESSAGE', body: '{"bar":1}', headers: { subscription: 'b' } });
  });

  it('stops delivery after UNSUBSCRIBE and frees the bus destination', async () => {
    const { url, bus } = await startServer();
    const client = await RawClient.open(url);
    await client.connect();
    await client.subscribe('a', '/topic/prices');
    await client.subscribe('b', '/topic/kline/BTCUSDT/1min');
    client.sendFrame('UNSUBSCRIBE', { id: 'a', receipt: 'gone' });
    expect(await client.nextFrame()).toMatchObject({ command: 'RECEIPT', headers: { 'receipt-id': 'gone' } });
    expect(bus.subscriberCount('/topic/prices')).toBe(0);

    // Publishes are delivered in order, so the next frame proves the first was not sent.
    bus.publish('/topic/prices', '["after unsubscribe"]');
    bus.publish('/topic/kline/BTCUSDT/1min', '{"bar":1}');
    expect(await client.nextFrame()).toMatchObject({ command: 'MESSAGE', body: '{"bar":1}', headers: { subscription: 'b' } });
  });

  it('answers a malformed frame with ERROR and closes', async () => {
    const { url } = await startServer();
    const unterminated = await RawClient.open(url);
    await unterminated.connect();
    unterminated.send('SUBSCRIBE\nid:1\ndestination:/topic/prices\n\n');
    const error = await unterminated.expectErrorAndClose();
    expect(error.headers.message).toBe('malformed frame');
    expect(error.body).toMatch(/incomplete-frame/);

    const unknown = await RawClient.open(url);
    await unknown.connect();
    unknown.send('HELLO\n\n\0');
    expect((await unknown.expectErrorAndClose()).body).toMatch(/unknown-command/);

    const badEscape = await RawClient.open(url);
    badEscape.send('CONNECT\naccept-version:1.2\n\n\0SUBSCRIBE\nid:\\t\ndestination:/topic/prices\n\n\0');
    expect((await badEscape.expectErrorAndClose()).body).toMatch(/invalid-escape/);
  });

  it('refuses unknown destinations, naming the receipt', async () => {
    const { url, bus } = await startServer();
    const client = await RawClient.open(url);
    await client.connect();
    client.sendFrame('SUBSCRIBE', { id: '1', destination: '/topic/secrets', receipt: 'r-1' });
    const error = await client.expectErrorAndClose();
    expect(error.headers).toMatchObject({ message: 'unknown destination', 'receipt-id': 'r-1' });
    expect(bus.subscriberCount('/topic/secrets')).toBe(0);

    const badPeriod = await RawClient.open(url);
    await badPeriod.connect();
    badPeriod.sendFrame('SUBSCRIBE', { id: '1', destination: '/topic/kline/BTCUSDT/7min' });
    expect((await badPeriod.expectErrorAndClose()).headers.message).toBe('unknown destination');
  });

  it('refuses SEND, since the endpoint is read-only', async () => {
    const { url } = await startServer();
    const client = await RawClient.open(url);
    await client.connect();
    client.sendFrame('SEND', { destination: '/topic/prices' }, '[]');
    expect((await client.expectErrorAndClose()).headers.message).toBe('read-only endpoint');
  });

  it('refuses missing ids, duplicate ids, a second subscription to one destination, ack modes other than auto and too many subscriptions', async () => {
    const { url } = await startServer({ maxSubscriptionsPerConnection: 2 });
    const cases: Array<{ setup: string[]; frame: Record<string, string>; message: string }> = [
      { setup: [], frame: { destination: '/topic/prices' }, message: 'missing id' },
      { setup: [], frame: { id: '1' }, message: 'missing destination' },
      { setup: ['1'], frame: { id: '1', destination: '/topic/price/ETHUSDT' }, message: 'duplicate subscription' },
      { setup: ['1'], frame: { id: '2', destination: '/topic/price/S1X' }, message: 'duplicate destination' },
      { setup: [], frame: { id: '1', destination: '/topic/prices', ack: 'client' }, message: 'ack not supported' },
      { setup: ['1', '2'], frame: { id: '3', destination: '/topic/prices' }, message: 'too many subscriptions' },
    ];
    for (const { setup, frame, message } of cases) {
      const client = await RawClient.open(url);
      await client.connect();
      for (const id of setup) await client.subscribe(id, `/topic/price/S${id}X`);
      client.sendFrame('SUBSCRIBE', frame);
      expect((await client.expectErrorAndClose()).headers.message).toBe(message);
    }
  });

  it('allows a destination again after UNSUBSCRIBE', async () => {
    const { url, bus } = await startServer();
    const client = await RawClient.open(url);
    await client.connect();
    await client.subscribe('a', '/topic/prices');
    client.sendFrame('UNSUBSCRIBE', { id: 'a', receipt: 'gone' });
    expect(await client.nextFrame()).toMatchObject({ command: 'RECEIPT', headers: { 'receipt-id': 'gone' } });
    await client.subscribe('b', '/topic/prices');
    expect(bus.subscriberCount('/topic/prices')).toBe(1);
  });

  it('refuses connections from one address over its limit (4429), not from another address, and takes one again after a close', async () => {
    const { url, endpoint } = await startServer({ maxConnectionsPerAddress: 2 });
    const first = await RawClient.open(url);
    const second = await RawClient.open(url);
    await first.connect();
    await second.connect();
    const third = await RawClient.open(url);
    expect(await third.closed).toMatchObject({ code: 4429, reason: 'too many connections from this address' });

    const elsewhere = await RawClient.open(url, undefined, { localAddress: '127.0.0.2' });
    await elsewhere.connect();
    expect(endpoint.connectionCount()).toBe(3);

    first.socket.close();
    await first.closed;
    await vi.waitFor(() => expect(endpoint.connectionCount()).toBe(2));
    const again = await RawClient.open(url);
    await again.connect();
    expect(again.isOpen).toBe(true);
  });

  it('answers DISCONNECT with its receipt, then closes', async () => {
    const { url } = await startServer();
    const client = await RawClient.open(url);
    await client.connect();
    client.sendFrame('DISCONNECT', { receipt: 'bye' });
    expect(await client.nextFrame()).toMatchObject({ command: 'RECEIPT', headers: { 'receipt-id': 'bye' } });
    expect((await client.closed).code).toBe(1000);
  });

  it('frees all subscriptions and counts connections as they come and go', async () => {
    const { url, bus, endpoint } = await startServer();
    expect(endpoint.connectionCount()).toBe(0);
    const first = await RawClient.open(url);
    const second = await RawClient.open(url);
    await vi.waitFor(() => expect(endpoint.connectionCount()).toBe(2));

    await first.connect();
    await first.subscribe('p', '/topic/prices');
    await first.subscribe('k', '/topic/kline/ETHUSDT/1h');
    await second.connect();
    await second.subscribe('p', '/topic/prices');
    expect(bus.subscriberCount('/topic/prices')).toBe(2);

    first.socket.terminate(); // abrupt: no DISCONNECT, no close handshake
    await vi.waitFor(() => expect(endpoint.connectionCount()).toBe(1));
    expect(bus.subscriberCount('/topic/prices')).toBe(1);
    expect(bus.subscriberCount('/topic/kline/ETHUSDT/1h')).toBe(0);

    second.socket.close();
    await vi.waitFor(() => expect(endpoint.connectionCount()).toBe(0));
    expect(bus.subscriberCount('/topic/prices')).toBe(0);
  });

  it('sends heart-beats at the negotiated interval when otherwise idle', async () => {
    const { url } = await startServer({ heartbeatMs: 100 });
    const client = await RawClient.open(url);
    const connected = await client.connect('0,100');
    expect(connected.headers['heart-beat']).toBe('100,100');
    const connectedAt = client.received[0]?.at ?? 0;
    const beats: number[] = [];
    while (beats.length < 3) {
      const { item, at } = await client.next();
      expect(item.kind).toBe('heartbeat');
      beats.push(at);
    }
    const gaps = [beats[0]! - connectedAt, beats[1]! - beats[0]!, beats[2]! - beats[1]!];
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(80);

    // The client asks for beats every 300 ms: the slower of the two wins.
    const slow = await RawClient.open(url);
    await slow.connect('0,300');
    const slowConnectedAt = slow.received[0]?.at ?? 0;
    const beat = await slow.next();
    expect(beat.item.kind).toBe('heartbeat');
    expect(beat.at - slowConnectedAt).toBeGreaterThanOrEqual(250);
  });

  it('sends no heart-beats and expects none when the client declines them', async () => {
    const { url } = await startServer({ heartbeatMs: 50 });
    const client = await RawClient.open(url);
    await client.connect('0,0');
    await sleep(250);
    expect(client.received).toHaveLength(1);
    expect(client.isOpen).toBe(true);
  });

  it('closes a client that stays silent for twice its heart-beat interval, not one that beats', async () => {
    // 300 ms beats (a 600 ms timeout) and a beat every 50 ms: a loaded machine's late timers stay well inside it.
    const { url, endpoint } = await startServer({ heartbeatMs: 300 });
    const beating = await RawClient.open(url);
    await beating.connect('300,0');
    const beatTimer = setInterval(() => beating.send('\n'), 50);

    const silent = await RawClient.open(url);
    const connectSentAt = performance.now();
    await silent.connect('300,0');
    const error = await silent.nextFrame();
    expect(error).toMatchObject({ command: 'ERROR', headers: { message: 'heart-beat timeout' } });
    const { at } = await silent.closed;
    expect(at - connectSentAt).toBeGreaterThanOrEqual(590);
    expect(at - connectSentAt).toBeLessThan(WAIT_MS);

    await sleep(150);
    clearInterval(beatTimer);
    expect(beating.isOpen).toBe(true);
    await vi.waitFor(() => expect(endpoint.connectionCount()).toBe(1));
  });

  it('closes a socket that never sends CONNECT', async () => {
    const { url } = await startServer({ connectTimeoutMs: 100 });
    const client = await RawClient.open(url);
    expect((await client.expectErrorAndClose()).headers.message).toBe('CONNECT expected');
  });

  it('closes a socket that sends an oversize message', async () => {
    const { url } = await startServer();
    const client = await RawClient.open(url);
    await client.connect();
    client.send(`SEND\n\n${'x'.repeat(70 * 1024)}\0`);
    expect((await client.closed).code).toBe(1009);
  });

  it('drops messages to a slow consumer instead of buffering them, and resumes once drained', async () => {
    const { url, bus } = await startServer({ maxBufferedBytes: 64 * 1024 });
    const client = await RawClient.open(url);
    await client.connect();
    await client.subscribe('p', '/topic/prices');

    // All in one tick: the client cannot read meanwhile, so the server's queue fills
    // well past the limit once the kernel's socket buffers are full.
    // Random text: the client takes permessage-deflate, and what fills the queue is what goes on the wire, compressed.
    const body = JSON.stringify({ filler: randomBytes(48 * 1024).toString('base64') });
    const published = 400;
    for (let index = 0; index < published; index += 1) bus.publish('/topic/prices', body);

    let marker = 0;
    const isMarker = (entry: Received) => entry.item.kind === 'frame' && entry.item.frame.body.startsWith('{"marker"');
    await vi.waitFor(
      () => {
        bus.publish('/topic/prices', JSON.stringify({ marker: (marker += 1) }));
        expect(client.received.some(isMarker)).toBe(true);
      },
      { timeout: 10_000, interval: 20 },
    );
    const messages = client.received.flatMap((entry) =>
      entry.item.kind === 'frame' && entry.item.frame.command === 'MESSAGE' && !isMarker(entry) ? [entry.item.frame] : [],
    );
    expect(messages.length).toBeGreaterThan(0);
    expect(messages.length).toBeLessThan(published);
    const ids = messages.map((frame) => Number(frame.headers['message-id']));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });
});

describe('tick lines for a slow consumer', () => {
  it("after dropping a batch's MESSAGEs, sends its members' state before the next publication, so that every price reads right again", async () => {
    const source = 'lines:/topic/prices';
    const encoder = createTickLinesEncoder('p');
    const latest = new Map<string, PriceTick>();
    const { url, bus } = await startServer({
      maxBufferedBytes: 64 * 1024,
      allowedDestination: (destination) => destination === '/topic/ticks' || destination === '/topic/prices',
      batchDestination: '/topic/ticks',
      batchSourceOf: (destination) => (destination === '/topic/prices' ? source : null),
      snapshotOf: (destination) => (destination === source ? encoder.snapshot([...latest.values()]) : null),
    });
    const client = await RawClient.open(url);
    await client.connect();
    client.sendFrame('SUBSCRIBE', { id: 'ticks', destination: '/topic/ticks', receipt: 'batch' });
    client.sendFrame('SUBSCRIBE', { id: 'prices', destination: '/topic/prices', batch: 'ticks', receipt: 'member' });
    expect(await client.nextFrame()).toMatchObject({ command: 'RECEIPT' });
    expect(await client.nextFrame()).toMatchObject({ command: 'RECEIPT' });
    const publish = (ticks: PriceTick[]) => {
      for (const tick of ticks) latest.set(tick.symbol, tick);
      bus.publish(source, encoder.encode(ticks));
    };
    const symbols = Array.from({ length: 32 }, (_, index) => `S${index}`);
    // All in one tick, as in the test above: long random names (each tick whole, as a renamed product) and a volume that grows.
    const published = 400;
    for (let round = 1; round <= published; round += 1) {
      publish(symbols.map((symbol) => priceTick(symbol, '1.00', round, { name: randomBytes(1_200).toString('base64'), volume: String(round) })));
    }
    // Then only the bid moves: a change line, the names and volumes being those of the last round.
    let marker = 0;
    const bodies = () => client.received.flatMap((entry) => (entry.item.kind === 'frame' && entry.item.frame.headers.destination === '/topic/ticks' ? [entry.item.frame.body] : []));
    await vi.waitFor(
      () => {
        marker += 1;
        publish(symbols.map((symbol) => ({ ...latest.get(symbol)!, price: `2.${marker}`, bidPrice: `2.${marker}`, lastUpdate: published + marker })));
        const previous = new RegExp(`\\t2\\.${marker - 1}(\\n|$)`);
        expect(bodies().some((body) => previous.test(body))).toBe(true);
      },
      { timeout: 10_000, interval: 20 },
    );
    const decoder = createTickLinesDecoder();
    const seen = new Map<string, PriceTick>();
    const received = bodies();
    expect(received.length).toBeLessThan(published);
    for (const body of received) {
      const ticks = decoder.decode(body);
      expect(ticks).not.toBeNull();
      for (const tick of ticks ?? []) seen.set(tick.symbol, tick);
    }
    // Whatever reached the client last, it reads as the server published it, names and volumes included.
    const last = [...seen.values()];
    const lastMarker = Number(last[0]?.bidPrice.slice(2));
    expect(last).toEqual(symbols.map((symbol) => ({ ...latest.get(symbol)!, price: `2.${lastMarker}`, bidPrice: `2.${lastMarker}`, lastUpdate: published + lastMarker })));
  });
});

/** A binary body as the market data service puts it on the bus: a binary string, one character an octet. */
const onBus = (octets: Uint8Array) => Buffer.from(octets).toString('latin1');

/** @stomp/stompjs's Client (the worker's), connected, with the bodies of the batch subscription's MESSAGEs as they arrive. */
async function binaryBatchClient(url: string, members: string[]) {
  const client = new Client({ webSocketFactory: () => new WebSocket(url, ['v12.stomp']) as unknown as IStompSocket, reconnectDelay: 0, heartbeatIncoming: 0, heartbeatOutgoing: 0 });
  const bodies: { body: Uint8Array; contentType: string | undefined }[] = [];
  const connected = new Promise<void>((resolve) => {
    client.onConnect = () => resolve();
  });
  client.activate();
  await connected;
  client.subscribe('/topic/ticks', (message) => bodies.push({ body: message.binaryBody, contentType: message.headers['content-type'] }), { id: 'ticks', 'tick-form': 'binary' });
  for (const member of members) client.subscribe(member, () => undefined, { batch: 'ticks' });
  return { client, bodies };
}

describe('binary ticks at the endpoint', () => {
  it('answers a batch that asks for the binary form in binary MESSAGEs of its binary sources, and refuses a form it does not know', async () => {
    const encoder = createBinaryTickEncoder('p');
    const { url, bus } = await startServer({
      allowedDestination: (destination) => destination === '/topic/ticks' || destination === '/topic/prices',
      batchDestination: '/topic/ticks',
      batchSourceOf: (destination, binary) => (destination === '/topic/prices' ? (binary ? 'octets:/topic/prices' : 'lines:/topic/prices') : null),
    });
    const { client, bodies } = await binaryBatchClient(url, ['/topic/prices']);
    try {
      await vi.waitFor(() => expect(bus.subscriberCount('octets:/topic/prices')).toBe(1));
      expect(bus.subscriberCount('lines:/topic/prices')).toBe(0);
      // Many symbols, so that the batch is cut into several MESSAGEs; every octet value, NUL included, in the names.
      const first = Array.from({ length: 3_000 }, (_, index) => priceTick(`S${index}`, '1.00', 1_790_000_000_000 + index, { name: `\u0000${String.fromCharCode(index % 0x3000)}` }));
      const moved = first.map((tick) => ({ ...tick, price: '1.01', bidPrice: '1.01', lastUpdate: tick.lastUpdate + 100 }));
      bus.publish('octets:/topic/prices', onBus(encoder.encode(first)));
      bus.publish('octets:/topic/prices', onBus(encoder.encode(moved)));
      const decoder = createBinaryTickDecoder();
      await vi.waitFor(() => expect(bodies.flatMap(({ body }) => decoder.decode(body) ?? [])).toHaveLength(6_000));
      expect(bodies.length).toBeGreaterThan(2);
      expect(new Set(bodies.map(({ contentType }) => contentType))).toEqual(new Set(['application/octet-stream']));
      for (const { body } of bodies) expect(body.length).toBeLessThanOrEqual(binaryTicksMessageBytes);
      const again = createBinaryTickDecoder();
      expect(bodies.flatMap(({ body }) => again.decode(body) ?? [null])).toEqual([...first, ...moved]);
    } finally {
      await client.deactivate();
    }
    const raw = await RawClient.open(url);
    await raw.connect();
    raw.sendFrame('SUBSCRIBE', { id: 'ticks', destination: '/topic/ticks', 'tick-form': 'protobuf' });
    expect((await raw.expectErrorAndClose()).headers.message).toBe('unknown tick form');
  });

  it("after dropping a batch's MESSAGEs, sends its members' state instead of the next publication, so that every price reads right again", async () => {
    const source = 'octets:/topic/prices';
    const encoder = createBinaryTickEncoder('p');
    const latest = new Map<string, PriceTick>();
    const { url, bus } = await startServer({
      maxBufferedBytes: 64 * 1024,
      allowedDestination: (destination) => destination === '/topic/ticks' || destination === '/topic/prices',
      batchDestination: '/topic/ticks',
      batchSourceOf: (destination, binary) => (destination === '/topic/prices' && binary ? source : null),
      snapshotOf: (destination) => (destination === source ? onBus(encoder.snapshot([...latest.values()])) : null),
    });
    const { client, bodies } = await binaryBatchClient(url, ['/topic/prices']);
    try {
      await vi.waitFor(() => expect(bus.subscriberCount(source)).toBe(1));
      const publish = (ticks: PriceTick[]) => {
        for (const tick of ticks) latest.set(tick.symbol, tick);
        bus.publish(source, onBus(encoder.encode(ticks)));
      };
      const symbols = Array.from({ length: 32 }, (_, index) => `S${index}`);
      // All in one task, so that the socket's buffer fills: long random names (each tick whole) and a volume that grows.
      const published = 400;
      for (let round = 1; round <= published; round += 1) {
        publish(symbols.map((symbol) => priceTick(symbol, '1.00', round, { name: randomBytes(1_200).toString('base64'), volume: String(round) })));
      }
      // Then only the bid moves, by one unit of the same digits each time: a difference applied twice or to a missed state reads wrong for good.
      const bid = (marker: number) => (2 + marker / 1000).toFixed(3);
      const decoder = createBinaryTickDecoder();
      const seen = new Map<string, PriceTick>();
      let read = 0;
      let marker = 0;
      await vi.waitFor(
        () => {
          marker += 1;
          publish(symbols.map((symbol) => ({ ...latest.get(symbol)!, price: bid(marker), bidPrice: bid(marker), lastUpdate: published + marker })));
          for (; read < bodies.length; read += 1) {
            const ticks = decoder.decode(bodies[read]!.body);
            expect(ticks).not.toBeNull();
            for (const tick of ticks ?? []) seen.set(tick.symbol, tick);
          }
          expect(seen.get('S0')?.bidPrice).toBe(bid(marker - 1));
        },
        { timeout: 10_000, interval: 20 },
      );
      expect(bodies.length).toBeLessThan(published);
      // Whatever reached the client last, it reads as the server published it, names and volumes included.
      const lastMarker = Math.round((Number(seen.get('S0')!.bidPrice) - 2) * 1000);
      expect([...seen.values()]).toEqual(symbols.map((symbol) => ({ ...latest.get(symbol)!, price: bid(lastMarker), bidPrice: bid(lastMarker), lastUpdate: published + lastMarker })));
    } finally {
      await client.deactivate();
    }
  });
});

describe('market STOMP endpoint registration', () => {
  async function listen(app: FastifyInstance): Promise<string> {
    await app.listen({ port: 0, host: '127.0.0.1' });
    return `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  }

  it('works inside an encapsulated, prefixed plugin', async () => {
    const app = Fastify({ logger: false });
    apps.push(app);
    const bus = createTopicBus();
    await app.register(
      async (scope) => {
        await registerStompEndpoint(scope, { path: '/stomp', bus, allowedDestination });
      },
      { prefix: '/market' },
    );
    const client = await RawClient.open(`${await listen(app)}/market/stomp`, ['v11.stomp', 'v12.stomp']);
    expect(client.socket.protocol).toBe('v12.stomp');
    await client.connect();
    await client.subscribe('1', '/topic/prices');
    bus.publish('/topic/prices', '[]');
    expect((await client.nextFrame()).body).toBe('[]');
  });

  it('reuses an already registered @fastify/websocket and refuses foreign subprotocols', async () => {
    const app = Fastify({ logger: false });
    apps.push(app);
    await app.register(fastifyWebsocket);
    await registerStompEndpoint(app, { path: '/market/stomp', bus: createTopicBus(), allowedDestination });
    const url = `${await listen(app)}/market/stomp`;
    const stomp = await RawClient.open(url, ['v12.stomp']);
    await stomp.connect();
    const foreign = await RawClient.open(url, ['mqtt']);
    expect((await foreign.closed).code).toBe(1002);
  });
});

describe('market STOMP endpoint with @stomp/stompjs', () => {
  it('connects, subscribes, receives a message and unsubscribes', async () => {
    const { url, bus, endpoint } = await startServer();
    const client = new Client({
      webSocketFactory: () => new WebSocket(url, ['v12.stomp', 'v11.stomp', 'v10.stomp']) as unknown as IStompSocket,
      reconnectDelay: 0,
      heartbeatIncoming: 1_000,
      heartbeatOutgoing: 1_000,
    });
    const connected = new Promise<void>((resolve) => {
      client.onConnect = () => resolve();
    });
    client.activate();
    try {
      await connected;
      const received = new Promise<IMessage>((resolve) => {
        const subscription = client.subscribe('/topic/kline/BTCUSDT/5min', (message) => {
          subscription.unsubscribe();
          resolve(message);
        });
      });
      await vi.waitFor(() => expect(bus.subscriberCount('/topic/kline/BTCUSDT/5min')).toBe(1));
      const bar = JSON.stringify({ time: 1_700_000_000_000, openPrice: 1, closePrice: 2, name: 'Ünïcode' });
      bus.publish('/topic/kline/BTCUSDT/5min', bar);
      const message = await received;
      expect(message.body).toBe(bar);
      expect(JSON.parse(message.body)).toEqual(JSON.parse(bar));
      expect(message.headers.destination).toBe('/topic/kline/BTCUSDT/5min');
      expect(message.headers['content-type']).toBe('application/json');
      await vi.waitFor(() => expect(bus.subscriberCount('/topic/kline/BTCUSDT/5min')).toBe(0));
      expect(endpoint.connectionCount()).toBe(1);
    } finally {
      await client.deactivate();
    }
    await vi.waitFor(() => expect(endpoint.connectionCount()).toBe(0));
  });
});
