import {
  DEFAULT_FRAME_LIMITS,
  HEARTBEAT,
  parseMessage,
  serializeFrame,
  type FrameLimits,
  type StompFrame,
  type StompHeaders,
} from '../../shared/stomp/frame';
import {
  heartBeatHeader,
  keepHeartBeat,
  negotiateHeartBeat,
  type HeartBeatClock,
  type HeartBeatIntervals,
  type HeartBeatKeeper,
} from '../../shared/stomp/heart-beat';
import { createStompSubscriptions, type StompMessageHandler } from './stomp-subscriptions';

export type { StompMessageHandler } from './stomp-subscriptions';
export { SILENCE_FACTOR } from '../../shared/stomp/heart-beat';

/**
 * A small STOMP 1.2 client over one WebSocket, with the codec of `src/shared/stomp`.
 *
 * One object is one connection: it opens the socket, sends CONNECT, keeps heart-beats
 * both ways, delivers MESSAGE bodies to subscribers and reports when it ends. It never
 * reconnects: the caller opens a new connection (and subscribes again) by its own policy.
 */

/** WebSocket readyState values. */
const SOCKET_CONNECTING = 0;
const SOCKET_OPEN = 1;
/** Close codes this client uses: normal, or one of the range applications may send. */
const CLOSE_NORMAL = 1000;
const CLOSE_FAILURE = 4000;

export const STOMP_SUBPROTOCOL = 'v12.stomp';
export const DEFAULT_HEARTBEAT_MS = 10_000;
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
export const DEFAULT_DISCONNECT_TIMEOUT_MS = 1_000;
/** A server's MESSAGE frames (a whole prices batch) may be far larger than control frames. */
export const CLIENT_FRAME_LIMITS: Readonly<FrameLimits> = { ...DEFAULT_FRAME_LIMITS, maxFrameBytes: 16 * 1024 * 1024 };

// A method's parameters are compared both ways, so both the platform's WebSocket (whose
// handlers take its own event types) and a test double fit these handler slots.
type Handler<E> = { bivarianceHack(event: E): void }['bivarianceHack'];

/** The part of a WebSocket this client uses: the browser's, or the `ws` package's in Node. */
export interface WebSocketLike {
  readonly readyState: number;
  binaryType: string;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: Handler<unknown> | null;
  onmessage: Handler<{ readonly data: unknown }> | null;
  onclose: Handler<{ readonly code: number; readonly reason: string }> | null;
  onerror: Handler<unknown> | null;
}

export type CreateSocket = (url: string, protocols: string[]) => WebSocketLike;

/** The heart-beat intervals agreed with the server. */
export type StompHeartbeat = HeartBeatIntervals;

export interface StompOpenInfo {
  version: string;
  server: string | undefined;
  heartbeat: StompHeartbeat;
}

export type StompCloseReason =
  /** The caller's disconnect(). */
  | 'disconnect'
  /** The caller's close(). */
  | 'closed'
  /** The socket closed (or never opened) without being asked to. */
  | 'socket-closed'
  /** No CONNECTED frame in time. */
  | 'connect-timeout'
  /** Nothing received for SILENCE_FACTOR × the negotiated interval. */
  | 'heartbeat-timeout'
  /** The server sent ERROR (reported to onError first). */
  | 'error-frame'
  /** The server sent something that is not STOMP 1.2 as this client speaks it. */
  | 'protocol-error';

export interface StompCloseInfo {
  reason: StompCloseReason;
  /** True when CONNECTED had arrived: the connection was usable for a while. */
  wasConnected: boolean;
  /** The WebSocket close code when the socket closed by itself. */
  code?: number;
  detail?: string;
}

export interface StompErrorInfo {
  /** The ERROR frame's message header. */
  message: string;
  body: string;
  headers: StompHeaders;
}

export interface StompConnectionOptions {
  url: string;
  /** Opens the socket; defaults to the platform's WebSocket. */
  createSocket?: CreateSocket;
  /** CONNECT's host header (the virtual host); defaults to the URL's host name. */
  host?: string;
  /** What we offer for heart-beats, in ms, both ways; 0 disables. Default 10 s. */
  heartbeatMs?: number;
  /** From opening the socket to CONNECTED. Default 10 s. */
  connectTimeoutMs?: number;
  /** How long disconnect() waits for the server's RECEIPT. Default 1 s. */
  disconnectTimeoutMs?: number;
  frameLimits?: Readonly<FrameLimits>;
  /** CONNECTED arrived. */
  onOpen?: (info: StompOpenInfo) => void;
  /** The connection is over, once, whatever the cause; the socket is closed or closing. */
  onClose?: (info: StompCloseInfo) => void;
  /** The server sent an ERROR frame; onClose follows. */
  onError?: (error: StompErrorInfo) => void;
}

export type StompConnectionState = 'connecting' | 'connected' | 'disconnecting' | 'closed';

export interface StompConnection {
  readonly state: StompConnectionState;
  /** The heart-beat intervals agreed in CONNECTED; null before. */
  readonly heartbeat: StompHeartbeat | null;
  /**
   * Subscribes (at once when connected, else as soon as CONNECTED arrives) and returns
   * the unsubscribe, which is idempotent. A connection that is closing or closed gets
   * nothing: subscribing again after a reconnection is the caller's business. Callers of
   * one destination share one STOMP subscription (the server refuses a second one).
   */
  subscribe(destination: string, onMessage: StompMessageHandler): () => void;
  /** DISCONNECT with a receipt, then close; resolves when closed (receipt or timeout). */
  disconnect(): Promise<void>;
  /** Closes at once, without DISCONNECT. */
  close(): void;
}

function defaultCreateSocket(url: string, protocols: string[]): WebSocketLike {
  return new WebSocket(url, protocols);
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname || '/';
  } catch {
    return '/';
  }
}

const heartBeatClock: HeartBeatClock = {
  nowMs: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Octets of a binary message, whatever shape the socket delivers them in. */
function binaryOf(data: unknown): Uint8Array | null {
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return null;
}

export function openStompConnection(options: StompConnectionOptions): StompConnection {
  const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  const limits = options.frameLimits ?? CLIENT_FRAME_LIMITS;
  const disconnectTimeoutMs = options.disconnectTimeoutMs ?? DEFAULT_DISCONNECT_TIMEOUT_MS;
  const subscriptions = createStompSubscriptions({
    isConnected: () => state === 'connected',
    subscribe: (id, destination) => transmit(serializeFrame({ command: 'SUBSCRIBE', headers: { id, destination } })),
    unsubscribe: (id) => transmit(serializeFrame({ command: 'UNSUBSCRIBE', headers: { id } })),
  });
  const closeWaiters: (() => void)[] = [];
  let socket: WebSocketLike | null = null;
  let state: StompConnectionState = 'connecting';
  let connected = false;
  let heartbeat: StompHeartbeat | null = null;
  let beatKeeper: HeartBeatKeeper | null = null;
  let connectTimer: ReturnType<typeof setTimeout> | null = null;
  let disconnectTimer: ReturnType<typeof setTimeout> | null = null;
  let disconnectReceipt: string | null = null;
  let disconnected: Promise<void> | null = null;

  // A function, so TypeScript does not keep a narrowed `state` across handlers.
  function isClosed() {
    return state === 'closed';
  }

  function clearTimers() {
    for (const timer of [connectTimer, disconnectTimer]) if (timer !== null) clearTimeout(timer);
    connectTimer = disconnectTimer = null;
    beatKeeper?.stop();
    beatKeeper = null;
  }

  /** Ends the connection once: timers off, socket closed, onClose told. */
  function finish(info: Omit<StompCloseInfo, 'wasConnected'>) {
    if (state === 'closed') return;
    state = 'closed';
    clearTimers();
    subscriptions.clear();
    if (socket && (socket.readyState === SOCKET_CONNECTING || socket.readyState === SOCKET_OPEN)) {
      const normal = info.reason === 'disconnect' || info.reason === 'closed' || info.reason === 'error-frame';
      try {
        socket.close(normal ? CLOSE_NORMAL : CLOSE_FAILURE, info.reason);
      } catch {
        // Closing is best effort; the connection is over for us either way.
      }
    }
    for (const resolve of closeWaiters.splice(0)) resolve();
    options.onClose?.({ ...info, wasConnected: connected });
  }

  function transmit(text: string) {
    if (!socket || socket.readyState !== SOCKET_OPEN) return;
    socket.send(text);
    beatKeeper?.sent();
  }

  function onConnected(frame: StompFrame) {
    const version = frame.headers.version;
    if (version !== '1.2') {
      finish({ reason: 'protocol-error', detail: `server speaks STOMP ${version ?? '1.0'}, not 1.2` });
      return;
    }
    // A malformed header is a protocol error, as the server treats ours (STOMP 1.2 §Heart-beating).
    const intervals = negotiateHeartBeat(heartbeatMs, frame.headers['heart-beat']);
    if (!intervals) {
      finish({ reason: 'protocol-error', detail: `malformed heart-beat: ${frame.headers['heart-beat'] ?? ''}` });
      return;
    }
    heartbeat = intervals;
    if (connectTimer !== null) clearTimeout(connectTimer);
    connectTimer = null;
    state = 'connected';
    connected = true;
    beatKeeper = keepHeartBeat({
      intervals,
      clock: heartBeatClock,
      beat: () => transmit(HEARTBEAT),
      onSilence: (silentMs) => finish({ reason: 'heartbeat-timeout', detail: `nothing received for ${Math.round(silentMs)} ms` }),
    });
    subscriptions.sendAll();
    options.onOpen?.({ version, server: frame.headers.server, heartbeat: intervals });
  }

  function onFrame(frame: StompFrame) {
    if (frame.command === 'ERROR') {
      options.onError?.({ message: frame.headers.message ?? '', body: frame.body, headers: frame.headers });
      finish({ reason: 'error-frame', detail: frame.headers.message ?? frame.body });
      return;
    }
    if (state === 'connecting') {
      if (frame.command === 'CONNECTED') onConnected(frame);
      else finish({ reason: 'protocol-error', detail: `${frame.command} before CONNECTED` });
      return;
    }
    switch (frame.command) {
      case 'MESSAGE':
        if (state === 'connected') subscriptions.deliver(frame.headers.subscription, frame.body, frame.headers);
        return;
      case 'RECEIPT':
        if (disconnectReceipt !== null && frame.headers['receipt-id'] === disconnectReceipt) finish({ reason: 'disconnect' });
        return;
      default:
        finish({ reason: 'protocol-error', detail: `unexpected ${frame.command}` });
    }
  }

  function onSocketMessage(data: unknown) {
    if (state === 'closed') return;
    beatKeeper?.received();
    const binary = typeof data === 'string' ? null : binaryOf(data);
    if (typeof data !== 'string' && !binary) {
      finish({ reason: 'protocol-error', detail: 'a message that is neither text nor octets' });
      return;
    }
    const parsed = parseMessage(binary ?? (data as string), limits);
    if (!parsed.ok) {
      const { code, message, offset } = parsed.error;
      finish({ reason: 'protocol-error', detail: `${code}: ${message} at octet ${offset}` });
      return;
    }
    for (const item of parsed.items) {
      if (isClosed()) return; // a frame handled before may have ended it
      if (item.kind === 'frame') onFrame(item.frame);
    }
  }

  try {
    socket = (options.createSocket ?? defaultCreateSocket)(options.url, [STOMP_SUBPROTOCOL]);
  } catch (error) {
    // Reported like any failed connection, once the caller holds the returned object.
    const detail = error instanceof Error ? error.message : String(error);
    setTimeout(() => finish({ reason: 'socket-closed', detail }), 0);
  }
  if (socket) {
    const opened = socket;
    opened.binaryType = 'arraybuffer';
    opened.onopen = () => {
      if (state !== 'connecting') return;
      transmit(
        serializeFrame({
          command: 'CONNECT',
          headers: { 'accept-version': '1.2', host: options.host ?? hostOf(options.url), 'heart-beat': heartBeatHeader(heartbeatMs) },
        }),
      );
    };
    opened.onmessage = (event) => onSocketMessage(event.data);
    opened.onclose = (event) => {
      const requested = state === 'disconnecting';
      finish({ reason: requested ? 'disconnect' : 'socket-closed', code: event.code, ...(event.reason ? { detail: event.reason } : {}) });
    };
    // An error event is followed by a close event, which is the one reported.
    opened.onerror = () => undefined;
    const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    if (connectTimeoutMs > 0) {
      connectTimer = setTimeout(() => finish({ reason: 'connect-timeout', detail: `no CONNECTED within ${connectTimeoutMs} ms` }), connectTimeoutMs);
    }
  }

  return {
    get state() {
      return state;
    },
    get heartbeat() {
      return heartbeat;
    },
    subscribe(destination, onMessage) {
      if (state !== 'connecting' && state !== 'connected') return () => undefined;
      return subscriptions.add(destination, onMessage);
    },
    disconnect() {
      if (state === 'closed') return Promise.resolve();
      if (disconnected) return disconnected;
      disconnected = new Promise<void>((resolve) => closeWaiters.push(resolve));
      if (state === 'connecting') {
        finish({ reason: 'disconnect' });
        return disconnected;
      }
      state = 'disconnecting';
      subscriptions.clear();
      beatKeeper?.stop();
      beatKeeper = null;
      disconnectReceipt = 'disconnect';
      transmit(serializeFrame({ command: 'DISCONNECT', headers: { receipt: disconnectReceipt } }));
      disconnectTimer = setTimeout(() => finish({ reason: 'disconnect', detail: 'no RECEIPT in time' }), disconnectTimeoutMs);
      return disconnected;
    },
    close() {
      finish({ reason: 'closed' });
    },
  };
}
