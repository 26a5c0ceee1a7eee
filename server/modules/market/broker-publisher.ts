import { Client, ReconnectionTimeMode, type IFrame, type IStompSocket } from '@stomp/stompjs';
import { createRequire } from 'node:module';
import { brokerDestination, coalesceMarketMessage } from '../../../src/shared/api/market-broker';

// `ws` ships no type declarations (and @types/ws is not installed). Its WebSocket has
// the browser-style properties stompjs uses, so the part stompjs needs is typed here.
type SocketConstructor = new (url: string, protocols: string[]) => IStompSocket;
const { WebSocket } = createRequire(import.meta.url)('ws') as { WebSocket: SocketConstructor };

/**
 * Enough room for every destination of a few hundred symbols. Each symbol has 7
 * destinations (its price and 6 kline periods), plus `/topic/prices`.
 */
export const DEFAULT_MAX_QUEUED_MESSAGES = 5_000;
/** How long `start()` waits for the first connection before it rejects. Retries go on. */
export const BROKER_START_TIMEOUT_MS = 10_000;
/** First retry delay after a lost connection. It doubles up to the maximum. */
export const BROKER_RECONNECT_DELAY_MS = 1_000;
export const BROKER_MAX_RECONNECT_DELAY_MS = 30_000;
/** A connect attempt that hangs (no CONNECTED frame) is dropped and retried. */
const connectAttemptTimeoutMs = 5_000;
/** Heart-beats both ways, so a dead TCP path to the broker is noticed within seconds. */
const heartbeatMs = 10_000;
const stompSubprotocols = ['v12.stomp', 'v11.stomp', 'v10.stomp'];
/** RabbitMQ's out-of-the-box user (which it admits from loopback only). */
const defaultLogin = 'guest';
const defaultPasscode = 'guest';
/** Destinations without a broker name are reported once each, up to this many. */
const maxReportedUnmappable = 100;

export interface BrokerLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface BrokerPublisherOptions {
  /** STOMP over WebSocket, e.g. `ws://127.0.0.1:15674/ws`; `ws://user:pass@host:15674/ws` carries credentials. */
  url: string;
  /** Takes precedence over the URL's user info; else `guest`. */
  login?: string;
  passcode?: string;
  /** Sent as the STOMP `host` header (RabbitMQ's virtual host); the broker's default when unset. */
  vhost?: string;
  /** pino-style (Fastify's `app.log` fits). */
  log?: BrokerLog;
  /** Distinct destinations kept while disconnected; the least recently updated is dropped beyond it. */
  maxQueuedMessages?: number;
  startTimeoutMs?: number;
  reconnectDelayMs?: number;
  maxReconnectDelayMs?: number;
  /**
   * Combines a queued body with a newer one for the same destination while disconnected.
   * The default keeps the newer one, except that `/topic/prices` batches are merged by
   * symbol (see `coalesceMarketMessage`).
   */
  coalesce?: (destination: string, queued: string, next: string) => string;
}

export interface BrokerPublisher {
  /** Resolves once connected; rejects with `BrokerConnectTimeoutError` after the start timeout (retries go on until `stop`). */
  start(): Promise<void>;
  /** Never throws. Sends now when connected, else keeps the latest per destination until reconnected. */
  publish(destination: string, body: string): void;
  /** Disconnects, stops retrying and forgets queued messages. */
  stop(): Promise<void>;
  connected(): boolean;
}

export class BrokerConnectTimeoutError extends Error {
  override readonly name = 'BrokerConnectTimeoutError';
  constructor(
    readonly timeoutMs: number,
    readonly url: string,
  ) {
    super(`market broker at ${url} not connected within ${timeoutMs} ms`);
  }
}

/** The socket URL without user info, and the credentials it carried (percent-decoded). */
export function parseBrokerUrl(url: string): { socketUrl: string; login: string | null; passcode: string | null } {
  const parsed = new URL(url);
  if (parsed.protocol !== 'ws:' && parsed.protocol !== 'wss:') {
    throw new TypeError(`market broker URL must be ws: or wss:, got ${parsed.protocol}`);
  }
  const login = parsed.username ? decodeURIComponent(parsed.username) : null;
  const passcode = parsed.password ? decodeURIComponent(parsed.password) : null;
  // Credentials go in the STOMP CONNECT frame, not in the URL. That keeps them out of
  // logs and out of an HTTP Basic header that Web-STOMP ignores.
  parsed.username = '';
  parsed.password = '';
  return { socketUrl: parsed.toString(), login, passcode };
}

interface Queued {
  destination: string;
  body: string;
}

const silentLog: BrokerLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * Publishes market topics to RabbitMQ's STOMP plugin over Web-STOMP (scale-out mode),
 * under the names of `brokerDestination`, with `content-type: application/json`.
 * Reconnects on its own. Prices go stale quickly, so while disconnected it keeps only the
 * latest message per destination, and at most `maxQueuedMessages` destinations. The rest
 * is sent when the connection is back.
 */
export function createBrokerPublisher(options: BrokerPublisherOptions): BrokerPublisher {
  const { socketUrl, login, passcode } = parseBrokerUrl(options.url);
  const log = options.log ?? silentLog;
  const maxQueued = options.maxQueuedMessages ?? DEFAULT_MAX_QUEUED_MESSAGES;
  if (!Number.isInteger(maxQueued) || maxQueued < 1) throw new RangeError(`maxQueuedMessages must be a positive integer, got ${maxQueued}`);
  const startTimeoutMs = options.startTimeoutMs ?? BROKER_START_TIMEOUT_MS;
  const reconnectDelayMs = options.reconnectDelayMs ?? BROKER_RECONNECT_DELAY_MS;
  const coalesce = options.coalesce ?? coalesceMarketMessage;

  const connectHeaders: Record<string, string> = {
    login: options.login ?? login ?? defaultLogin,
    passcode: options.passcode ?? passcode ?? defaultPasscode,
  };
  if (options.vhost !== undefined) connectHeaders.host = options.vhost;

  const client = new Client({
    webSocketFactory: () => new WebSocket(socketUrl, stompSubprotocols),
    connectHeaders,
    reconnectDelay: reconnectDelayMs,
    reconnectTimeMode: ReconnectionTimeMode.EXPONENTIAL,
    maxReconnectDelay: Math.max(reconnectDelayMs, options.maxReconnectDelayMs ?? BROKER_MAX_RECONNECT_DELAY_MS),
    connectionTimeout: connectAttemptTimeoutMs,
    heartbeatIncoming: heartbeatMs,
    heartbeatOutgoing: heartbeatMs,
    debug: () => undefined,
  });

  // Keyed by broker destination. Map order is update order (an update moves its entry to
  // the end), so the first entry is the least recently updated one, dropped when full.
  const queue = new Map<string, Queued>();
  let droppedWhileDown = 0;
  let supersededWhileDown = 0;
  let stopped = false;
  let outageLogged = false;
  let pendingStart: { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void; timer: ReturnType<typeof setTimeout> } | null = null;
  // Report a destination without a broker name once, not every 100 ms.
  const unmappable = new Set<string>();

  function settleStart(error?: Error) {
    if (!pendingStart) return;
    clearTimeout(pendingStart.timer);
    if (error) pendingStart.reject(error);
    else pendingStart.resolve();
    pendingStart = null;
  }

  function trySend(target: string, body: string): boolean {
    if (!client.connected) return false;
    try {
      client.publish({ destination: target, body, headers: { 'content-type': 'application/json' } });
      return true;
    } catch {
      // The connection ended between the check and the write; keep the message for the reconnect.
      return false;
    }
  }

  function enqueue(target: string, entry: Queued) {
    const previous = queue.get(target);
    if (previous) {
      queue.delete(target);
      supersededWhileDown += 1;
      entry = { destination: entry.destination, body: coalesce(entry.destination, previous.body, entry.body) };
    }
    queue.set(target, entry);
    if (queue.size > maxQueued) {
      const oldest = queue.keys().next().value;
      if (oldest !== undefined) queue.delete(oldest);
      droppedWhileDown += 1;
    }
  }

  client.onConnect = () => {
    const waiting = [...queue.entries()];
    queue.clear();
    for (const [target, entry] of waiting) {
      if (!trySend(target, entry.body)) enqueue(target, entry);
    }
    log.info(
      { url: socketUrl, flushed: waiting.length - queue.size, dropped: droppedWhileDown, superseded: supersededWhileDown },
      'market broker connected',
    );
    droppedWhileDown = 0;
    supersededWhileDown = 0;
    outageLogged = false;
    settleStart();
  };

  client.onStompError = (frame: IFrame) => {
    const reason = frame.headers.message ?? 'STOMP error';
    log.error({ url: socketUrl, reason, details: frame.body }, 'market broker refused the connection or a frame');
    // Wrong credentials or vhost do not fix themselves: fail start() at once instead of waiting for the timeout.
    settleStart(new Error(`market broker at ${socketUrl}: ${reason}`));
  };

  client.onWebSocketClose = () => {
    if (stopped || outageLogged) return;
    outageLogged = true;
    log.warn({ url: socketUrl, maxQueuedMessages: maxQueued }, 'market broker unreachable; keeping the latest message per destination and retrying');
  };

  return {
    start() {
      stopped = false;
      if (client.connected) return Promise.resolve();
      if (pendingStart) return pendingStart.promise;
      let resolve!: () => void;
      let reject!: (error: Error) => void;
      const promise = new Promise<void>((resolvePromise, rejectPromise) => {
        resolve = resolvePromise;
        reject = rejectPromise;
      });
      const timer = setTimeout(() => settleStart(new BrokerConnectTimeoutError(startTimeoutMs, socketUrl)), startTimeoutMs);
      pendingStart = { promise, resolve, reject, timer };
      client.activate();
      return promise;
    },

    publish(destination, body) {
      if (stopped) return;
      let target: string;
      try {
        target = brokerDestination(destination);
      } catch (error) {
        if (!unmappable.has(destination) && unmappable.size < maxReportedUnmappable) {
          unmappable.add(destination);
          log.error({ destination, err: error }, 'no broker name for this destination; not published to the broker');
        }
        return;
      }
      if (!trySend(target, body)) enqueue(target, { destination, body });
    },

    async stop() {
      stopped = true;
      queue.clear();
      settleStart(new Error('market broker publisher stopped before it connected'));
      await client.deactivate();
    },

    connected: () => client.connected,
  };
}
