import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { Client, type IMessage, type IStompSocket } from '@stomp/stompjs';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MarketDataSource, RawTick } from '../../server/modules/market/sources/market-data-source';
import type { PriceTick } from '../../src/shared/api/market';
import type { ConnectionState } from '../../src/worker/engine/reconnect-policy';
import { createMarketSocket, type MarketSocket, type MarketSocketOptions } from '../../src/worker/transport/market-socket';
import { startStompTestServer } from './stomp-test-server';
import { startTestServer, testBackends, type TestServer } from './harness';
import { batchTicks } from '../../src/worker/engine/tick-store';

// `ws` ships no type declarations (and @types/ws is not installed): it has the handler properties @stomp/stompjs uses.
type NodeSocket = IStompSocket & { terminate(): void };
const { WebSocket } = createRequire(import.meta.url)('ws') as { WebSocket: new (url: string, protocols?: string[]) => NodeSocket };

const WAIT = { timeout: 4_000, interval: 10 };

/**
 * A `ws` socket as the worker's Client sees it, with a tap: what the client sends is
 * recorded, and what the server sends can be dropped (a server gone silent).
 */
class TappedSocket implements IStompSocket {
  readonly sent: string[] = [];
  /** The server's messages that reached the client. */
  received = 0;
  silent = false;
  onopen: IStompSocket['onopen'] = null;
  onmessage: IStompSocket['onmessage'] = null;
  onclose: IStompSocket['onclose'] = null;
  onerror: IStompSocket['onerror'] = null;

  constructor(readonly inner: NodeSocket) {
    inner.onopen = (event?: unknown) => this.onopen?.(event);
    inner.onmessage = (event: unknown) => {
      if (this.silent) return;
      this.received += 1;
      this.onmessage?.(event);
    };
    inner.onclose = (event?: unknown) => this.onclose?.(event);
    inner.onerror = (event: unknown) => this.onerror?.(event);
  }
  get url() {
    return this.inner.url;
  }
  get readyState() {
    return this.inner.readyState;
  }
  get binaryType() {
    return this.inner.binaryType;
  }
  set binaryType(value: string | undefined) {
    this.inner.binaryType = value;
  }
  send(data: string) {
    this.sent.push(data);
    this.inner.send(data);
  }
  close() {
    this.inner.close();
  }
}

const marketSockets: MarketSocket[] = [];
afterEach(async () => {
  for (const socket of marketSockets.splice(0)) await socket.stop();
});

/** The worker's market socket over `ws`, with what it reports recorded and its sockets tapped. */
function workerSocket(url: string, options: Partial<MarketSocketOptions> = {}) {
  const sockets: TappedSocket[] = [];
  const prices: { ticks: PriceTick[]; glance: boolean }[] = [];
  const states: ConnectionState[] = [];
  const socket = createMarketSocket({
    url,
    createSocket: (socketUrl, protocols) => {
      const tapped = new TappedSocket(new WebSocket(socketUrl, protocols));
      sockets.push(tapped);
      return tapped;
    },
    // Decoded binary ticks are read before the next MESSAGE: kept here as objects.
    onPrices: (ticks, glance) => prices.push({ ticks: [...batchTicks(ticks)], glance: glance === true }),
    onState: (state) => states.push(state),
    ...options,
  });
  marketSockets.push(socket);
  return { socket, sockets, prices, states, ticksOf: (symbol: string) => prices.flatMap((batch) => batch.ticks).filter((tick) => tick.symbol === symbol) };
}

describe.each(testBackends())("the worker's market socket (@stomp/stompjs) against the server on $name", (backend) => {
  let server: TestServer;
  let url = '';
  let emit: ((ticks: RawTick[]) => void) | null = null;
  const source: MarketDataSource = { name: 'scripted', start: (onTicks) => void (emit = onTicks), stop: () => void (emit = null) };
  let bid = 6_400_000;
  /** A new BTCUSDT and EURUSD price, published as the server's flush does. */
  const publish = () => {
    bid += 1;
    emit?.([
      { symbol: 'BTCUSDT', timeMs: Date.now(), bid, ask: bid + 50, volume: 1 },
      { symbol: 'ETHUSDT', timeMs: Date.now(), bid: bid / 20, ask: bid / 20 + 5, volume: 1 },
    ]);
    server.app.market.flush();
    return (bid / 100).toFixed(2);
  };
  // The worker follows the binary form of the batch (`binary-ticks.ts`).
  const followers = (destination: string) => server.app.topicBus.subscriberCount(`octets:${destination}`);

  beforeAll(async () => {
    server = await startTestServer(backend, {}, { marketSource: source });
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(server.app.server.address() as AddressInfo).port}/market/stomp`;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('subscribes to what tabs follow in one batch: the newest price at once, then one MESSAGE per publication carrying every followed tick', async () => {
    const { socket, sockets, prices, states, ticksOf } = workerSocket(url);
    socket.followPrices({ all: false, symbols: ['BTCUSDT', 'ETHUSDT'], everyTick: ['BTCUSDT', 'ETHUSDT'] });
    socket.start();
    await vi.waitFor(() => expect(followers('/topic/price/ETHUSDT')).toBe(1), WAIT);
    expect(states.map((state) => state.status)).toEqual(['connecting', 'open']);
    // The snapshot: the last known price of both, without waiting for a tick.
    await vi.waitFor(() => expect(ticksOf('BTCUSDT').length + ticksOf('ETHUSDT').length).toBeGreaterThanOrEqual(2), WAIT);

    prices.length = 0;
    const received = sockets[0]!.received;
    const price = publish();
    await vi.waitFor(() => expect(ticksOf('BTCUSDT').map((tick) => tick.price)).toEqual([price]), WAIT);
    // Both symbols' ticks came in one MESSAGE of the batch subscription.
    expect(prices).toHaveLength(1);
    expect(prices[0]!.ticks.map((tick) => tick.symbol).sort()).toEqual(['BTCUSDT', 'ETHUSDT']);
    expect(sockets[0]!.received - received).toBe(1);
  });

  it('unsubscribes from a symbol no tab follows any more, and from everything on stop', async () => {
    const { socket, ticksOf } = workerSocket(url);
    socket.followPrices({ all: false, symbols: ['BTCUSDT', 'ETHUSDT'], everyTick: ['BTCUSDT'] });
    socket.start();
    await vi.waitFor(() => expect(followers('/topic/price-1s/ETHUSDT')).toBe(1), WAIT);
    socket.followPrices({ all: false, symbols: ['BTCUSDT'], everyTick: ['BTCUSDT'] });
    await vi.waitFor(() => expect(followers('/topic/price-1s/ETHUSDT')).toBe(0), WAIT);
    const price = publish();
    await vi.waitFor(() => expect(ticksOf('BTCUSDT').at(-1)?.price).toBe(price), WAIT);
    await socket.stop();
    await vi.waitFor(() => expect(followers('/topic/price/BTCUSDT')).toBe(0), WAIT);
  });

  it('after the connection is lost, reconnects by the policy, subscribes to every followed topic again, and prices move', async () => {
    const { socket, sockets, states, ticksOf } = workerSocket(url);
    socket.followPrices({ all: false, symbols: ['BTCUSDT', 'ETHUSDT'], everyTick: ['BTCUSDT'] });
    socket.start();
    await vi.waitFor(() => expect(followers('/topic/price-1s/ETHUSDT')).toBe(1), WAIT);
    sockets[0]!.inner.terminate();
    await vi.waitFor(() => expect(states.at(-1)).toMatchObject({ status: 'closed', failedAttempts: 1, connectionFailed: false }), WAIT);
    await vi.waitFor(() => expect(states.at(-1)?.status).toBe('open'), WAIT);
    expect(sockets).toHaveLength(2);
    await vi.waitFor(() => expect([followers('/topic/price/BTCUSDT'), followers('/topic/price-1s/ETHUSDT')]).toEqual([1, 1]), WAIT);
    const price = publish();
    await vi.waitFor(() => expect(ticksOf('BTCUSDT').at(-1)?.price).toBe(price), WAIT);
  });

  it('follows every symbol through the all-prices topic in the batch, while a client of the documented JSON topic gets JSON', async () => {
    const { socket, ticksOf } = workerSocket(url);
    socket.followPrices({ all: true });
    socket.start();
    const json: string[] = [];
    const other = new Client({ webSocketFactory: () => new WebSocket(url, ['v12.stomp']), reconnectDelay: 0, debug: () => undefined });
    other.onConnect = () => other.subscribe('/topic/prices', (message: IMessage) => json.push(message.body));
    other.activate();
    try {
      await vi.waitFor(() => expect(followers('/topic/prices')).toBe(1), WAIT);
      await vi.waitFor(() => expect(server.app.topicBus.subscriberCount('/topic/prices')).toBe(1), WAIT);
      const price = publish();
      await vi.waitFor(() => expect(ticksOf('BTCUSDT').at(-1)?.price).toBe(price), WAIT);
      await vi.waitFor(() => expect(json.flatMap((body) => JSON.parse(body) as PriceTick[]).some((tick) => tick.symbol === 'BTCUSDT' && tick.price === price)).toBe(true), WAIT);
    } finally {
      await other.deactivate();
    }
  });

  it('refuses a batch member naming no batch of its connection, and a kline topic in a batch', async () => {
    for (const [destination, headers, refusal] of [
      ['/topic/price/BTCUSDT', { batch: 'nope' }, 'unknown batch'],
      ['/topic/kline/BTCUSDT/1min', { batch: 'ticks' }, 'not batchable'],
    ] as const) {
      const errors: string[] = [];
      const client = new Client({ webSocketFactory: () => new WebSocket(url, ['v12.stomp']), reconnectDelay: 0, debug: () => undefined });
      client.onConnect = () => {
        client.subscribe('/topic/ticks', () => undefined, { id: 'ticks' });
        client.subscribe(destination, () => undefined, headers);
      };
      client.onStompError = (frame) => errors.push(frame.headers.message ?? '');
      client.activate();
      try {
        await vi.waitFor(() => expect(errors).toEqual([refusal]), WAIT);
      } finally {
        await client.deactivate();
      }
    }
  });
});

describe("the worker's market socket heart-beats", () => {
  it('beats while idle and stays up while the server beats; a server gone silent is a lost connection, and it reconnects', async () => {
    const { app, url } = await startStompTestServer({ allowedDestination: (destination) => destination === '/topic/ticks', heartbeatMs: 100 });
    try {
      const { socket, sockets, states } = workerSocket(url, { heartbeatMs: 100 });
      socket.start();
      await vi.waitFor(() => expect(states.at(-1)?.status).toBe('open'), WAIT);
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(sockets[0]!.sent.filter((text) => text === '\n').length).toBeGreaterThanOrEqual(3);
      expect(states.at(-1)?.status).toBe('open');
      sockets[0]!.silent = true;
      await vi.waitFor(() => expect(states.some((state) => state.status === 'closed')).toBe(true), WAIT);
      await vi.waitFor(() => expect(states.at(-1)?.status).toBe('open'), WAIT);
      expect(sockets).toHaveLength(2);
    } finally {
      for (const socket of marketSockets.splice(0)) await socket.stop();
      await app.close();
    }
  });
});
