import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import { Client, ReconnectionTimeMode, type IStompSocket, type StompSubscription } from '@stomp/stompjs';
import { parseBrokerUrl, type BrokerLog } from '../modules/market/broker-publisher';

type SocketConstructor = new (url: string, protocols: string[]) => IStompSocket;
const { WebSocket } = createRequire(import.meta.url)('ws') as { WebSocket: SocketConstructor };

/** What the processes of one deployment tell each other: the market leader's ticks, and pushes for users' sockets. */
export type ClusterChannel = 'ticks' | 'push';

export interface ClusterLink {
  /** This process's name on the link (its own messages are not handed back to it). */
  readonly origin: string;
  /** Resolves once connected and subscribed, or after `timeoutMs` (retries go on). */
  start(timeoutMs?: number): Promise<boolean>;
  /** Whether the broker connection is up now (a silent one counts as down once its heartbeats are missed). */
  connected(): boolean;
  /** Every other process subscribed to `channel` hears `data` (JSON). Pushes wait for a reconnect; ticks do not (newer ones follow). */
  publish(channel: ClusterChannel, data: unknown): void;
  /** `handler` hears what other processes publish on `channel`. */
  subscribe(channel: ClusterChannel, handler: (data: unknown) => void): void;
  stop(): Promise<void>;
}

/** Pushes kept while the broker is unreachable, oldest dropped beyond it (a push is a nudge: the next change or a reconnect resends the state). */
const maxQueuedPushes = 1_000;
const stompSubprotocols = ['v12.stomp', 'v11.stomp', 'v10.stomp'];

/**
 * The processes of one deployment talk through RabbitMQ (the market broker, over STOMP):
 * a topic per channel, named after the database they share, so that two deployments (or a
 * test run) on one broker never hear each other. Each subscriber gets its own queue, so
 * every process hears every message; a message carries its origin, and a process skips its own.
 */
export function createClusterLink(options: {
  url: string;
  databaseUrl: string;
  /**
   * Signs every message (HMAC-SHA256): browsers may reach the same broker for prices, and a
   * forged tick would be a forged fill price. Derived from the secret every process shares.
   */
  secret: Uint8Array;
  log: BrokerLog;
  reconnectDelayMs?: number;
}): ClusterLink {
  const { socketUrl, login, passcode } = parseBrokerUrl(options.url);
  const origin = crypto.randomBytes(8).toString('hex');
  const namespace = crypto.createHash('sha256').update(options.databaseUrl).digest('hex').slice(0, 16);
  const destinationOf = (channel: ClusterChannel) => `/topic/cluster.${namespace}.${channel}`;
  const signingKey = crypto.createHmac('sha256', options.secret).update('cluster-link').digest();
  const signatureOf = (payload: string) => crypto.createHmac('sha256', signingKey).update(payload).digest();
  const handlers = new Map<ClusterChannel, ((data: unknown) => void)[]>();
  const subscriptions: StompSubscription[] = [];
  const queued: string[] = [];
  let stopped = false;
  let waiting: ((connected: boolean) => void)[] = [];

  const client = new Client({
    webSocketFactory: () => new WebSocket(socketUrl, stompSubprotocols),
    connectHeaders: { login: login ?? 'guest', passcode: passcode ?? 'guest' },
    reconnectDelay: options.reconnectDelayMs ?? 500,
    reconnectTimeMode: ReconnectionTimeMode.EXPONENTIAL,
    maxReconnectDelay: 5_000,
    connectionTimeout: 5_000,
    heartbeatIncoming: 10_000,
    heartbeatOutgoing: 10_000,
    debug: () => undefined,
  });

  function subscribeOn(channel: ClusterChannel) {
    subscriptions.push(
      client.subscribe(destinationOf(channel), (message) => {
        let data: unknown;
        try {
          const envelope = JSON.parse(message.body) as { o?: unknown; p?: unknown; s?: unknown };
          if (envelope.o === origin || typeof envelope.p !== 'string' || typeof envelope.s !== 'string') return;
          const given = Buffer.from(envelope.s, 'base64');
          const expected = signatureOf(`${String(envelope.o)}.${channel}.${envelope.p}`);
          if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) {
            options.log.warn({ channel }, 'cluster message with a wrong signature dropped');
            return;
          }
          data = JSON.parse(envelope.p);
        } catch {
          return;
        }
        for (const handler of handlers.get(channel) ?? []) {
          try {
            handler(data);
          } catch (error) {
            options.log.error({ err: error, channel }, 'cluster message handler failed');
          }
        }
      }),
    );
  }

  function send(destination: string, body: string): boolean {
    if (!client.connected) return false;
    try {
      client.publish({ destination, body, headers: { 'content-type': 'application/json' } });
      return true;
    } catch {
      return false;
    }
  }

  client.onConnect = () => {
    subscriptions.length = 0;
    for (const channel of handlers.keys()) subscribeOn(channel);
    while (queued.length > 0) {
      const body = queued[0] as string;
      if (!send(destinationOf('push'), body)) break;
      queued.shift();
    }
    options.log.info({ url: socketUrl }, 'cluster link connected');
    for (const resolve of waiting) resolve(true);
    waiting = [];
  };
  client.onStompError = (frame) => options.log.error({ url: socketUrl, reason: frame.headers.message }, 'cluster link refused by the broker');
  client.onWebSocketClose = () => {
    if (!stopped) options.log.warn({ url: socketUrl }, 'cluster link lost; reconnecting');
  };

  return {
    origin,
    connected: () => client.connected,
    start(timeoutMs = 10_000) {
      if (client.connected) return Promise.resolve(true);
      const promise = new Promise<boolean>((resolve) => {
        waiting.push(resolve);
        setTimeout(() => resolve(false), timeoutMs).unref();
      });
      if (!client.active) client.activate();
      return promise;
    },
    publish(channel, data) {
      if (stopped) return;
      const payload = JSON.stringify(data);
      const body = JSON.stringify({ o: origin, p: payload, s: signatureOf(`${origin}.${channel}.${payload}`).toString('base64') });
      if (send(destinationOf(channel), body) || channel !== 'push') return;
      queued.push(body);
      if (queued.length > maxQueuedPushes) queued.shift();
    },
    subscribe(channel, handler) {
      const list = handlers.get(channel);
      if (list) {
        list.push(handler);
        return;
      }
      handlers.set(channel, [handler]);
      if (client.connected) subscribeOn(channel);
    },
    async stop() {
      stopped = true;
      for (const resolve of waiting) resolve(false);
      waiting = [];
      await client.deactivate();
    },
  };
}
