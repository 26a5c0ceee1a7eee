import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MarketDataSource, RawTick } from '../../server/modules/market/sources/market-data-source';
import { startTestServer, testBackends, type TestServer } from './harness';

type ClientSocket = WebSocket;

const clock = Date.parse('2026-01-13T12:00:00Z');

/** Opens a socket (offering compression or not), answers the upgrade's extensions header and the STOMP MESSAGE bodies that arrive. */
async function openSocket(url: string, options: { compression: boolean; protocols?: string[] }) {
  const socket = new WebSocket(url, options.protocols ?? [], { perMessageDeflate: options.compression });
  sockets.push(socket);
  const bodies: string[] = [];
  let wake: (() => void) | null = null;
  let extensionsHeader: string | undefined;
  socket.on('upgrade', (response) => (extensionsHeader = response.headers['sec-websocket-extensions'] as string | undefined));
  socket.on('message', (data) => {
    const text = data.toString();
    if (text.startsWith('MESSAGE')) bodies.push(text.slice(text.indexOf('\n\n') + 2, text.lastIndexOf('\0')));
    wake?.();
  });
  socket.on('error', () => undefined);
  await new Promise<void>((resolve) => socket.on('open', resolve));
  return {
    socket,
    extensionsHeader: () => extensionsHeader,
    async nextBody(): Promise<string> {
      while (bodies.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      return bodies.shift()!;
    },
  };
}

const sockets: ClientSocket[] = [];
type OpenedSocket = Awaited<ReturnType<typeof openSocket>>;

/** Connects, subscribes to EURUSD and answers the first price that arrives. */
async function priceThrough(client: OpenedSocket) {
  client.socket.send('CONNECT\naccept-version:1.2\nhost:/\nheart-beat:0,0\n\n\0');
  client.socket.send('SUBSCRIBE\nid:1\ndestination:/topic/price/EURUSD\n\n\0');
  return JSON.parse(await client.nextBody()) as { symbol: string; bidPrice: string };
}

describe.each(testBackends())('socket compression on $name', (backend) => {
  let server: TestServer;
  let base = '';
  let emit: ((ticks: RawTick[]) => void) | null = null;
  const source: MarketDataSource = { name: 'scripted', start: (onTicks) => void (emit = onTicks), stop: () => void (emit = null) };

  beforeAll(async () => {
    server = await startTestServer(backend, {}, { marketSource: source, nowMs: () => clock });
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    base = `ws://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
    emit?.([{ symbol: 'EURUSD', timeMs: clock, bid: 108500, ask: 108512, volume: 1 }]);
    server.app.market.flush();
  });
  afterAll(async () => {
    for (const socket of sockets.splice(0)) socket.terminate();
    await server?.close();
  });

  it('the market endpoint negotiates permessage-deflate with a bounded window, and prices arrive through it', async () => {
    const client = await openSocket(`${base}/market/stomp`, { compression: true, protocols: ['v12.stomp'] });
    expect(client.socket.extensions).toMatch(/^permessage-deflate/);
    expect(client.extensionsHeader()).toContain('server_max_window_bits=12');
    expect(client.extensionsHeader()).toContain('client_max_window_bits=10');
    // By default each socket keeps its context: the fewest bytes for a phone.
    expect(client.extensionsHeader()).not.toContain('server_no_context_takeover');
    expect(await priceThrough(client)).toMatchObject({ symbol: 'EURUSD', bidPrice: '1.08500' });
  });

  it('a client without compression gets plain frames and the same prices', async () => {
    const client = await openSocket(`${base}/market/stomp`, { compression: false, protocols: ['v12.stomp'] });
    expect(client.socket.extensions).toBe('');
    expect(client.extensionsHeader()).toBeUndefined();
    expect(await priceThrough(client)).toMatchObject({ symbol: 'EURUSD', bidPrice: '1.08500' });
  });

  it('the exchange socket negotiates it too', async () => {
    const client = await openSocket(`${base}/exchange/ws`, { compression: true });
    expect(client.extensionsHeader()).toMatch(/^permessage-deflate/);
  });
});

/** A server on `SOCKET_COMPRESSION=setting` with one EURUSD price, and a client offering permessage-deflate on its market endpoint. */
async function withCompressionSetting(setting: string, check: (client: OpenedSocket) => Promise<void>) {
  const [backend] = testBackends();
  const feed: { emit: ((ticks: RawTick[]) => void) | null } = { emit: null };
  const source: MarketDataSource = { name: 'scripted', start: (onTicks) => void (feed.emit = onTicks), stop: () => void (feed.emit = null) };
  const server = await startTestServer(backend!, { SOCKET_COMPRESSION: setting }, { marketSource: source, nowMs: () => clock });
  try {
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    feed.emit?.([{ symbol: 'EURUSD', timeMs: clock, bid: 108500, ask: 108512, volume: 1 }]);
    server.app.market.flush();
    const url = `ws://127.0.0.1:${(server.app.server.address() as AddressInfo).port}/market/stomp`;
    const client = await openSocket(url, { compression: true, protocols: ['v12.stomp'] });
    try {
      await check(client);
    } finally {
      client.socket.terminate();
    }
  } finally {
    await server.close();
  }
}

describe('socket compression settings', () => {
  it('SOCKET_COMPRESSION=0 answers no extension to a client that offers it', async () => {
    await withCompressionSetting('0', async (client) => {
      expect(client.extensionsHeader()).toBeUndefined();
    });
  });

  it('SOCKET_COMPRESSION=shared negotiates no server context takeover, and prices still arrive', async () => {
    await withCompressionSetting('shared', async (client) => {
      expect(client.extensionsHeader()).toContain('server_no_context_takeover');
      expect(await priceThrough(client)).toMatchObject({ symbol: 'EURUSD', bidPrice: '1.08500' });
    });
  });

  it('refuses a SOCKET_COMPRESSION it does not know, naming the setting', async () => {
    const [backend] = testBackends();
    await expect(startTestServer(backend!, { SOCKET_COMPRESSION: 'always' })).rejects.toThrow(/SOCKET_COMPRESSION/);
  });
});
