import { Client, type IMessage, type IStompSocket } from '@stomp/stompjs';
import { createRequire } from 'node:module';
import net, { type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  BrokerConnectTimeoutError,
  createBrokerPublisher,
  parseBrokerUrl,
  type BrokerLog,
  type BrokerPublisher,
  type BrokerPublisherOptions,
} from '../../server/modules/market/broker-publisher';
import { teeTopicBus } from '../../server/modules/market/fanout-bus';
import { createTopicBus } from '../../server/modules/market/topic-bus';
import type { PriceTick } from '../../src/shared/api/market';
import { brokerDestination } from '../../src/shared/api/market-broker';

// `ws` ships no type declarations (and @types/ws is not installed): type what the test uses.
type ClientSocketConstructor = new (url: string, protocols?: string[]) => IStompSocket;
const { WebSocket } = createRequire(import.meta.url)('ws') as { WebSocket: ClientSocketConstructor };

/** RabbitMQ's Web-STOMP endpoint, e.g. ws://127.0.0.1:15674/ws; without it the broker tests are skipped. */
const url = process.env.TEST_RABBITMQ_WEB_STOMP_URL;

const WAIT = { timeout: 5_000, interval: 20 };
/** Short retries, so an outage and its recovery take a fraction of a second. */
const FAST_RETRY = { reconnectDelayMs: 50, maxReconnectDelayMs: 100 };
/** Long enough for several failed reconnect attempts while the proxy refuses. */
const OUTAGE_MS = 300;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
// Symbols unique to this run, so runs sharing a broker (or a dev server publishing to it) never see each other's messages.
const runId = `T${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
const symbol = (name: string) => `${name}${runId}`;

function tick(tickSymbol: string, price: string, lastUpdate: number): PriceTick {
  return { symbol: tickSymbol, name: 'Ünïcode €', price, bidPrice: price, askPrice: price, volume: '1', lastUpdate, type: 'Cryptos', priceChangePercent: '0.10', low: price, high: price };
}

function recordingLog(): BrokerLog & { lines: Array<{ level: string; details: object; message: string }> } {
  const lines: Array<{ level: string; details: object; message: string }> = [];
  const at = (level: string) => (details: object, message: string) => void lines.push({ level, details, message });
  return { lines, info: at('info'), warn: at('warn'), error: at('error') };
}

const publishers: BrokerPublisher[] = [];
const cleanups: Array<() => Promise<void>> = [];

function publisher(options: BrokerPublisherOptions): BrokerPublisher {
  const created = createBrokerPublisher(options);
  publishers.push(created);
  return created;
}

afterEach(async () => {
  for (const created of publishers.splice(0)) await created.stop();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A browser stand-in: a real stompjs client at the broker's Web-STOMP endpoint. */
async function openSubscriber(brokerUrl: string) {
  const { socketUrl, login, passcode } = parseBrokerUrl(brokerUrl);
  const client = new Client({
    webSocketFactory: () => new WebSocket(socketUrl, ['v12.stomp', 'v11.stomp', 'v10.stomp']),
    connectHeaders: { login: login ?? 'guest', passcode: passcode ?? 'guest' },
    reconnectDelay: 0,
    debug: () => undefined,
  });
  await new Promise<void>((resolve, reject) => {
    client.onConnect = () => resolve();
    client.onStompError = (frame) => reject(new Error(frame.headers.message ?? 'STOMP error'));
    client.onWebSocketError = () => reject(new Error(`cannot reach ${socketUrl}`));
    client.activate();
  });
  cleanups.push(() => client.deactivate());
  const received = new Map<string, IMessage[]>();
  let receipts = 0;
  return {
    /** Subscribes to the broker name of an app destination and waits for the broker's receipt, so the binding exists. */
    async subscribe(destination: string): Promise<void> {
      const receipt = `sub-${(receipts += 1)}`;
      const bound = new Promise<void>((resolve) => client.watchForReceipt(receipt, () => resolve()));
      received.set(destination, []);
      client.subscribe(brokerDestination(destination), (message) => received.get(destination)?.push(message), { receipt });
      await bound;
    },
    messages: (destination: string) => received.get(destination) ?? [],
    /** Bodies of a destination; for the shared `/topic/prices`, only the batches of this run. */
    bodies: (destination: string) => (received.get(destination) ?? []).map((message) => message.body).filter((body) => body.includes(runId)),
  };
}

/** A TCP relay in front of the broker that can drop every connection and refuse new ones, like a network outage. */
async function outageProxy(brokerUrl: string) {
  const target = new URL(brokerUrl);
  const targetPort = Number(target.port || (target.protocol === 'wss:' ? 443 : 80));
  const sockets = new Set<net.Socket>();
  let down = false;
  const server = net.createServer((incoming) => {
    if (down) {
      incoming.destroy();
      return;
    }
    const outgoing = net.connect(targetPort, target.hostname);
    for (const [from, to] of [[incoming, outgoing], [outgoing, incoming]] as const) {
      sockets.add(from);
      from.pipe(to);
      from.on('error', () => to.destroy());
      from.on('close', () => {
        sockets.delete(from);
        to.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const proxied = new URL(brokerUrl);
  proxied.hostname = '127.0.0.1';
  proxied.port = String((server.address() as AddressInfo).port);
  return {
    url: proxied.toString(),
    cut() {
      down = true;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      down = false;
    },
  };
}

describe('broker publisher without a broker', () => {
  it('takes credentials from the URL user info, percent-decoded, and keeps them out of the socket URL', () => {
    expect(parseBrokerUrl('ws://md%40pub:p%3Ass@127.0.0.1:15674/ws')).toEqual({ socketUrl: 'ws://127.0.0.1:15674/ws', login: 'md@pub', passcode: 'p:ss' });
    expect(parseBrokerUrl('wss://mq.example/ws')).toEqual({ socketUrl: 'wss://mq.example/ws', login: null, passcode: null });
    expect(() => parseBrokerUrl('http://127.0.0.1:15674/ws')).toThrow(TypeError);
    expect(() => createBrokerPublisher({ url: 'ws://127.0.0.1:15674/ws', maxQueuedMessages: 0 })).toThrow(RangeError);
  });

  it('rejects start() with BrokerConnectTimeoutError when nothing answers, and keeps retrying until stopped', async () => {
    // A port that was just free: connections are refused.
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const log = recordingLog();
    const unreachable = publisher({ url: `ws://127.0.0.1:${port}/ws`, startTimeoutMs: 300, log, ...FAST_RETRY });
    const started = unreachable.start();
    await expect(started).rejects.toBeInstanceOf(BrokerConnectTimeoutError);
    await expect(started).rejects.toThrow(/not connected within 300 ms/);
    expect(unreachable.connected()).toBe(false);
    // Publishing while down neither throws nor blocks.
    unreachable.publish('/topic/prices', '[]');
    expect(log.lines.filter((line) => line.level === 'warn')).toHaveLength(1);
  });
});

describe.skipIf(!url)('broker publisher against RabbitMQ Web-STOMP', () => {
  const brokerUrl = url ?? '';

  it('delivers /topic/prices, a price topic and a kline topic published through the tee bus, bodies unchanged', async () => {
    const broker = publisher({ url: brokerUrl });
    await broker.start();
    expect(broker.connected()).toBe(true);
    const subscriber = await openSubscriber(brokerUrl);
    const btc = symbol('BTC');
    const priceTopic = `/topic/price/${btc}`;
    const klineTopic = `/topic/kline/${btc}/1min`;
    // A dotted symbol: its broker name has an extra routing-key word, and still matches exactly.
    const dottedKline = `/topic/kline/${symbol('BRK.')}/5min`;
    for (const destination of ['/topic/prices', priceTopic, klineTopic, dottedKline]) await subscriber.subscribe(destination);

    const local = createTopicBus();
    const bus = teeTopicBus(local, broker);
    // Nobody subscribes at the server, yet the market-data service must publish these for the broker.
    expect(bus.subscriberCount(priceTopic)).toBeGreaterThan(0);
    expect(bus.subscriberCount(klineTopic)).toBeGreaterThan(0);
    const localPrices: string[] = [];
    bus.subscribe('/topic/prices', (body) => localPrices.push(body));

    const batch = JSON.stringify([tick(btc, '97000.12', 1), tick(symbol('ETH'), '3500.5', 1)]);
    const price = JSON.stringify(tick(btc, '97000.12', 1));
    const bar = JSON.stringify({ time: 1_700_000_000_000, openPrice: '1', closePrice: '2', name: `Ünïcode € ${runId}` });
    const dottedBar = JSON.stringify({ time: 1_700_000_000_000, closePrice: '3', run: runId });
    bus.publish('/topic/prices', batch);
    bus.publish(priceTopic, price);
    bus.publish(klineTopic, bar);
    bus.publish(dottedKline, dottedBar);

    await vi.waitFor(() => {
      expect(subscriber.bodies('/topic/prices')).toEqual([batch]);
      expect(subscriber.bodies(priceTopic)).toEqual([price]);
      expect(subscriber.bodies(klineTopic)).toEqual([bar]);
      expect(subscriber.bodies(dottedKline)).toEqual([dottedBar]);
    }, WAIT);
    expect(localPrices).toEqual([batch]);
    const [klineMessage] = subscriber.messages(klineTopic);
    expect(klineMessage?.headers['content-type']).toBe('application/json');
    expect(klineMessage?.headers.destination).toBe(`/topic/kline.${btc}.1min`);
    expect(subscriber.messages(dottedKline)[0]?.headers.destination).toBe(`/topic/kline.${symbol('BRK.')}.5min`);
  });

  it('while the connection is down keeps only the latest per destination (prices batches merged by symbol), then delivers it after reconnecting', async () => {
    const proxy = await outageProxy(brokerUrl);
    const log = recordingLog();
    const broker = publisher({ url: proxy.url, log, ...FAST_RETRY });
    await broker.start();
    const subscriber = await openSubscriber(brokerUrl);
    const btc = symbol('BTC');
    const eth = symbol('ETH');
    const priceTopic = `/topic/price/${btc}`;
    const klineTopic = `/topic/kline/${btc}/1min`;
    for (const destination of ['/topic/prices', priceTopic, klineTopic]) await subscriber.subscribe(destination);
    const bus = teeTopicBus(createTopicBus(), broker);

    proxy.cut();
    await vi.waitFor(() => expect(broker.connected()).toBe(false), WAIT);
    const prices = [1, 2, 3].map((n) => JSON.stringify(tick(btc, `${n}.00`, n)));
    const bars = [1, 2].map((n) => JSON.stringify({ time: n, closePrice: `${n}.00`, run: runId }));
    for (const body of prices) bus.publish(priceTopic, body);
    for (const body of bars) bus.publish(klineTopic, body);
    bus.publish('/topic/prices', JSON.stringify([tick(btc, '1.00', 1)]));
    bus.publish('/topic/prices', JSON.stringify([tick(eth, '10.00', 2)]));
    bus.publish('/topic/prices', JSON.stringify([tick(btc, '3.00', 3)]));
    await sleep(OUTAGE_MS);
    expect(broker.connected()).toBe(false);
    expect([...subscriber.bodies('/topic/prices'), ...subscriber.bodies(priceTopic), ...subscriber.bodies(klineTopic)]).toEqual([]);

    proxy.restore();
    await vi.waitFor(() => expect(broker.connected()).toBe(true), WAIT);
    // Sent after the reconnect on the same destinations: arriving after the flushed ones
    // proves nothing else was flushed before them (one publisher, one queue per subscription).
    const lastPrice = JSON.stringify(tick(btc, '4.00', 4));
    const lastBar = JSON.stringify({ time: 3, closePrice: '3.00', run: runId });
    const lastBatch = JSON.stringify([tick(eth, '11.00', 4)]);
    bus.publish(priceTopic, lastPrice);
    bus.publish(klineTopic, lastBar);
    bus.publish('/topic/prices', lastBatch);

    await vi.waitFor(() => {
      expect(subscriber.bodies(priceTopic)).toEqual([prices[2], lastPrice]);
      expect(subscriber.bodies(klineTopic)).toEqual([bars[1], lastBar]);
      expect(subscriber.bodies('/topic/prices')).toEqual([JSON.stringify([tick(btc, '3.00', 3), tick(eth, '10.00', 2)]), lastBatch]);
    }, WAIT);
    expect(log.lines.filter((line) => line.level === 'warn')).toHaveLength(1);
    expect(log.lines.at(-1)).toMatchObject({ level: 'info', message: 'market broker connected', details: { flushed: 3, dropped: 0, superseded: 5 } });
  });

  it('bounds the queue by maxQueuedMessages, dropping the least recently updated destination', async () => {
    const proxy = await outageProxy(brokerUrl);
    const log = recordingLog();
    const broker = publisher({ url: proxy.url, log, maxQueuedMessages: 2, ...FAST_RETRY });
    await broker.start();
    const subscriber = await openSubscriber(brokerUrl);
    const priceA = `/topic/price/${symbol('AAA')}`;
    const priceB = `/topic/price/${symbol('BBB')}`;
    const klineA = `/topic/kline/${symbol('AAA')}/1h`;
    for (const destination of [priceA, priceB, klineA]) await subscriber.subscribe(destination);

    proxy.cut();
    await vi.waitFor(() => expect(broker.connected()).toBe(false), WAIT);
    const body = (label: string) => JSON.stringify({ label, run: runId });
    broker.publish(priceA, body('a1'));
    broker.publish(klineA, body('k1'));
    // Updating A moves it to the newest end, so the kline is now the least recently updated.
    broker.publish(priceA, body('a2'));
    broker.publish(priceB, body('b1'));
    proxy.restore();
    await vi.waitFor(() => expect(broker.connected()).toBe(true), WAIT);
    broker.publish(klineA, body('k2'));

    await vi.waitFor(() => {
      expect(subscriber.bodies(priceA)).toEqual([body('a2')]);
      expect(subscriber.bodies(priceB)).toEqual([body('b1')]);
      expect(subscriber.bodies(klineA)).toEqual([body('k2')]);
    }, WAIT);
    expect(log.lines.at(-1)).toMatchObject({ details: { flushed: 2, dropped: 1, superseded: 1 } });
  });

  it('fails start() at once when the broker refuses the credentials', async () => {
    const { socketUrl } = parseBrokerUrl(brokerUrl);
    const log = recordingLog();
    const refused = publisher({ url: socketUrl, login: `nobody-${runId}`, passcode: 'wrong', log, reconnectDelayMs: 5_000 });
    const startedAt = performance.now();
    await expect(refused.start()).rejects.toThrow(/market broker at ws.*: Bad CONNECT/);
    expect(performance.now() - startedAt).toBeLessThan(3_000);
    expect(refused.connected()).toBe(false);
    expect(log.lines.some((line) => line.level === 'error')).toBe(true);
  });
});
