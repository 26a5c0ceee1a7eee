import type { FastifyInstance } from 'fastify';
import type { TopicBus } from '../topic-bus';
import { createConnectionLimit, tooManyConnectionsCode } from '../../../http/connection-limits';
import { HEARTBEAT, parseMessage, serializeFrame, type StompFrame, type StompHeaders } from '../../../../src/shared/stomp/frame';
import {
  heartBeatHeader,
  keepHeartBeat,
  MAX_HEART_BEAT_MS,
  negotiateHeartBeat,
  type HeartBeatClock,
  type HeartBeatKeeper,
} from '../../../../src/shared/stomp/heart-beat';
import { SubscriptionTable } from './stomp-subscriptions';
import { ensureWebsocketSupport, MAX_INBOUND_MESSAGE_BYTES, STOMP_SUBPROTOCOLS } from './stomp-upgrade';

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
  /** The server sends and wants heart-beats this often; 0 disables both. Default 10 s. */
  heartbeatMs?: number;
  maxSubscriptionsPerConnection?: number;
  /** More open sockets from one client address (`request.ip`) are closed with 4429. */
  maxConnectionsPerAddress?: number;
  connectTimeoutMs?: number;
  maxBufferedBytes?: number;
  /** Defaults to the Fastify instance's logger. */
  log?: StompLogger;
  /**
   * permessage-deflate for the server's sockets (`SOCKET_COMPRESSION`), default on. It
   * applies to every socket path of the instance when this endpoint registers
   * @fastify/websocket; an already registered plugin keeps its own settings.
   */
  compression?: boolean;
}

export interface StompEndpoint {
  /** Open WebSocket connections on this endpoint, CONNECTed or not yet. */
  connectionCount(): number;
}

/** The part of a `ws` WebSocket the endpoint uses (the package ships no types). */
interface StompSocket {
  readonly protocol: string;
  readonly bufferedAmount: number;
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
  on(event: 'message', listener: (data: RawData, isBinary: boolean) => void): void;
  on(event: 'close', listener: () => void): void;
}

type RawData = Uint8Array | ArrayBuffer | Uint8Array[];

interface EndpointSettings {
  bus: TopicBus;
  allowedDestination: (destination: string) => boolean;
  snapshotOf: (destination: string) => string | null;
  heartbeatMs: number;
  maxSubscriptions: number;
  connectTimeoutMs: number;
  maxBufferedBytes: number;
  log: StompLogger;
}

export async function registerStompEndpoint(app: FastifyInstance, options: StompEndpointOptions): Promise<StompEndpoint> {
  const settings: EndpointSettings = {
    bus: options.bus,
    allowedDestination: options.allowedDestination,
    snapshotOf: options.snapshotOf ?? (() => null),
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
  const stompPaths = await ensureWebsocketSupport(app, { compression: options.compression ?? true });
  stompPaths?.add(app.prefix + options.path);
  const maxConnectionsPerAddress = options.maxConnectionsPerAddress ?? DEFAULT_MAX_CONNECTIONS_PER_ADDRESS;
  if (!Number.isInteger(maxConnectionsPerAddress) || maxConnectionsPerAddress < 1) {
    throw new RangeError('maxConnectionsPerAddress must be a positive integer');
  }
  const perAddress = createConnectionLimit(maxConnectionsPerAddress);
  const connections = new Set<StompConnection>();

  app.get(options.path, { websocket: true }, (rawSocket, request) => {
    const socket = rawSocket as StompSocket;
    if (socket.protocol !== '' && !(STOMP_SUBPROTOCOLS as readonly string[]).includes(socket.protocol)) {
      settings.log.debug({ protocol: socket.protocol }, 'stomp: refused a socket with a foreign subprotocol');
      socket.close(CLOSE_PROTOCOL_ERROR, 'STOMP subprotocol required');
      return;
    }
    const release = perAddress.acquire(request.ip);
    if (!release) {
      settings.log.debug({ address: request.ip }, 'stomp: refused a socket over the per-address limit');
      socket.close(tooManyConnectionsCode, 'too many connections from this address');
      return;
    }
    const connection = new StompConnection(socket, settings);
    connections.add(connection);
    socket.on('close', () => {
      release();
      connection.dispose();
      connections.delete(connection);
    });
  });

  // @fastify/websocket asks sockets to close before shutdown; cut any that did not finish.
  app.addHook('onClose', async () => {
    for (const connection of connections) connection.shutdown();
  });

  return { connectionCount: () => connections.size };
}

function toBytes(data: RawData): Uint8Array {
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (Array.isArray(data)) return Buffer.concat(data);
  return data;
}

const heartBeatClock: HeartBeatClock = {
  nowMs: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

class StompConnection {
  private phase: 'awaiting-connect' | 'connected' | 'closed' = 'awaiting-connect';
  private readonly subscriptions: SubscriptionTable;
  private nextMessageId = 1;
  private connectTimer: NodeJS.Timeout | null = null;
  private beatKeeper: HeartBeatKeeper | null = null;
  /** Messages skipped since the socket went over the buffer limit; 0 while it keeps up. */
  private dropped = 0;

  constructor(
    private readonly socket: StompSocket,
    private readonly settings: EndpointSettings,
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

  private transmit(data: string): boolean {
    if (this.socket.readyState !== SOCKET_OPEN) return false;
    this.socket.send(data);
    this.beatKeeper?.sent();
    return true;
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
    const unsubscribe = this.settings.bus.subscribe(destination, (body) => this.deliver(id, destination, body));
    this.subscriptions.add(id, destination, unsubscribe);
    this.sendReceipt(frame.headers);
    const snapshot = this.settings.snapshotOf(destination);
    if (snapshot !== null) this.deliver(id, destination, snapshot);
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

  private deliver(subscription: string, destination: string, body: string): void {
    if (this.phase !== 'connected') return;
    // Skip rather than queue for a slow consumer: market data is superseded quickly,
    // and an unbounded queue per socket would let one slow client exhaust memory.
    if (this.congested()) {
      if (this.dropped === 0) {
        this.settings.log.warn({ bufferedAmount: this.socket.bufferedAmount }, 'stomp: slow consumer, dropping messages');
      }
      this.dropped += 1;
      return;
    }
    const messageId = String(this.nextMessageId);
    this.nextMessageId += 1;
    this.transmit(
      serializeFrame({
        command: 'MESSAGE',
        headers: { destination, subscription, 'message-id': messageId, 'content-type': 'application/json' },
        body,
      }),
    );
  }
}
