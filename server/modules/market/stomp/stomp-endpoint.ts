import type { FastifyInstance } from 'fastify';
import type { Duplex } from 'node:stream';
import type { SocketCompression } from '../../../settings';
import type { TopicBus } from '../topic-bus';
import { createConnectionLimit, tooManyConnectionsCode, type ConnectionLimit } from '../../../http/connection-limits';
import { HEARTBEAT, parseMessage, serializeBinaryFrame, serializeFrame, type StompFrame, type StompHeaders } from './frame';
import {
  heartBeatHeader,
  keepHeartBeat,
  MAX_HEART_BEAT_MS,
  negotiateHeartBeat,
  type HeartBeatClock,
  type HeartBeatKeeper,
} from './heart-beat';
import { joinTickLines, splitTickLines, tickLinesMessageChars } from '../../../../src/shared/market/tick-lines';
import { binaryTickForm, binaryTicksMessageBytes, splitBinaryTicks, tickFormHeader } from '../../../../src/shared/market/binary-ticks';
import { SubscriptionTable } from './stomp-subscriptions';
import { compressedTextFrame, deflateMessage, sharedDeflateOf, type DeflateSettings, type NegotiatedDeflate } from './shared-deflate';
import {
  answeredExtensionsOf,
  ensureWebsocketSupport,
  MAX_INBOUND_MESSAGE_BYTES,
  SOCKET_COMPRESSION,
  STOMP_SUBPROTOCOLS,
  watchAnsweredExtensions,
} from './stomp-upgrade';

/**
 * The market-data STOMP 1.2 endpoint: a read-only WebSocket where clients SUBSCRIBE to
 * destinations of a {@link TopicBus} and receive every publish as a MESSAGE frame.
 */

export const DEFAULT_HEARTBEAT_MS = 10_000;
export const DEFAULT_MAX_SUBSCRIPTIONS_PER_CONNECTION = 200;
/** Open sockets per client address (offices and carriers share addresses); the server's setting overrides it. */
export const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 20;
/** A socket that has not sent CONNECT by then is dropped, so idle sockets cannot pile up. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
/** Above this many octets queued on a socket, messages to it are dropped until it drains. */
export const DEFAULT_MAX_BUFFERED_BYTES = 1024 * 1024;
export const SERVER_NAME = 'tradeweb-market/1.0';

const CLOSE_NORMAL = 1000;
const CLOSE_PROTOCOL_ERROR = 1002;
const CLOSE_INTERNAL_ERROR = 1011;
/** Frames held while a new socket's place is being counted. */
const maxEarlyFrames = 64;
/** WebSocket readyState OPEN. */
const SOCKET_OPEN = 1;

export interface StompLogger {
  debug(details: object, message: string): void;
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface StompEndpointOptions {
  /** Route path, e.g. `/market/stomp` (inside the instance's prefix, if any). */
  path: string;
  bus: TopicBus;
  /** Which destinations a client may SUBSCRIBE to; anything else is an ERROR. */
  allowedDestination: (destination: string) => boolean;
  /**
   * What a new subscriber gets at once, before the next publication (null: nothing): the
   * prices of products that do not tick now, such as closed markets, would otherwise never come.
   */
  snapshotOf?: (destination: string) => string | null;
  /**
   * The destination of batch subscriptions (the compact form the worker asks for): a
   * subscription to it gathers, in one MESSAGE per publication (cut into a few kilobytes
   * each when it is big), the tick lines of this connection's subscriptions whose `batch`
   * header names it. Absent: no batches.
   */
  batchDestination?: string;
  /**
   * The bus destination carrying a destination's tick lines (its publications and its
   * snapshot, `snapshotOf` of it), or its binary ticks (`binary`: the batch subscription
   * asked for them with `tick-form:binary`; their bodies binary strings, one character an
   * octet); null when the destination cannot be batched.
   */
  batchSourceOf?: (destination: string, binary: boolean) => string | null;
  /** The server sends and wants heart-beats this often; 0 disables both. Default 10 s. */
  heartbeatMs?: number;
  maxSubscriptionsPerConnection?: number;
  /** More open sockets from one client address (`request.ip`) are closed with 4429. */
  maxConnectionsPerAddress?: number;
  /** Where the open sockets per address are counted (the server's: in the database, across processes); this process alone by default. */
  connectionsPerAddress?: ConnectionLimit;
  connectTimeoutMs?: number;
  maxBufferedBytes?: number;
  /** Defaults to the Fastify instance's logger. */
  log?: StompLogger;
  /**
   * permessage-deflate for the server's sockets (`SOCKET_COMPRESSION`), default per socket
   * (`stomp-upgrade.ts` says what each mode costs). It applies to every socket path of the
   * instance when this endpoint registers @fastify/websocket; an already registered plugin
   * keeps its own settings.
   */
  compression?: SocketCompression;
}

export interface StompEndpoint {
  /** Open WebSocket connections on this endpoint, CONNECTed or not yet. */
  connectionCount(): number;
  /**
   * An outage, for browser tests (`/dev/market/outage`, DEV_MARKET_CONTROL only): every open
   * socket is cut and every new one cut at once for `ms`, as if the endpoint had gone away.
   */
  cutFor(ms: number): void;
}

/** The part of a `ws` WebSocket the endpoint uses (the package ships no types). */
interface StompSocket {
  readonly protocol: string;
  readonly bufferedAmount: number;
  readonly readyState: number;
  send(data: string | Buffer, options?: { binary?: boolean; compress?: boolean }): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
  on(event: 'message', listener: (data: RawData, isBinary: boolean) => void): void;
  on(event: 'close', listener: () => void): void;
  off(event: 'message', listener: (data: RawData, isBinary: boolean) => void): void;
  emit(event: 'message', data: RawData, isBinary: boolean): boolean;
}

type RawData = Uint8Array | ArrayBuffer | Uint8Array[];

interface EndpointSettings {
  bus: TopicBus;
  /** The MESSAGE frames of the publication being delivered, encoded once for every subscriber. */
  frames: MessageFrames;
  allowedDestination: (destination: string) => boolean;
  snapshotOf: (destination: string) => string | null;
  batchDestination: string | null;
  batchSourceOf: (destination: string, binary: boolean) => string | null;
  heartbeatMs: number;
  maxSubscriptions: number;
  connectTimeoutMs: number;
  maxBufferedBytes: number;
  log: StompLogger;
}

/** How a publication's shared deflate is made: ws's own settings, so the octets are what ws would send. */
const sharedDeflateSettings: DeflateSettings & { threshold: number } = {
  level: SOCKET_COMPRESSION.zlibDeflateOptions.level,
  memLevel: SOCKET_COMPRESSION.zlibDeflateOptions.memLevel,
  threshold: SOCKET_COMPRESSION.threshold,
};

export async function registerStompEndpoint(app: FastifyInstance, options: StompEndpointOptions): Promise<StompEndpoint> {
  const settings: EndpointSettings = {
    bus: options.bus,
    frames: new MessageFrames(),
    allowedDestination: options.allowedDestination,
    snapshotOf: options.snapshotOf ?? (() => null),
    batchDestination: options.batchDestination ?? null,
    batchSourceOf: options.batchSourceOf ?? (() => null),
    heartbeatMs: options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
    maxSubscriptions: options.maxSubscriptionsPerConnection ?? DEFAULT_MAX_SUBSCRIPTIONS_PER_CONNECTION,
    connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    maxBufferedBytes: options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES,
    log: options.log ?? app.log,
  };
  // Misconfiguration should stop the server at start, not surface as odd timers later.
  if (!Number.isInteger(settings.heartbeatMs) || settings.heartbeatMs < 0 || settings.heartbeatMs > MAX_HEART_BEAT_MS) {
    throw new RangeError(`heartbeatMs must be an integer from 0 to ${MAX_HEART_BEAT_MS}`);
  }
  if (!Number.isInteger(settings.maxSubscriptions) || settings.maxSubscriptions < 1) {
    throw new RangeError('maxSubscriptionsPerConnection must be a positive integer');
  }
  const stompPaths = await ensureWebsocketSupport(app, { compression: options.compression ?? 'per-socket' });
  stompPaths?.add(app.prefix + options.path);
  watchAnsweredExtensions(app.websocketServer);
  const maxConnectionsPerAddress = options.maxConnectionsPerAddress ?? DEFAULT_MAX_CONNECTIONS_PER_ADDRESS;
  if (!Number.isInteger(maxConnectionsPerAddress) || maxConnectionsPerAddress < 1) {
    throw new RangeError('maxConnectionsPerAddress must be a positive integer');
  }
  const perAddress = options.connectionsPerAddress ?? createConnectionLimit(maxConnectionsPerAddress);
  const connections = new Set<StompConnection>();

  /** Until when sockets are cut on arrival (`cutFor`). */
  let cutUntilMs = 0;

  app.get(options.path, { websocket: true }, (rawSocket, request) => {
    const socket = rawSocket as StompSocket;
    if (Date.now() < cutUntilMs) {
      socket.terminate();
      return;
    }
    if (socket.protocol !== '' && !(STOMP_SUBPROTOCOLS as readonly string[]).includes(socket.protocol)) {
      settings.log.debug({ protocol: socket.protocol }, 'stomp: refused a socket with a foreign subprotocol');
      socket.close(CLOSE_PROTOCOL_ERROR, 'STOMP subprotocol required');
      return;
    }
    // Frames that arrive while the place is being taken are held, then handed to the connection in order.
    const early: [RawData, boolean][] = [];
    const hold = (data: RawData, isBinary: boolean) => {
      // A client sends CONNECT and a few SUBSCRIBEs before its first answer; more is not a client.
      if (early.push([data, isBinary]) > maxEarlyFrames) socket.close(CLOSE_PROTOCOL_ERROR, 'too many frames before CONNECTED');
    };
    let gone = false;
    let release: (() => void) | null = null;
    let connection: StompConnection | null = null;
    socket.on('message', hold);
    socket.on('close', () => {
      gone = true;
      release?.();
      if (connection) {
        connection.dispose();
        connections.delete(connection);
      }
    });
    perAddress
      .acquire(request.ip)
      .then((place) => {
        if (gone) return place?.();
        if (!place) {
          settings.log.debug({ address: request.ip }, 'stomp: refused a socket over the per-address limit');
          socket.close(tooManyConnectionsCode, 'too many connections from this address');
          return;
        }
        release = place;
        connection = new StompConnection(socket, settings, sharedDeflateWriter(socket, request.raw));
        connections.add(connection);
        socket.off('message', hold);
        for (const [data, isBinary] of early.splice(0)) socket.emit('message', data, isBinary);
      })
      .catch((error: unknown) => {
        settings.log.error({ err: error }, 'stomp: counting the connection failed');
        socket.close(CLOSE_INTERNAL_ERROR, 'try again later');
      });
  });

  // @fastify/websocket asks sockets to close before shutdown; cut any that did not finish.
  app.addHook('onClose', async () => {
    for (const connection of connections) connection.shutdown();
  });

  return {
    connectionCount: () => connections.size,
    cutFor(ms) {
      cutUntilMs = Date.now() + ms;
      for (const connection of connections) connection.shutdown();
    },
  };
}

function toBytes(data: RawData): Uint8Array {
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (Array.isArray(data)) return Buffer.concat(data);
  return data;
}

/**
 * One publication's MESSAGE frame for one subscription id: its octets, and the same
 * octets deflated for sockets that share the server's deflate, made on first need and
 * once per server window size (in practice one: the server names its window).
 */
class MessageFrame {
  private readonly deflated = new Map<number, readonly [Buffer, Buffer]>();

  /** `binary`: sent as a binary WebSocket message (tick lines: the browser's client then reads the octets as they came, without decoding and encoding them again). */
  constructor(
    readonly plain: Buffer,
    readonly binary = false,
  ) {}

  /** The whole compressed frame (header, payload) for a socket of this deflate; null when the frame is too small to be worth it. */
  compressedFor(deflate: NegotiatedDeflate): readonly [Buffer, Buffer] | null {
    if (this.plain.length < sharedDeflateSettings.threshold) return null;
    let frame = this.deflated.get(deflate.windowBits);
    if (!frame) {
      frame = compressedTextFrame(deflateMessage(this.plain, deflate.windowBits, sharedDeflateSettings), this.binary);
      this.deflated.set(deflate.windowBits, frame);
    }
    return frame;
  }
}

/**
 * A publication reaches every subscriber of its destination in one synchronous pass of the
 * bus: its MESSAGE frame is serialized and encoded to octets once there (and deflated at
 * most once), and the same frame goes to every socket whose subscription id is the same
 * (the app's sockets all use the same ids), instead of once per socket. A message-id is
 * unique per publication, so it increases on every connection. The frame is forgotten
 * after the pass (a microtask), and a connection handed the same frame twice is being
 * given a new publication with an equal body.
 */
class MessageFrames {
  private nextMessageId = 1;
  private current: { destination: string; subscription: string; body: string | Uint8Array; frame: MessageFrame; servedTo: WeakSet<object> } | null = null;

  frameFor(connection: object, subscription: string, destination: string, body: string | Uint8Array, contentType: string, binary = false): MessageFrame {
    const current = this.current;
    if (current && sameBody(current.body, body) && current.subscription === subscription && current.destination === destination && !current.servedTo.has(connection)) {
      current.servedTo.add(connection);
      return current.frame;
    }
    const messageId = String(this.nextMessageId);
    this.nextMessageId += 1;
    const headers = { destination, subscription, 'message-id': messageId, 'content-type': contentType };
    const frame = new MessageFrame(
      typeof body === 'string' ? Buffer.from(serializeFrame({ command: 'MESSAGE', headers, body }), 'utf8') : serializeBinaryFrame({ command: 'MESSAGE', headers }, body),
      binary,
    );
    if (this.current === null) queueMicrotask(() => (this.current = null));
    this.current = { destination, subscription, body, frame, servedTo: new WeakSet([connection]) };
    return frame;
  }
}

/** Whether two bodies are the same text or the same octets (each connection cuts its own copy of a binary batch). */
function sameBody(a: string | Uint8Array, b: string | Uint8Array): boolean {
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  return a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.length).equals(b);
}

/**
 * Writes an already compressed frame to a socket's connection, between the frames ws
 * writes itself. ws writes a frame to the connection at once unless its sender is busy
 * deflating (or holds frames queued behind a deflate); this endpoint never asks ws to
 * deflate (every send is `compress: false`), so ws's sender stays idle and a frame written
 * here lands in order with the heart-beats, receipts and errors sent through ws.
 */
interface SharedDeflateWriter {
  readonly deflate: NegotiatedDeflate;
  /** False when the frame could not be written here (ws holds frames of its own): send it through ws instead. */
  write(frame: readonly [Buffer, Buffer]): boolean;
}

/** The writer of a socket that negotiated a server deflate without context takeover; null for any other socket. */
function sharedDeflateWriter(socket: StompSocket, request: { socket?: Duplex | null }): SharedDeflateWriter | null {
  const deflate = sharedDeflateOf(answeredExtensionsOf(request));
  // The upgrade's connection is the one ws frames onto (absent for injected test sockets).
  const connection = request.socket;
  if (!deflate || !connection) return null;
  return {
    deflate,
    write(frame) {
      // bufferedAmount is the connection's unwritten octets plus what ws's sender holds back.
      if (connection.destroyed || !connection.writable || socket.bufferedAmount !== connection.writableLength) return false;
      connection.cork();
      connection.write(frame[0]);
      connection.write(frame[1]);
      connection.uncork();
      return true;
    },
  };
}

const heartBeatClock: HeartBeatClock = {
  nowMs: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

class StompConnection {
  private phase: 'awaiting-connect' | 'connected' | 'closed' = 'awaiting-connect';
  private readonly subscriptions: SubscriptionTable;
  private connectTimer: NodeJS.Timeout | null = null;
  private beatKeeper: HeartBeatKeeper | null = null;
  /** Messages skipped since the socket went over the buffer limit; 0 while it keeps up. */
  private dropped = 0;
  /** The ids of this connection's batch subscriptions. */
  private readonly batchIds = new Set<string>();
  /** Those of them that asked for binary ticks. */
  private readonly binaryBatches = new Set<string>();
  /** Each batch's members: subscription id → lines source (the states a resent snapshot covers). */
  private readonly batchMembers = new Map<string, Map<string, string>>();
  /**
   * Batches that lost a MESSAGE to a slow-consumer drop: tick lines refer to what the client
   * got before, so their next MESSAGE starts with every member's snapshot again.
   */
  private readonly batchesBehind = new Set<string>();
  /** Tick lines gathered for each batch during the current publication, sent when it ends. */
  private readonly gathered = new Map<string, string[]>();
  private batchesDue = false;

  constructor(
    private readonly socket: StompSocket,
    private readonly settings: EndpointSettings,
    private readonly sharedDeflate: SharedDeflateWriter | null,
  ) {
    this.subscriptions = new SubscriptionTable(settings.maxSubscriptions);
    socket.on('message', (data) => this.onMessage(data));
    if (settings.connectTimeoutMs > 0) {
      this.connectTimer = setTimeout(() => this.fail('CONNECT expected', 'no CONNECT frame in time'), settings.connectTimeoutMs);
    }
  }

  /** Stops timers and frees bus subscriptions; safe to call more than once. */
  dispose(): void {
    this.phase = 'closed';
    this.subscriptions.clear();
    this.gathered.clear();
    if (this.connectTimer) clearTimeout(this.connectTimer);
    this.connectTimer = null;
    this.beatKeeper?.stop();
    this.beatKeeper = null;
  }

  // A method, so TypeScript does not keep a narrowed `phase` across frame handlers.
  private isClosed(): boolean {
    return this.phase === 'closed';
  }

  shutdown(): void {
    this.dispose();
    this.socket.terminate();
  }

  private close(code: number, reason: string): void {
    this.dispose();
    this.socket.close(code, reason);
  }

  /** Sends an ERROR frame and closes, as STOMP requires after any ERROR. */
  private fail(message: string, detail: string, cause?: StompFrame, code = CLOSE_PROTOCOL_ERROR): void {
    if (this.phase === 'closed') return;
    const headers: Record<string, string> = { message, 'content-type': 'text/plain' };
    const receipt = cause?.headers.receipt;
    if (receipt !== undefined) headers['receipt-id'] = receipt;
    this.settings.log.debug({ message, detail }, 'stomp: error sent to client');
    this.transmit(serializeFrame({ command: 'ERROR', headers, body: detail }));
    this.close(code, message);
  }

  /** Sends a control frame (CONNECTED, RECEIPT, ERROR, heart-beat) as it is: ws never deflates on this socket, so it never queues. */
  private transmit(data: string): boolean {
    if (this.socket.readyState !== SOCKET_OPEN) return false;
    this.socket.send(data, { binary: false, compress: false });
    this.beatKeeper?.sent();
    return true;
  }

  /** Sends a publication: the shared compressed frame where this socket takes it. */
  private transmitMessage(frame: MessageFrame): void {
    if (this.socket.readyState !== SOCKET_OPEN) return;
    // STOMP frames are text: the octets are sent as a text message, or as a binary one where the frame says so.
    const binary = frame.binary;
    if (!this.sharedDeflate) {
      // ws compresses it if this socket negotiated a deflate that cannot be shared (its context kept).
      this.socket.send(frame.plain, { binary });
    } else {
      const compressed = frame.compressedFor(this.sharedDeflate.deflate);
      if (!compressed) this.socket.send(frame.plain, { binary, compress: false });
      // Should ws ever hold frames of its own, it deflates this one itself, after them.
      else if (!this.sharedDeflate.write(compressed)) this.socket.send(frame.plain, { binary, compress: true });
    }
    this.beatKeeper?.sent();
  }

  /** True while the socket has more queued than allowed: a slow consumer. */
  private congested(): boolean {
    const over = this.socket.bufferedAmount > this.settings.maxBufferedBytes;
    if (!over && this.dropped > 0) {
      this.settings.log.info({ dropped: this.dropped }, 'stomp: slow consumer drained, delivery resumes');
      this.dropped = 0;
    }
    return over;
  }

  private onMessage(data: RawData): void {
    if (this.phase === 'closed') return;
    this.beatKeeper?.received();
    const bytes = toBytes(data);
    if (bytes.length > MAX_INBOUND_MESSAGE_BYTES) {
      this.fail('frame too large', `messages are limited to ${MAX_INBOUND_MESSAGE_BYTES} octets`);
      return;
    }
    const parsed = parseMessage(bytes);
    if (!parsed.ok) {
      this.fail('malformed frame', `${parsed.error.code}: ${parsed.error.message} at octet ${parsed.error.offset}`);
      return;
    }
    try {
      for (const item of parsed.items) {
        if (this.isClosed()) return;
        if (item.kind === 'frame') this.onFrame(item.frame);
      }
    } catch (error) {
      // A throwing allowedDestination or bus must not escape into the socket's stream.
      this.settings.log.error({ err: error }, 'stomp: frame handling failed');
      this.fail('internal error', 'the server could not handle this frame', undefined, CLOSE_INTERNAL_ERROR);
    }
  }

  private onFrame(frame: StompFrame): void {
    if (this.phase === 'awaiting-connect') {
      if (frame.command === 'CONNECT' || frame.command === 'STOMP') this.onConnect(frame);
      else this.fail('CONNECT expected', `the first frame must be CONNECT or STOMP, not ${frame.command}`, frame);
      return;
    }
    switch (frame.command) {
      case 'SUBSCRIBE':
        return this.onSubscribe(frame);
      case 'UNSUBSCRIBE':
        return this.onUnsubscribe(frame);
      case 'DISCONNECT':
        this.sendReceipt(frame.headers);
        return this.close(CLOSE_NORMAL, 'disconnected');
      case 'SEND':
        return this.fail('read-only endpoint', 'SEND is not accepted on the market-data endpoint', frame);
      case 'ACK':
      case 'NACK':
        return this.fail('ack not supported', 'subscriptions use ack:auto; ACK and NACK are not accepted', frame);
      case 'BEGIN':
      case 'COMMIT':
      case 'ABORT':
        return this.fail('transactions not supported', `${frame.command} is not accepted`, frame);
      case 'CONNECT':
      case 'STOMP':
        return this.fail('already connected', 'CONNECT may be sent only once', frame);
      default:
        return this.fail('unexpected command', `${frame.command} is a server frame`, frame);
    }
  }

  private onConnect(frame: StompFrame): void {
    const versions = (frame.headers['accept-version'] ?? '1.0').split(',').map((version) => version.trim());
    if (!versions.includes('1.2')) {
      this.fail('unsupported version', 'this server speaks STOMP 1.2 only', frame);
      return;
    }
    const intervals = negotiateHeartBeat(this.settings.heartbeatMs, frame.headers['heart-beat']);
    if (!intervals) {
      this.fail('malformed heart-beat', `heart-beat must be two integers from 0 to ${MAX_HEART_BEAT_MS}`, frame);
      return;
    }
    if (this.connectTimer) clearTimeout(this.connectTimer);
    this.connectTimer = null;
    this.phase = 'connected';
    this.transmit(
      serializeFrame({
        command: 'CONNECTED',
        headers: { version: '1.2', 'heart-beat': heartBeatHeader(this.settings.heartbeatMs), server: SERVER_NAME },
      }),
    );
    this.beatKeeper = keepHeartBeat({
      intervals,
      clock: heartBeatClock,
      beat: () => {
        if (!this.congested()) this.transmit(HEARTBEAT);
      },
      onSilence: (silentMs) => this.fail('heart-beat timeout', `nothing received for ${Math.round(silentMs)} ms`),
    });
  }

  private onSubscribe(frame: StompFrame): void {
    const { id, destination } = frame.headers;
    const ack = frame.headers.ack ?? 'auto';
    if (id === undefined || id === '') return this.fail('missing id', 'SUBSCRIBE needs an id header', frame);
    if (destination === undefined || destination === '') {
      return this.fail('missing destination', 'SUBSCRIBE needs a destination header', frame);
    }
    if (ack !== 'auto') return this.fail('ack not supported', `ack:${ack} is not supported, only ack:auto`, frame);
    if (!this.settings.allowedDestination(destination)) {
      return this.fail('unknown destination', `no such destination: ${destination}`, frame);
    }
    const refusal = this.subscriptions.refusal(id, destination);
    if (refusal) return this.fail(refusal.message, refusal.detail, frame);
    if (destination === this.settings.batchDestination) return this.onBatchSubscribe(frame, id, destination);
    const batch = frame.headers.batch;
    if (batch !== undefined) return this.onBatchedSubscribe(frame, id, destination, batch);
    const unsubscribe = this.settings.bus.subscribe(destination, (body) => this.deliver(id, destination, body));
    this.subscriptions.add(id, destination, unsubscribe);
    this.sendReceipt(frame.headers);
    const snapshot = this.settings.snapshotOf(destination);
    if (snapshot !== null) this.deliver(id, destination, snapshot);
  }

  /** A batch: nothing of its own, the MESSAGE of what its members gathered in each publication. */
  private onBatchSubscribe(frame: StompFrame, id: string, destination: string): void {
    const form = frame.headers[tickFormHeader];
    if (form !== undefined && form !== binaryTickForm) return this.fail('unknown tick form', `${tickFormHeader}:${form} is not a form of this endpoint`, frame);
    if (form === binaryTickForm) this.binaryBatches.add(id);
    this.subscriptions.add(id, destination, () => {
      this.batchIds.delete(id);
      this.binaryBatches.delete(id);
      this.batchMembers.delete(id);
      this.batchesBehind.delete(id);
      this.gathered.delete(id);
    });
    this.batchIds.add(id);
    this.batchMembers.set(id, new Map());
    this.sendReceipt(frame.headers);
  }

  /** A member of a batch: its tick lines (the snapshot first) go into the batch's next MESSAGE. */
  private onBatchedSubscribe(frame: StompFrame, id: string, destination: string, batch: string): void {
    if (!this.batchIds.has(batch)) return this.fail('unknown batch', `no batch subscription ${batch} on this connection`, frame);
    const source = this.settings.batchSourceOf(destination, this.binaryBatches.has(batch));
    if (source === null) return this.fail('not batchable', `${destination} cannot be batched`, frame);
    const unsubscribe = this.settings.bus.subscribe(source, (lines) => this.gather(batch, lines));
    this.batchMembers.get(batch)?.set(id, source);
    this.subscriptions.add(id, destination, () => {
      unsubscribe();
      this.batchMembers.get(batch)?.delete(id);
    });
    this.sendReceipt(frame.headers);
    const snapshot = this.settings.snapshotOf(source);
    if (snapshot !== null) this.gather(batch, snapshot);
  }

  /**
   * Holds a member's tick lines until the publication ends: a publication is one synchronous
   * pass of the bus, so everything it brings this batch is in hand by the next microtask.
   */
  private gather(batch: string, lines: string): void {
    if (this.phase !== 'connected' || lines === '' || !this.batchIds.has(batch)) return;
    const bodies = this.gathered.get(batch);
    if (bodies) bodies.push(lines);
    else this.gathered.set(batch, [lines]);
    if (this.batchesDue) return;
    this.batchesDue = true;
    queueMicrotask(() => {
      this.batchesDue = false;
      const destination = this.settings.batchDestination;
      for (const [id, bodies] of this.gathered) {
        if (destination === null) continue;
        const binary = this.binaryBatches.has(id);
        if (this.batchesBehind.has(id)) {
          if (this.congested()) continue;
          this.batchesBehind.delete(id);
          const states = [...(this.batchMembers.get(id)?.values() ?? [])].map((source) => this.settings.snapshotOf(source) ?? '');
          // Binary ticks are differences, which do not bear being applied twice: the states, which hold this publication's ticks, replace it.
          if (binary) bodies.splice(0, bodies.length, ...states);
          else bodies.unshift(...states);
        }
        const pieces = binary
          ? splitBinaryTicks(Buffer.from(bodies.join(''), 'latin1'), binaryTicksMessageBytes)
          : splitTickLines(joinTickLines(bodies), tickLinesMessageChars);
        for (const piece of pieces) {
          if (!this.deliver(id, destination, piece, binary ? 'application/octet-stream' : 'text/plain', true)) this.batchesBehind.add(id);
        }
      }
      this.gathered.clear();
    });
  }

  private onUnsubscribe(frame: StompFrame): void {
    const { id } = frame.headers;
    if (id === undefined || id === '') return this.fail('missing id', 'UNSUBSCRIBE needs an id header', frame);
    this.subscriptions.remove(id);
    this.sendReceipt(frame.headers);
  }

  private sendReceipt(headers: StompHeaders): void {
    const receipt = headers.receipt;
    if (receipt !== undefined) this.transmit(serializeFrame({ command: 'RECEIPT', headers: { 'receipt-id': receipt } }));
  }

  /** Sends a MESSAGE; false when it was dropped for a slow consumer. */
  private deliver(subscription: string, destination: string, body: string | Uint8Array, contentType = 'application/json', binary = false): boolean {
    if (this.phase !== 'connected') return true;
    // Skip rather than queue for a slow consumer: market data is superseded quickly,
    // and an unbounded queue per socket would let one slow client exhaust memory.
    if (this.congested()) {
      if (this.dropped === 0) {
        this.settings.log.warn({ bufferedAmount: this.socket.bufferedAmount }, 'stomp: slow consumer, dropping messages');
      }
      this.dropped += 1;
      return false;
    }
    this.transmitMessage(this.settings.frames.frameFor(this, subscription, destination, body, contentType, binary));
    return true;
  }
}
