import fastifyWebsocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { TopicBus } from '../topic-bus';
import { createConnectionLimit, tooManyConnectionsCode } from '../../http/connection-limits';
import { HEARTBEAT, MAX_FRAME_BYTES, parseMessage, serializeFrame, type StompFrame, type StompHeaders } from '../../../src/shared/stomp/frame';

/**
 * The market-data STOMP 1.2 endpoint: a read-only WebSocket where clients SUBSCRIBE to
 * destinations of a {@link TopicBus} and receive every publish as a MESSAGE frame.
 */

/** Preferred first: the answer to a client that offers several. */
export const STOMP_SUBPROTOCOLS = ['v12.stomp', 'v11.stomp', 'v10.stomp'] as const;
export const DEFAULT_HEARTBEAT_MS = 10_000;
export const DEFAULT_MAX_SUBSCRIPTIONS_PER_CONNECTION = 200;
/** Open sockets per client address (offices and carriers share addresses); the server's setting overrides it. */
export const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 20;
/** A socket that has not sent CONNECT by then is dropped, so idle sockets cannot pile up. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
/** Above this many octets queued on a socket, messages to it are dropped until it drains. */
export const DEFAULT_MAX_BUFFERED_BYTES = 1024 * 1024;
/** Clients only send control frames; a bigger message is refused before parsing. */
export const MAX_INBOUND_MESSAGE_BYTES = MAX_FRAME_BYTES;
/**
 * Largest heart-beat value accepted in CONNECT. Node timers overflow past 2^31-1 ms, and
 * a promise to beat less than hourly says nothing about liveness anyway.
 */
export const MAX_HEARTBEAT_VALUE_MS = 60 * 60 * 1000;
/** The spec lets the receiver allow for timing inaccuracy; we allow a whole interval. */
export const SILENCE_FACTOR = 2;
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
  /** The server sends and wants heart-beats this often; 0 disables both. Default 10 s. */
  heartbeatMs?: number;
  maxSubscriptionsPerConnection?: number;
  /** More open sockets from one client address (`request.ip`) are closed with 4429. */
  maxConnectionsPerAddress?: number;
  connectTimeoutMs?: number;
  maxBufferedBytes?: number;
  /** Defaults to the Fastify instance's logger. */
  log?: StompLogger;
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

interface Subscription {
  readonly destination: string;
  readonly unsubscribe: () => void;
}

interface EndpointSettings {
  bus: TopicBus;
  allowedDestination: (destination: string) => boolean;
  heartbeatMs: number;
  maxSubscriptions: number;
  connectTimeoutMs: number;
  maxBufferedBytes: number;
  log: StompLogger;
}

/** STOMP paths per WebSocket server, for subprotocol choice at upgrade time. */
const stompPathsByServer = new WeakMap<object, Set<string>>();

function pathOf(url: string | undefined): string {
  const query = (url ?? '').indexOf('?');
  return query < 0 ? (url ?? '') : (url ?? '').slice(0, query);
}

function chooseStompSubprotocol(offered: ReadonlySet<string>): string | false {
  return STOMP_SUBPROTOCOLS.find((protocol) => offered.has(protocol)) ?? false;
}

/**
 * Registers @fastify/websocket once per instance tree and remembers which paths speak
 * STOMP, so the upgrade answers a STOMP subprotocol there and keeps the `ws` default
 * (the first one offered) elsewhere. Returns null when someone else registered the
 * plugin: then the subprotocol is checked after the upgrade instead.
 */
async function ensureWebsocketSupport(app: FastifyInstance): Promise<Set<string> | null> {
  if (!app.hasDecorator('websocketServer')) {
    const stompPaths = new Set<string>();
    await app.register(fastifyWebsocket, {
      options: {
        maxPayload: MAX_INBOUND_MESSAGE_BYTES,
        handleProtocols: (offered: Set<string>, request: IncomingMessage) =>
          stompPaths.has(pathOf(request.url)) ? chooseStompSubprotocol(offered) : (offered.values().next().value ?? false),
      },
    });
    stompPathsByServer.set(app.websocketServer as object, stompPaths);
  }
  return stompPathsByServer.get(app.websocketServer as object) ?? null;
}

export async function registerStompEndpoint(app: FastifyInstance, options: StompEndpointOptions): Promise<StompEndpoint> {
  const settings: EndpointSettings = {
    bus: options.bus,
    allowedDestination: options.allowedDestination,
    heartbeatMs: options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
    maxSubscriptions: options.maxSubscriptionsPerConnection ?? DEFAULT_MAX_SUBSCRIPTIONS_PER_CONNECTION,
    connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    maxBufferedBytes: options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES,
    log: options.log ?? app.log,
  };
  // Misconfiguration should stop the server at start, not surface as odd timers later.
  if (!Number.isInteger(settings.heartbeatMs) || settings.heartbeatMs < 0 || settings.heartbeatMs > MAX_HEARTBEAT_VALUE_MS) {
    throw new RangeError(`heartbeatMs must be an integer from 0 to ${MAX_HEARTBEAT_VALUE_MS}`);
  }
  if (!Number.isInteger(settings.maxSubscriptions) || settings.maxSubscriptions < 1) {
    throw new RangeError('maxSubscriptionsPerConnection must be a positive integer');
  }
  const stompPaths = await ensureWebsocketSupport(app);
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

function parseHeartBeat(value: string): { canSend: number; wants: number } | null {
  const match = /^\s*(\d{1,10})\s*,\s*(\d{1,10})\s*$/.exec(value);
  if (!match) return null;
  const canSend = Number(match[1]);
  const wants = Number(match[2]);
  if (canSend > MAX_HEARTBEAT_VALUE_MS || wants > MAX_HEARTBEAT_VALUE_MS) return null;
  return { canSend, wants };
}

/** STOMP 1.2: no beats if either side says 0, else the slower of the two. */
function negotiate(senderCan: number, receiverWants: number): number {
  return senderCan === 0 || receiverWants === 0 ? 0 : Math.max(senderCan, receiverWants);
}

class StompConnection {
  private phase: 'awaiting-connect' | 'connected' | 'closed' = 'awaiting-connect';
  private readonly subscriptions = new Map<string, Subscription>();
  /** Destinations subscribed on this connection: one subscription each. */
  private readonly destinations = new Set<string>();
  private nextMessageId = 1;
  private lastSentAt = performance.now();
  private lastReceivedAt = performance.now();
  private sendIntervalMs = 0;
  private receiveIntervalMs = 0;
  private connectTimer: NodeJS.Timeout | null = null;
  private sendTimer: NodeJS.Timeout | null = null;
  private receiveTimer: NodeJS.Timeout | null = null;
  /** Messages skipped since the socket went over the buffer limit; 0 while it keeps up. */
  private dropped = 0;

  constructor(
    private readonly socket: StompSocket,
    private readonly settings: EndpointSettings,
  ) {
    socket.on('message', (data) => this.onMessage(data));
    if (settings.connectTimeoutMs > 0) {
      this.connectTimer = setTimeout(() => this.fail('CONNECT expected', 'no CONNECT frame in time'), settings.connectTimeoutMs);
    }
  }

  /** Stops timers and frees bus subscriptions; safe to call more than once. */
  dispose(): void {
    this.phase = 'closed';
    for (const subscription of this.subscriptions.values()) subscription.unsubscribe();
    this.subscriptions.clear();
    this.destinations.clear();
    for (const timer of [this.connectTimer, this.sendTimer, this.receiveTimer]) {
      if (timer) clearTimeout(timer);
    }
    this.connectTimer = this.sendTimer = this.receiveTimer = null;
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
    this.lastSentAt = performance.now();
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
    this.lastReceivedAt = performance.now();
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
    const beat = parseHeartBeat(frame.headers['heart-beat'] ?? '0,0');
    if (!beat) {
      this.fail('malformed heart-beat', `heart-beat must be two integers from 0 to ${MAX_HEARTBEAT_VALUE_MS}`, frame);
      return;
    }
    const own = this.settings.heartbeatMs;
    this.sendIntervalMs = negotiate(own, beat.wants);
    this.receiveIntervalMs = negotiate(beat.canSend, own);
    if (this.connectTimer) clearTimeout(this.connectTimer);
    this.connectTimer = null;
    this.phase = 'connected';
    this.transmit(
      serializeFrame({ command: 'CONNECTED', headers: { version: '1.2', 'heart-beat': `${own},${own}`, server: SERVER_NAME } }),
    );
    if (this.sendIntervalMs > 0) this.armSendTimer(this.sendIntervalMs);
    if (this.receiveIntervalMs > 0) this.armReceiveTimer(this.receiveIntervalMs * SILENCE_FACTOR);
  }

  // Timers are re-armed from timestamps rather than reset on every frame: a busy
  // socket sends many MESSAGEs and should not pay a timer update for each.
  private armSendTimer(delay: number): void {
    this.sendTimer = setTimeout(() => {
      if (this.phase === 'closed') return;
      if (performance.now() - this.lastSentAt >= this.sendIntervalMs && !this.congested()) this.transmit(HEARTBEAT);
      const remaining = this.sendIntervalMs - (performance.now() - this.lastSentAt);
      this.armSendTimer(remaining > 0 ? remaining : this.sendIntervalMs);
    }, delay);
  }

  private armReceiveTimer(delay: number): void {
    this.receiveTimer = setTimeout(() => {
      if (this.phase === 'closed') return;
      const allowed = this.receiveIntervalMs * SILENCE_FACTOR;
      const silent = performance.now() - this.lastReceivedAt;
      if (silent >= allowed) {
        this.fail('heart-beat timeout', `nothing received for ${Math.round(silent)} ms`);
        return;
      }
      this.armReceiveTimer(allowed - silent);
    }, delay);
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
    if (this.subscriptions.has(id)) return this.fail('duplicate subscription', `subscription id ${id} is in use`, frame);
    // Each subscription is a copy of every message: the same destination twice only multiplies load.
    if (this.destinations.has(destination)) {
      return this.fail('duplicate destination', `already subscribed to ${destination}`, frame);
    }
    if (this.subscriptions.size >= this.settings.maxSubscriptions) {
      return this.fail('too many subscriptions', `at most ${this.settings.maxSubscriptions} per connection`, frame);
    }
    const unsubscribe = this.settings.bus.subscribe(destination, (body) => this.deliver(id, destination, body));
    this.subscriptions.set(id, { destination, unsubscribe });
    this.destinations.add(destination);
    this.sendReceipt(frame.headers);
  }

  private onUnsubscribe(frame: StompFrame): void {
    const { id } = frame.headers;
    if (id === undefined || id === '') return this.fail('missing id', 'UNSUBSCRIBE needs an id header', frame);
    const subscription = this.subscriptions.get(id);
    // An unknown id is not fatal: a client may repeat an UNSUBSCRIBE it already sent.
    if (subscription) {
      subscription.unsubscribe();
      this.subscriptions.delete(id);
      this.destinations.delete(subscription.destination);
    }
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
