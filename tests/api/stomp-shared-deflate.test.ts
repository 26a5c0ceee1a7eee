import { randomBytes } from 'node:crypto';
import net from 'node:net';
import zlib from 'node:zlib';
import WebSocket from 'ws';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_FRAME_LIMITS, parseMessage, serializeFrame, type OutgoingFrame, type StompFrame } from '../../server/modules/market/stomp/frame';
import { startStompTestServer, type StompTestServer } from './stomp-test-server';

/**
 * The market endpoint deflates a publication once and writes the same compressed frame to
 * every socket that negotiated permessage-deflate (server_no_context_takeover), between the
 * frames ws sends itself. A context or ordering mistake would show here as a frame that
 * does not inflate, a frame out of place, or a receipt ahead of what was sent before it.
 */

const frameLimits = { ...DEFAULT_FRAME_LIMITS, maxFrameBytes: 16 * 1024 * 1024 };
const WAIT_MS = 10_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const filler = (seed: number) => `${seed}:` + Array.from({ length: 30 }, (_, index) => `EURUSD ${(1.08 + ((seed * 31 + index) % 97) / 10_000).toFixed(5)}`).join(', ');

/** The snapshot a new per-symbol subscriber gets at once: it must arrive right after that SUBSCRIBE's RECEIPT. */
const snapshotOf = (destination: string) => (destination.startsWith('/topic/price/') ? JSON.stringify({ snapshot: destination, filler: filler(destination.length) }) : null);

interface FrameClient {
  readonly socket: WebSocket;
  readonly frames: StompFrame[];
  send(command: string, headers: Record<string, string>): void;
  waitFor(check: (frames: readonly StompFrame[]) => boolean): Promise<void>;
}

const sockets: WebSocket[] = [];
const rawSockets: net.Socket[] = [];
const servers: StompTestServer[] = [];

afterEach(async () => {
  vi.restoreAllMocks();
  for (const socket of sockets.splice(0)) socket.terminate();
  for (const socket of rawSockets.splice(0)) socket.destroy();
  for (const server of servers.splice(0)) await server.app.close();
});

async function startServer(): Promise<StompTestServer> {
  const server = await startStompTestServer({ allowedDestination: (destination) => /^\/topic\/(prices|price\/[A-Z0-9]+)$/.test(destination), snapshotOf, heartbeatMs: 0, compression: 'shared' });
  servers.push(server);
  return server;
}

/** A `ws` client (which inflates what it receives) that parses every STOMP frame it gets. */
async function openClient(url: string, perMessageDeflate: boolean | { serverMaxWindowBits?: number; clientMaxWindowBits?: number }): Promise<FrameClient> {
  const socket = new WebSocket(url, ['v12.stomp'], { perMessageDeflate });
  sockets.push(socket);
  const frames: StompFrame[] = [];
  const malformed: string[] = [];
  let wake: (() => void) | null = null;
  socket.on('message', (data: Buffer, isBinary: boolean) => {
    const parsed = parseMessage(new Uint8Array(data), frameLimits);
    if (isBinary || !parsed.ok) malformed.push(isBinary ? 'binary message' : 'malformed frame');
    else for (const item of parsed.items) if (item.kind === 'frame') frames.push(item.frame);
    wake?.();
  });
  socket.on('error', (error) => malformed.push(error.message));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  return {
    socket,
    frames,
    send: (command, headers) => socket.send(serializeFrame({ command: command as StompFrame['command'], headers })),
    async waitFor(check) {
      const deadline = Date.now() + WAIT_MS;
      while (!check(frames)) {
        if (malformed.length > 0) throw new Error(`client: ${malformed.join(', ')}`);
        if (Date.now() > deadline) throw new Error(`nothing more in time; ${frames.length} frames so far`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 50);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      if (malformed.length > 0) throw new Error(`client: ${malformed.join(', ')}`);
    },
  };
}

async function connectAndFollowPrices(client: FrameClient): Promise<void> {
  client.send('CONNECT', { 'accept-version': '1.2', host: 'localhost', 'heart-beat': '0,0' });
  client.send('SUBSCRIBE', { id: 'p', destination: '/topic/prices', receipt: 'prices' });
  await client.waitFor((frames) => frames.some((frame) => frame.headers['receipt-id'] === 'prices'));
}

const pricesOf = (frames: readonly StompFrame[]) => frames.filter((frame) => frame.command === 'MESSAGE' && frame.headers.subscription === 'p');

/** Every RECEIPT of a per-symbol SUBSCRIBE is followed at once by that subscription's snapshot, and every UNSUBSCRIBE's receipt comes after it. */
function expectReceiptsInPlace(frames: readonly StompFrame[], symbols: number) {
  for (let index = 0; index < symbols; index += 1) {
    const at = frames.findIndex((frame) => frame.command === 'RECEIPT' && frame.headers['receipt-id'] === `sub-${index}`);
    expect(at, `receipt sub-${index}`).toBeGreaterThan(0);
    expect(frames[at + 1]).toMatchObject({ command: 'MESSAGE', headers: { subscription: `s${index}` }, body: snapshotOf(`/topic/price/SYM${index}`) });
    const gone = frames.findIndex((frame) => frame.command === 'RECEIPT' && frame.headers['receipt-id'] === `unsub-${index}`);
    expect(gone, `receipt unsub-${index}`).toBeGreaterThan(at + 1);
  }
}

describe('market STOMP endpoint, one deflate per publication', () => {
  it('a client with permessage-deflate receives exactly the frames of one without, in order, with receipts in their place', async () => {
    const { url, bus } = await startServer();
    const deflating = [await openClient(url, true), await openClient(url, true), await openClient(url, { serverMaxWindowBits: 15, clientMaxWindowBits: 15 })];
    const plain = await openClient(url, false);
    const everyone = [...deflating, plain];
    for (const client of deflating) expect(client.socket.extensions).toBe('permessage-deflate');
    expect(plain.socket.extensions).toBe('');
    for (const client of everyone) await connectAndFollowPrices(client);

    const deflateCalls = vi.spyOn(zlib, 'deflateRawSync');
    // ws's own deflater per socket would be made with createDeflateRaw: the endpoint never asks ws to deflate.
    const perSocketDeflaters = vi.spyOn(zlib, 'createDeflateRaw');
    const publications = 300;
    const symbols = 15;
    const bodies: string[] = [];
    let bigBodies = 0;
    for (let seq = 0; seq < publications; seq += 1) {
      // Every fourth one is a frame below the compression threshold, sent as it is.
      const small = seq % 4 === 3;
      const body = JSON.stringify(small ? { seq } : { seq, filler: filler(seq) });
      if (!small) bigBodies += 1;
      bodies.push(body);
      bus.publish('/topic/prices', body);
      const symbol = Math.floor(seq / 10);
      if (seq % 10 === 0 && symbol < symbols) {
        for (const client of everyone) client.send('SUBSCRIBE', { id: `s${symbol}`, destination: `/topic/price/SYM${symbol}`, receipt: `sub-${symbol}` });
      }
      if (seq % 10 === 5 && symbol < symbols) for (const client of everyone) client.send('UNSUBSCRIBE', { id: `s${symbol}`, receipt: `unsub-${symbol}` });
      // Let the clients' frames reach the server between publications.
      if (seq % 3 === 0) await sleep(1);
    }
    for (const client of everyone) await client.waitFor((frames) => pricesOf(frames).length === publications && frames.some((frame) => frame.headers['receipt-id'] === `unsub-${symbols - 1}`));

    for (const client of everyone) {
      expect(pricesOf(client.frames).map((frame) => frame.body)).toEqual(bodies);
      const ids = pricesOf(client.frames).map((frame) => Number(frame.headers['message-id']));
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expectReceiptsInPlace(client.frames, symbols);
      // The publications are one shared frame per publication: the very same frames on every socket.
      expect(pricesOf(client.frames)).toEqual(pricesOf(plain.frames));
    }
    // Once per publication big enough, and once per snapshot to a deflating socket: never once per socket.
    expect(deflateCalls).toHaveBeenCalledTimes(bigBodies + symbols * deflating.length);
    expect(perSocketDeflaters).not.toHaveBeenCalled();
  });

  it('every socket that negotiated the deflate decodes the shared frames, whatever window it offered; one asking for a smaller server window is refused', async () => {
    const { url, bus } = await startServer();
    // ws answers every offer it accepts with its own 12-bit server window, so all sockets share one deflate;
    // an offer that only takes a smaller window cannot be accepted (ws's rule, as before).
    await expect(openClient(url, { serverMaxWindowBits: 10 })).rejects.toThrow(/400/);
    const wide = await openClient(url, { serverMaxWindowBits: 15, clientMaxWindowBits: 15 });
    const usual = await openClient(url, true);
    const plain = await openClient(url, false);
    for (const client of [wide, usual]) expect(client.socket.extensions).toBe('permessage-deflate');
    for (const client of [wide, usual, plain]) await connectAndFollowPrices(client);
    const bodies = Array.from({ length: 50 }, (_, seq) => JSON.stringify({ seq, filler: filler(seq), noise: randomBytes(seq * 20).toString('hex') }));
    for (const body of bodies) bus.publish('/topic/prices', body);
    for (const client of [wide, usual, plain]) {
      await client.waitFor((frames) => pricesOf(frames).length === bodies.length);
      expect(pricesOf(client.frames).map((frame) => frame.body)).toEqual(bodies);
    }
  });
});

/** A client on a bare TCP connection: the handshake by hand, then every frame's header bits as they arrive. */
async function openWireClient(url: string): Promise<{ extensions: string; frames: { rsv1: boolean; opcode: number; payload: Buffer }[]; send(text: string): void }> {
  const { hostname, port, pathname } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  rawSockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.write(
    [
      `GET ${pathname} HTTP/1.1`,
      `Host: ${hostname}:${port}`,
      'Upgrade: websocket',
      'Connection: Upgrade',
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
      'Sec-WebSocket-Version: 13',
      'Sec-WebSocket-Protocol: v12.stomp',
      // What a browser offers.
      'Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits',
      '',
      '',
    ].join('\r\n'),
  );
  const frames: { rsv1: boolean; opcode: number; payload: Buffer }[] = [];
  let buffered = Buffer.alloc(0);
  let head: string | null = null;
  const headRead = new Promise<string>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (head === null) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) return;
        head = buffered.subarray(0, end).toString();
        buffered = buffered.subarray(end + 4);
        resolve(head);
      }
      for (;;) {
        if (buffered.length < 2) return;
        const length7 = (buffered[1] ?? 0) & 0x7f;
        const offset = length7 === 126 ? 4 : length7 === 127 ? 10 : 2;
        if (buffered.length < offset) return;
        const length = length7 === 126 ? buffered.readUInt16BE(2) : length7 === 127 ? Number(buffered.readBigUInt64BE(2)) : length7;
        if (buffered.length < offset + length) return;
        frames.push({ rsv1: ((buffered[0] ?? 0) & 0x40) !== 0, opcode: (buffered[0] ?? 0) & 0x0f, payload: Buffer.from(buffered.subarray(offset, offset + length)) });
        buffered = buffered.subarray(offset + length);
      }
    });
  });
  const answer = await headRead;
  expect(answer).toMatch(/^HTTP\/1\.1 101/);
  const extensions = /^sec-websocket-extensions: (.*)$/im.exec(answer)?.[1] ?? '';
  return {
    extensions,
    frames,
    send(text) {
      // Client frames are masked (RFC 6455, 5.3); these are short text frames.
      const payload = Buffer.from(text);
      const mask = randomBytes(4);
      const masked = payload.map((octet, index) => octet ^ (mask[index % 4] ?? 0));
      socket.write(Buffer.concat([Buffer.from([0x81, 0x80 | payload.length]), mask, masked]));
    },
  };
}

describe('tick lines through the shared deflate', () => {
  it('sends a batch as binary messages, deflated once, that a client with and one without permessage-deflate read alike', async () => {
    const source = 'lines:/topic/prices';
    const server = await startStompTestServer({
      allowedDestination: (destination) => destination === '/topic/ticks' || destination === '/topic/prices',
      batchDestination: '/topic/ticks',
      batchSourceOf: (destination) => (destination === '/topic/prices' ? source : null),
      heartbeatMs: 0,
      compression: 'shared',
    });
    servers.push(server);
    const readers = await Promise.all(
      [true, false].map(async (perMessageDeflate) => {
        const socket = new WebSocket(server.url, ['v12.stomp'], { perMessageDeflate });
        sockets.push(socket);
        const received: { binary: boolean; frames: StompFrame[] }[] = [];
        socket.on('message', (data: Buffer, isBinary: boolean) => {
          const parsed = parseMessage(new Uint8Array(data), frameLimits);
          received.push({ binary: isBinary, frames: parsed.ok ? parsed.items.flatMap((item) => (item.kind === 'frame' ? [item.frame] : [])) : [] });
        });
        await new Promise<void>((resolve, reject) => {
          socket.once('open', resolve);
          socket.once('error', reject);
        });
        const frames: OutgoingFrame[] = [
          { command: 'CONNECT', headers: { 'accept-version': '1.2', host: 'localhost', 'heart-beat': '0,0' } },
          { command: 'SUBSCRIBE', headers: { id: 'ticks', destination: '/topic/ticks' } },
          { command: 'SUBSCRIBE', headers: { id: 'prices', destination: '/topic/prices', batch: 'ticks', receipt: 'member' } },
        ];
        for (const frame of frames) {
          socket.send(serializeFrame(frame));
        }
        await vi.waitFor(() => expect(received.flatMap((each) => each.frames).some((frame) => frame.headers['receipt-id'] === 'member')).toBe(true), { timeout: WAIT_MS });
        return { perMessageDeflate, received };
      }),
    );
    // Big enough to be deflated, in one MESSAGE.
    const body = `@1790000000000\t0\n${Array.from({ length: 200 }, (_, index) => `=${index.toString(36)}\tS${index}\t${filler(index).slice(0, 40)}\t1\t0\t1.00\t1.01\t0\t0.00\t1.00\t1.00`).join('\n')}`.slice(0, 12_000);
    const whole = body.slice(0, body.lastIndexOf('\n'));
    server.bus.publish(source, whole);
    for (const reader of readers) {
      await vi.waitFor(() => expect(reader.received.some((each) => each.frames.some((frame) => frame.command === 'MESSAGE'))).toBe(true), { timeout: WAIT_MS });
      const batch = reader.received.find((each) => each.frames.some((frame) => frame.command === 'MESSAGE'))!;
      expect(batch.binary, `permessage-deflate ${reader.perMessageDeflate}`).toBe(true);
      expect(batch.frames[0]).toMatchObject({ headers: { destination: '/topic/ticks', subscription: 'ticks' }, body: whole });
    }
  });
});

describe('market STOMP endpoint on the wire', () => {
  it('sends big MESSAGE frames compressed on their own, the same octets to every socket, and the rest plain', async () => {
    const { url, bus } = await startServer();
    const first = await openWireClient(url);
    const second = await openWireClient(url);
    expect(first.extensions).toMatch(/^permessage-deflate;/);
    expect(first.extensions).toContain('server_no_context_takeover');
    expect(first.extensions).toContain('server_max_window_bits=12');
    for (const client of [first, second]) {
      client.send(serializeFrame({ command: 'CONNECT', headers: { 'accept-version': '1.2', host: 'localhost', 'heart-beat': '0,0' } }));
      client.send(serializeFrame({ command: 'SUBSCRIBE', headers: { id: 'p', destination: '/topic/prices', receipt: 'r' } }));
    }
    await vi.waitFor(() => expect([first.frames.length, second.frames.length]).toEqual([2, 2]));
    const bodies = [...Array.from({ length: 20 }, (_, seq) => JSON.stringify({ seq, filler: filler(seq) })), '{}'];
    for (const body of bodies) bus.publish('/topic/prices', body);
    await vi.waitFor(() => expect([first.frames.length, second.frames.length]).toEqual([2 + bodies.length, 2 + bodies.length]));

    const decode = (frame: { rsv1: boolean; payload: Buffer }) =>
      frame.rsv1
        ? // A fresh inflater per message, with the 12-bit window: nothing may lean on an earlier message.
          zlib.inflateRawSync(Buffer.concat([frame.payload, Buffer.from([0, 0, 0xff, 0xff])]), { windowBits: 12, finishFlush: zlib.constants.Z_SYNC_FLUSH })
        : frame.payload;
    for (const client of [first, second]) {
      expect(client.frames.every((frame) => frame.opcode === 1)).toBe(true);
      const stomp = client.frames.map((frame) => {
        const parsed = parseMessage(new Uint8Array(decode(frame)), frameLimits);
        if (!parsed.ok || parsed.items[0]?.kind !== 'frame') throw new Error('not a STOMP frame');
        return parsed.items[0].frame;
      });
      expect(stomp.map((frame) => frame.command)).toEqual(['CONNECTED', 'RECEIPT', ...bodies.map(() => 'MESSAGE')]);
      expect(stomp.slice(2).map((frame) => frame.body)).toEqual(bodies);
      // CONNECTED and RECEIPT are small; so is the last MESSAGE ('{}'): all plain.
      expect(client.frames.map((frame) => frame.rsv1)).toEqual([false, false, ...bodies.slice(0, -1).map(() => true), false]);
    }
    expect(first.frames.map((frame) => frame.payload.toString('hex'))).toEqual(second.frames.map((frame) => frame.payload.toString('hex')));
  });
});
