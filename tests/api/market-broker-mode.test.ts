import { createRequire } from 'node:module';
import { Client, type IStompSocket } from '@stomp/stompjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MarketDataSource, RawTick } from '../../server/modules/market/sources/market-data-source';
import type { PriceTick } from '../../src/shared/api/market';
import { createMarketSocket } from '../../src/worker/transport/market-socket';
import { startTestServer, testBackends, type TestServer } from './harness';
import { batchTicks } from '../../src/worker/engine/tick-store';

type ClientSocketConstructor = new (url: string, protocols?: string[]) => IStompSocket;
const { WebSocket } = createRequire(import.meta.url)('ws') as { WebSocket: ClientSocketConstructor };
const brokerUrl = process.env.TEST_RABBITMQ_WEB_STOMP_URL;

// Only RabbitMQ's presence is optional (a developer's machine); CI sets the URL.
describe.skipIf(!brokerUrl)('server in scale-out mode publishes prices to RabbitMQ', () => {
  let server: TestServer;
  let emit: ((ticks: RawTick[]) => void) | null = null;
  const source: MarketDataSource = { name: 'scripted', start: (onTicks) => void (emit = onTicks), stop: () => void (emit = null) };
  const [pglite] = testBackends();

  beforeAll(async () => {
    server = await startTestServer(pglite!, { MARKET_BROKER_URL: brokerUrl! }, { marketSource: source });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('delivers the batched /topic/prices at the broker, where browsers subscribe', async () => {
    const received: string[] = [];
    const reader = new Client({ webSocketFactory: () => new WebSocket(brokerUrl!, ['v12.stomp']), reconnectDelay: 0, debug: () => undefined });
    await new Promise<void>((resolve, reject) => {
      reader.onConnect = () => {
        reader.subscribe('/topic/prices', (message) => received.push(message.body));
        resolve();
      };
      reader.onStompError = (frame) => reject(new Error(frame.headers.message));
      reader.activate();
    });
    try {
      // The publisher connects in the background; publish until a batch gets through. Other
      // servers the tests run at the same time (the cluster files) publish their own prices to
      // the same broker: ours are told apart by a price no simulated Bitcoin has (11,1xx).
      const ours = () =>
        received.flatMap((body) => JSON.parse(body) as { symbol: string; price: string }[]).find((tick) => tick.symbol === 'BTCUSDT' && /^111\d{2}\.\d{2}$/.test(tick.price));
      const deadline = Date.now() + 8_000;
      let bid = 1_110_000;
      while (!ours() && Date.now() < deadline) {
        bid += 1;
        emit?.([{ symbol: 'BTCUSDT', timeMs: Date.now(), bid, ask: bid + 20, volume: 1 }]);
        server.app.market.flush();
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(ours()).toMatchObject({ symbol: 'BTCUSDT', price: expect.stringMatching(/^111\d{2}\.\d{2}$/) });
    } finally {
      await reader.deactivate();
    }
  });
  it.each([
    ['one symbol, through its dotted per-symbol topic', { all: false, symbols: ['BTCUSDT'], everyTick: ['BTCUSDT'] }],
    ['one symbol glanced at, through its dotted once-a-second topic', { all: false, symbols: ['BTCUSDT'], everyTick: [] }],
    ['every symbol, through the all-prices topic', { all: true }],
  ] as const)("reaches the worker's own market socket pointed at the broker (config.json marketSocketUrl): %s", async (_, selection) => {
    const batches: PriceTick[][] = [];
    const states: string[] = [];
    const socket = createMarketSocket({
      url: brokerUrl!,
      onPrices: (ticks) => batches.push([...batchTicks(ticks)]),
      onState: (state) => states.push(state.status),
      createSocket: (url, protocols) => new WebSocket(url, protocols),
      // The app names destinations the broker's way when its market socket points at one.
      brokerNaming: true,
    });
    // The engine follows what its tabs show; nothing is subscribed until it says so.
    socket.followPrices(selection);
    socket.start();
    try {
      // Ours told apart from other test servers' prices on the same broker, as above (22,2xx).
      const ours = () => batches.flat().find((tick) => tick.symbol === 'BTCUSDT' && /^222\d{2}\.\d{2}$/.test(tick.price));
      const deadline = Date.now() + 8_000;
      let bid = 2_220_000;
      while (!ours() && Date.now() < deadline) {
        bid += 1;
        emit?.([{ symbol: 'BTCUSDT', timeMs: Date.now(), bid, ask: bid + 20, volume: 1 }]);
        server.app.market.flush();
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(states).toContain('open');
      expect(ours()).toMatchObject({ symbol: 'BTCUSDT', price: expect.stringMatching(/^222\d{2}\.\d{2}$/) });
    } finally {
      await socket.stop();
    }
  });
});
