import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { instruments } from '../../server/modules/market/catalogue';
import { binanceStreamSource, type BinanceStreamOptions } from '../../server/modules/market/sources/binance-stream';
import type { MarketDataSource, RawTick } from '../../server/modules/market/sources/market-data-source';

// `ws` ships no type declarations (and @types/ws is not installed): type what the tests use.
interface ServerSocket {
  send(data: string): void;
  ping(): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
  on(event: 'close', listener: () => void): void;
}
interface SocketServer {
  readonly clients: Set<ServerSocket>;
  address(): AddressInfo;
  on(event: 'listening', listener: () => void): void;
  on(event: 'connection', listener: (socket: ServerSocket, request: { url?: string }) => void): void;
  close(callback?: () => void): void;
}
interface SocketServerOptions {
  host: string;
  port: number;
  verifyClient?: (info: { req: { url?: string } }, done: (accept: boolean) => void) => void;
}
const { WebSocketServer } = createRequire(import.meta.url)('ws') as { WebSocketServer: new (options: SocketServerOptions) => SocketServer };

const WAIT_MS = 2_000;
/** The fixed receive clock of the source: bookTicker ticks carry it. */
const T0 = 1_717_171_717_000;
/** Long enough that a burst sent in one go on loopback always lands in one batch. */
const BATCH_MS = 100;
const RECONNECTING = 'binance stream closed: reconnecting';

const btc = instruments.find((instrument) => instrument.code === 'BTCUSDT')!;
const eth = instruments.find((instrument) => instrument.code === 'ETHUSDT')!;

/** Recorded from the combined stream (ids shortened), times moved to around T0. */
const recorded = {
  btcTradeBeforeQuote:
    '{"stream":"btcusdt@aggTrade","data":{"e":"aggTrade","E":1717171716990,"s":"BTCUSDT","a":3016543210,"p":"67012.35000000","q":"0.00210000","f":3590000001,"l":3590000001,"T":1717171716989,"m":false,"M":true}}',
  btcQuote1:
    '{"stream":"btcusdt@bookTicker","data":{"u":48012345678,"s":"BTCUSDT","b":"67012.34000000","B":"1.52341000","a":"67012.35000000","A":"0.41200000"}}',
  ethQuote1:
    '{"stream":"ethusdt@bookTicker","data":{"u":35012345678,"s":"ETHUSDT","b":"3501.10000000","B":"12.40120000","a":"3501.11000000","A":"3.01000000"}}',
  btcTrade1:
    '{"stream":"btcusdt@aggTrade","data":{"e":"aggTrade","E":1717171716996,"s":"BTCUSDT","a":3016543211,"p":"67012.35000000","q":"0.00150000","f":3590000002,"l":3590000003,"T":1717171716995,"m":false,"M":true}}',
  btcTrade2:
    '{"stream":"btcusdt@aggTrade","data":{"e":"aggTrade","E":1717171716999,"s":"BTCUSDT","a":3016543212,"p":"67012.34000000","q":"0.25000000","f":3590000004,"l":3590000009,"T":1717171716998,"m":true,"M":true}}',
  // Binance's clock runs a little ahead of ours here.
  ethTrade1:
    '{"stream":"ethusdt@aggTrade","data":{"e":"aggTrade","E":1717171717004,"s":"ETHUSDT","a":1401234567,"p":"3501.11000000","q":"1.20400000","f":2010000001,"l":2010000002,"T":1717171717003,"m":false,"M":true}}',
  btcQuote2:
    '{"stream":"btcusdt@bookTicker","data":{"u":48012345690,"s":"BTCUSDT","b":"67012.50000000","B":"0.08000000","a":"67012.51000000","A":"2.11900000"}}',
  bnbQuote:
    '{"stream":"bnbusdt@bookTicker","data":{"u":400900217,"s":"BNBUSDT","b":"25.35190000","B":"31.21000000","a":"25.36520000","A":"40.66000000"}}',
  // An hour-old trade (e.g. replayed after a reconnect): its tick must not step back in time.
  btcTradeOld:
    '{"stream":"btcusdt@aggTrade","data":{"e":"aggTrade","E":1717168117000,"s":"BTCUSDT","a":3016543000,"p":"67010.00000000","q":"0.01000000","f":3589999001,"l":3589999001,"T":1717168117000,"m":true,"M":true}}',
  ethTrade2:
    '{"stream":"ethusdt@aggTrade","data":{"e":"aggTrade","E":1717171717011,"s":"ETHUSDT","a":1401234568,"p":"3501.10000000","q":"3.50000000","f":2010000003,"l":2010000005,"T":1717171717010,"m":true,"M":true}}',
  ethTrade3:
    '{"stream":"ethusdt@aggTrade","data":{"e":"aggTrade","E":1717171717013,"s":"ETHUSDT","a":1401234569,"p":"3501.11000000","q":"0.50000000","f":2010000006,"l":2010000006,"T":1717171717012,"m":false,"M":true}}',
};
const malformed = [
  'not json',
  '{"stream":"ethusdt@bookTicker","data":{"u":35012345679,"s":"ETHUSDT","b":"3501.12000000","B":"1.00000000"}}', // no ask
  '{"stream":"ethusdt@bookTicker","data":{"u":35012345680,"s":"ETHUSDT","b":"3502.00000000","B":"1.0","a":"3501.00000000","A":"1.0"}}', // ask < bid
  '{"result":null,"id":1}',
];
const firstBurst = [
  recorded.btcTradeBeforeQuote,
  recorded.btcQuote1,
  recorded.ethQuote1,
  malformed[0]!,
  recorded.btcTrade1,
  recorded.btcTrade2,
  recorded.bnbQuote,
  malformed[1]!,
  recorded.ethTrade1,
  malformed[2]!,
  recorded.btcQuote2,
  malformed[3]!,
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(condition: () => boolean, what: string, timeoutMs = WAIT_MS) {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

interface Connection {
  socket: ServerSocket;
  url: string;
  openedAt: number;
  closed: boolean;
}

const servers: SocketServer[] = [];
const sources: MarketDataSource[] = [];

afterEach(async () => {
  for (const source of sources.splice(0)) source.stop();
  for (const server of servers.splice(0)) {
    for (const socket of server.clients) socket.terminate();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** A local stand-in for Binance: records every connection and lets the test drive it. */
async function startServer(onConnection?: (connection: Connection, index: number) => void, options: Partial<SocketServerOptions> = {}) {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, ...options });
  servers.push(server);
  await new Promise<void>((resolve) => server.on('listening', resolve));
  const connections: Connection[] = [];
  server.on('connection', (socket, request) => {
    const connection: Connection = { socket, url: request.url ?? '', openedAt: performance.now(), closed: false };
    socket.on('close', () => {
      connection.closed = true;
    });
    connections.push(connection);
    onConnection?.(connection, connections.length - 1);
  });
  return { base: `ws://127.0.0.1:${server.address().port}`, connections };
}

function startSource(options: BinanceStreamOptions) {
  const batches: RawTick[][] = [];
  const log = { info: vi.fn<(details: object, message: string) => void>(), warn: vi.fn<(details: object, message: string) => void>() };
  const source = binanceStreamSource({ nowMs: () => T0, batchMs: BATCH_MS, log, ...options });
  sources.push(source);
  source.start((ticks) => batches.push(ticks));
  const reconnectDelays = () =>
    log.warn.mock.calls.filter(([, message]) => message === RECONNECTING).map(([details]) => (details as { delayMs: number }).delayMs);
  return { source, batches, log, reconnectDelays };
}

describe('binance stream source', () => {
  it('requests the combined bookTicker and aggTrade streams of its instruments, once', async () => {
    const server = await startServer();
    const { source } = startSource({ instruments: [btc, eth], baseUrl: `${server.base}/stream` });
    source.start(() => {}); // already started: no second connection
    await waitFor(() => server.connections.length === 1, 'the connection');
    expect(server.connections[0]!.url).toBe('/stream?streams=btcusdt@bookTicker/btcusdt@aggTrade/ethusdt@bookTicker/ethusdt@aggTrade');

    const quotesOnly = await startServer();
    startSource({ instruments: [eth], baseUrl: `${quotesOnly.base}/stream`, trades: false });
    const explicit = await startServer();
    startSource({ instruments: [btc], url: `${explicit.base}/ws/btcusdt@bookTicker` });
    await waitFor(() => quotesOnly.connections.length === 1 && explicit.connections.length === 1, 'the other connections');
    expect(quotesOnly.connections[0]!.url).toBe('/stream?streams=ethusdt@bookTicker');
    expect(explicit.connections[0]!.url).toBe('/ws/btcusdt@bookTicker');
    await sleep(50);
    expect(server.connections).toHaveLength(1);
  });

  it('turns recorded messages into exact ticks: coalesced per batch, trade volume summed, junk ignored', async () => {
    const server = await startServer((connection) => {
      for (const message of firstBurst) connection.socket.send(message);
    });
    const { batches, log } = startSource({ instruments: [btc, eth], baseUrl: `${server.base}/stream` });
    await waitFor(() => batches.length === 1, 'the first batch');
    // The trade before any quote is skipped; BNBUSDT (not an instrument here) and the junk are ignored.
    expect(batches[0]).toEqual([
      { symbol: 'BTCUSDT', timeMs: T0, bid: 6701250, ask: 6701251, volume: 1 + 1 },
      { symbol: 'ETHUSDT', timeMs: T0 + 3, bid: 350110, ask: 350111, volume: 2 },
    ]);

    // Trades alone carry the last quote; an old trade time does not move the tick back.
    for (const message of [recorded.btcTradeOld, recorded.ethTrade2, recorded.ethTrade3]) server.connections[0]!.socket.send(message);
    await waitFor(() => batches.length === 2, 'the second batch');
    expect(batches[1]).toEqual([
      { symbol: 'BTCUSDT', timeMs: T0, bid: 6701250, ask: 6701251, volume: 1 },
      { symbol: 'ETHUSDT', timeMs: T0 + 12, bid: 350110, ask: 350111, volume: 4 + 1 },
    ]);
    await sleep(2 * BATCH_MS);
    expect(batches).toHaveLength(2);
    expect(log.warn).not.toHaveBeenCalled();
  });

  it('reconnects after a drop, 500 ms × attempt capped (scaled down here), resetting once data flows', async () => {
    const droppedAt: number[] = [];
    const drop = (connection: Connection, how: 'close' | 'terminate') => {
      droppedAt.push(performance.now());
      if (how === 'close') connection.socket.close(1001, 'going away');
      else connection.socket.terminate();
    };
    const server = await startServer((connection, index) => {
      if (index === 0) {
        // Served, then closed the way Binance ends a connection after 24 h.
        connection.socket.send(recorded.btcQuote1);
        setTimeout(() => drop(connection, 'close'), BATCH_MS * 2);
      } else if (index <= 2) drop(connection, index === 1 ? 'terminate' : 'close'); // accepted, then dropped at once
      else {
        // Quotes from before the gap are forgotten: this trade waits for the next quote.
        connection.socket.send(recorded.btcTrade1);
        connection.socket.send(recorded.btcQuote2);
        connection.socket.send(recorded.btcTrade2);
      }
    });
    const { batches, reconnectDelays } = startSource({
      instruments: [btc, eth],
      baseUrl: `${server.base}/stream`,
      reconnectStepMs: 40,
      maxReconnectDelayMs: 100,
    });
    await waitFor(() => batches.length === 2, 'ticks after reconnecting');
    expect(server.connections).toHaveLength(4);
    expect(server.connections.every((connection) => connection.url === server.connections[0]!.url)).toBe(true);
    expect(batches[0]).toEqual([{ symbol: 'BTCUSDT', timeMs: T0, bid: 6701234, ask: 6701235, volume: 0 }]);
    expect(batches[1]).toEqual([{ symbol: 'BTCUSDT', timeMs: T0, bid: 6701250, ask: 6701251, volume: 1 }]);
    // 40 after a connection that delivered, then 80, then 120 capped at 100.
    expect(reconnectDelays()).toEqual([40, 80, 100]);
    reconnectDelays().forEach((delayMs, index) => {
      // Timers may fire up to a millisecond early against performance.now().
      expect(server.connections[index + 1]!.openedAt - droppedAt[index]!).toBeGreaterThanOrEqual(delayMs - 2);
    });
    await sleep(150);
    expect(server.connections).toHaveLength(4);
  });

  it('reconnects when the connection goes silent, not while Binance keeps pinging', async () => {
    const pinging = await startServer((connection) => {
      const timer = setInterval(() => connection.socket.ping(), 20);
      connection.socket.on('close', () => clearInterval(timer));
    });
    const kept = startSource({ instruments: [btc], baseUrl: `${pinging.base}/stream`, staleAfterMs: 100 });
    const silent = await startServer();
    const dropped = startSource({ instruments: [btc], baseUrl: `${silent.base}/stream`, staleAfterMs: 100, reconnectStepMs: 10 });
    await waitFor(() => silent.connections.length === 2, 'a reconnection after silence');
    await waitFor(() => silent.connections[0]!.closed, 'the silent connection to be dropped');
    await sleep(150);
    expect(pinging.connections).toHaveLength(1);
    expect(pinging.connections[0]!.closed).toBe(false);
    expect(kept.reconnectDelays()).toEqual([]);
    expect(dropped.reconnectDelays()[0]).toBe(10);
  });

  it('stop() closes the connection, drops what is buffered and never reconnects', async () => {
    const server = await startServer((connection) => connection.socket.send(recorded.btcQuote1));
    const { source, batches, log } = startSource({ instruments: [btc], baseUrl: `${server.base}/stream`, batchMs: 1_000, reconnectStepMs: 10 });
    await waitFor(() => server.connections.length === 1, 'the connection');
    await sleep(30); // the quote is in, its batch not yet due
    source.stop();
    await waitFor(() => server.connections[0]!.closed, 'the close');
    await sleep(100);
    expect(server.connections).toHaveLength(1);
    expect(batches).toEqual([]);
    expect(log.warn).not.toHaveBeenCalled();

    // Started again, it connects afresh.
    source.start((ticks) => batches.push(ticks));
    await waitFor(() => server.connections.length === 2, 'the new connection');
    source.stop();
  });

  it('stop() during the reconnect wait, or the opening handshake, ends it all', async () => {
    const dropping = await startServer((connection) => connection.socket.terminate());
    const waiting = startSource({ instruments: [btc], baseUrl: `${dropping.base}/stream`, reconnectStepMs: 100 });
    await waitFor(() => waiting.reconnectDelays().length === 1, 'the reconnect to be scheduled');
    waiting.source.stop();

    let upgrades = 0;
    const held: ((accept: boolean) => void)[] = [];
    const hanging = await startServer(undefined, {
      // The two-argument form is asynchronous: not calling `done` yet leaves the handshake hanging.
      verifyClient: (_info, done) => {
        upgrades += 1;
        held.push(done);
      },
    });
    const connecting = startSource({ instruments: [btc], baseUrl: `${hanging.base}/stream`, reconnectStepMs: 10 });
    await waitFor(() => upgrades === 1, 'the upgrade request');
    connecting.source.stop();

    await sleep(250);
    expect(dropping.connections).toHaveLength(1);
    expect(waiting.reconnectDelays()).toEqual([100]);
    expect(upgrades).toBe(1);
    expect(connecting.reconnectDelays()).toEqual([]);
    expect(connecting.log.warn).not.toHaveBeenCalled();
    // An upgrading socket is not read, so the server would not notice the abort: refuse it to free it.
    for (const done of held) done(false);
  });
});
