import { Client, Versions, type IMessage, type IStompSocket, type StompSubscription } from '@stomp/stompjs';
import { decodePriceBatch, isPriceTick, priceTopic, wireBarSchema } from '../../shared/api/market';
import { brokerDestination } from '../../shared/api/market-broker';
import type { KlinePeriod, WireBar } from '../../shared/market/kline';
import { binaryTickForm, createBinaryTickDecoder, DecodedTicks, tickFormHeader } from '../../shared/market/binary-ticks';
import { batchHeader, tickLinesTopic } from '../../shared/market/tick-lines';
import { noPrices, type PriceSelection } from '../engine/price-subscriptions';
import type { PriceBatch } from '../engine/tick-store';
import {
  attemptStarted,
  connectionLost,
  connectionOpened,
  initialConnectionState,
  retryNow,
  type ConnectionState,
  type RandomSource,
} from '../engine/reconnect-policy';

/** Heart-beats every 10 s both ways (the server's own interval); a silent server is noticed by the staleness check too. */
const defaultHeartbeatMs = 10_000;
/** From opening the socket to CONNECTED. */
const connectTimeoutMs = 10_000;
/** How long stopping waits for the server's RECEIPT of DISCONNECT before dropping the socket. */
const disconnectTimeoutMs = 1_000;
const pricesTopic = '/topic/prices';
/**
 * The batch subscription's id, the same on every connection: the server then encodes a
 * publication's batch once for all its followers. A batch started afresh on the same
 * connection takes another, so that what was on its way under the old one is not read
 * against the new one's state.
 */
const firstBatchId = 'ticks';
const stompVersions = new Versions([Versions.V1_2]);

/** Opens the WebSocket: the platform's by default (Node tests pass `ws` or a fake). */
export type CreateSocket = (url: string, protocols: string[]) => IStompSocket;

export interface MarketSocketOptions {
  url: string;
  /**
   * `glance`: from a glance topic (`/topic/price-1s/…`), already held to one a second per symbol by the server.
   * Binary ticks come decoded in place (`DecodedTicks`): read them before returning, the next MESSAGE overwrites them.
   */
  onPrices: (ticks: PriceBatch, glance?: boolean) => void;
  onState: (state: ConnectionState) => void;
  /** The server's forming bar of a followed (symbol, period). */
  onBar?: (symbol: string, period: KlinePeriod, bar: WireBar) => void;
  log?: (message: string) => void;
  createSocket?: CreateSocket;
  /** What we offer for heart-beats, in ms, both ways (tests shorten it). Default 10 s. */
  heartbeatMs?: number;
  /**
   * CONNECT's host header. Default '/': the server's endpoint ignores it, and RabbitMQ's
   * Web-STOMP (scale-out mode) takes it as the virtual host, '/' being its default.
   */
  host?: string;
  /**
   * RabbitMQ's Web-STOMP (scale-out mode) takes one slash after `/topic`: the per-symbol
   * and kline topics are then the dotted names of `market-broker.ts`, with the documented
   * JSON bodies (a broker knows no batch subscription).
   */
  brokerNaming?: boolean;
  /** The reconnection waits' jitter (`Math.random` by default; tests fix it). */
  random?: RandomSource;
}

const defaultCreateSocket: CreateSocket = (url, protocols) => new WebSocket(url, protocols);
const ignoreMessage = () => undefined;

/**
 * The one market connection of this browser: @stomp/stompjs's Client over WebSocket,
 * subscribed to the prices the engine follows (per-symbol topics, or the all-prices topic)
 * and reconnecting by the engine's policy (500 ms × attempt up to 30 s, jittered, for ever; the
 * tabs offer a reload after 10): the Client's own reconnection is off, and each attempt is an activate().
 *
 * At the server's endpoint the price topics are followed as members of one batch
 * subscription (`tick-lines.ts`) in the binary form (`binary-ticks.ts`): their ticks arrive
 * as one compact MESSAGE per publication, so that the client's parser, which reads every
 * octet, reads few.
 */
export function createMarketSocket(options: MarketSocketOptions) {
  let state: ConnectionState = initialConnectionState;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  const batched = !options.brokerNaming;
  const createSocket = options.createSocket ?? defaultCreateSocket;

  const client = new Client({
    webSocketFactory: () => createSocket(options.url, stompVersions.protocolVersions()),
    stompVersions,
    connectHeaders: { host: options.host ?? '/' },
    heartbeatIncoming: options.heartbeatMs ?? defaultHeartbeatMs,
    heartbeatOutgoing: options.heartbeatMs ?? defaultHeartbeatMs,
    connectionTimeout: connectTimeoutMs,
    // The engine's policy is the one rule for reconnecting (onWebSocketClose below).
    reconnectDelay: 0,
    // A dead connection (no heart-beats, no CONNECTED) is dropped at once, not after a closing handshake that cannot come.
    discardWebsocketOnCommFailure: true,
    debug: () => undefined,
  });

  function setState(next: ConnectionState) {
    state = next;
    options.onState(next);
  }

  const named = (destination: string) => (options.brokerNaming ? brokerDestination(destination) : destination);

  /**
   * The price topics followed, each with its subscription on the current connection (null
   * until it opens). A symbol moving between every tick and a glance subscribes to its other
   * topic before leaving the first, and the server sends the newest price on subscribing.
   */
  let selection: PriceSelection = noPrices;
  let everyTick: ReadonlySet<string> = new Set();
  const priceTopics = new Map<string, StompSubscription | null>();

  /** The batch subscription's sources, as this connection got them (binary ticks refer to earlier ones). */
  let binaryTicks = createBinaryTickDecoder();
  let batchId = firstBatchId;
  let batchCount = 0;
  let batch: StompSubscription | null = null;

  /** Subscribes to the batch, in the binary form, with a decoder that knows nothing yet: its members' states come first. */
  function subscribeBatch() {
    binaryTicks = createBinaryTickDecoder();
    batch = client.subscribe(tickLinesTopic, onBinaryTicks, { id: batchId, [tickFormHeader]: binaryTickForm });
  }

  /**
   * A body that did not read leaves this connection's state of its sources in doubt: the
   * batch starts afresh (under a new id), and the endpoint sends every member's state again.
   */
  function resubscribeBatch() {
    for (const [topic, subscription] of priceTopics) {
      subscription?.unsubscribe();
      priceTopics.set(topic, null);
    }
    batch?.unsubscribe();
    batchCount += 1;
    batchId = `${firstBatchId}-${batchCount}`;
    subscribeBatch();
    syncPriceTopics();
  }

  function onBinaryTicks(message: IMessage) {
    const ticks = binaryTicks.decodeInto(message.binaryBody);
    if (!ticks) {
      options.log?.('market: unreadable binary ticks; subscribing afresh');
      resubscribeBatch();
      return;
    }
    if (selection.all) {
      if (ticks.length > 0) options.onPrices(ticks);
      return;
    }
    // One batch carries every-tick and glanced-at symbols; the engine expedites the glances.
    const everyTickSlots: number[] = [];
    const glanceSlots: number[] = [];
    for (let index = 0; index < ticks.length; index += 1) (everyTick.has(ticks.symbol(index)) ? everyTickSlots : glanceSlots).push(index);
    if (everyTickSlots.length > 0) options.onPrices(new DecodedTicks(ticks.slots, everyTickSlots));
    if (glanceSlots.length > 0) options.onPrices(new DecodedTicks(ticks.slots, glanceSlots), true);
  }

  function onPricesMessage(message: IMessage) {
    const ticks = decodePriceBatch(message.body);
    if (ticks) options.onPrices(ticks);
    else options.log?.('market: a prices message did not match the contract');
  }

  /** A `/topic/price/{symbol}` or `/topic/price-1s/{symbol}` (`glance`) body: one tick. */
  function onPriceBody(body: string, glance: boolean) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      parsed = null;
    }
    if (isPriceTick(parsed)) options.onPrices([parsed], glance);
    else options.log?.('market: a price message did not match the contract');
  }
  const onEveryTickMessage = (message: IMessage) => onPriceBody(message.body, false);
  const onGlanceMessage = (message: IMessage) => onPriceBody(message.body, true);

  function subscribePriceTopic(topic: string): StompSubscription {
    if (batched) return client.subscribe(topic, ignoreMessage, { [batchHeader]: batchId });
    const onMessage = topic === pricesTopic ? onPricesMessage : topic.startsWith(priceTopic('', true)) ? onGlanceMessage : onEveryTickMessage;
    return client.subscribe(named(topic), onMessage);
  }

  function wantedPriceTopics(): Set<string> {
    if (selection.all) return new Set([pricesTopic]);
    return new Set(selection.symbols.map((symbol) => priceTopic(symbol, !everyTick.has(symbol))));
  }

  /** Subscribes to what is followed and unsubscribes from the rest, on the open connection. */
  function syncPriceTopics() {
    const wanted = wantedPriceTopics();
    const leaving = [...priceTopics].filter(([topic]) => !wanted.has(topic));
    for (const topic of wanted) if (!priceTopics.has(topic)) priceTopics.set(topic, null);
    if (client.connected) {
      for (const [topic, subscription] of priceTopics) {
        if (subscription || !wanted.has(topic)) continue;
        priceTopics.set(topic, subscribePriceTopic(topic));
      }
    }
    for (const [topic, subscription] of leaving) {
      if (subscription && client.connected) subscription.unsubscribe();
      priceTopics.delete(topic);
    }
  }

  /** The kline topics followed, each with its subscription on the current connection (null until it opens). */
  const klineTopics = new Map<string, { symbol: string; period: KlinePeriod; subscription: StompSubscription | null }>();
  const klineTopic = (symbol: string, period: KlinePeriod) => `/topic/kline/${symbol}/${period}`;

  function subscribeKline(topic: string) {
    const entry = klineTopics.get(topic);
    if (!entry || !client.connected) return;
    entry.subscription = client.subscribe(named(topic), (message) => {
      const bar = decodeWireBar(message.body);
      if (bar) options.onBar?.(entry.symbol, entry.period, bar);
      else options.log?.('market: a kline message did not match the contract');
    });
  }

  /** Subscriptions die with their connection: every (re)connection subscribes anew. */
  function forgetSubscriptions() {
    batch = null;
    for (const topic of priceTopics.keys()) priceTopics.set(topic, null);
    for (const entry of klineTopics.values()) entry.subscription = null;
  }

  client.onConnect = () => {
    setState(connectionOpened());
    forgetSubscriptions();
    if (batched) {
      batchId = firstBatchId;
      subscribeBatch();
    }
    syncPriceTopics();
    for (const topic of klineTopics.keys()) subscribeKline(topic);
  };
  client.onStompError = (frame) => options.log?.(`market: STOMP error ${frame.headers.message ?? frame.body}`);
  client.onWebSocketClose = (event?: { code?: number; reason?: string }) => {
    // Stopping or restarting on purpose deactivated the Client first: not a lost connection.
    if (!client.active) return;
    const wasOpen = state.status === 'open';
    forgetSubscriptions();
    // No socket is left, so this ends the attempt at once; the policy decides on the next.
    void client.deactivate();
    if (wasOpen) options.log?.(`market: connection closed (${event?.code ?? ''}${event?.reason ? `: ${event.reason}` : ''})`);
    const lost = connectionLost(state, options.random);
    setState(lost.state);
    retryTimer = setTimeout(() => {
      retryTimer = null;
      setState(attemptStarted(state));
      client.activate();
    }, lost.retryInMs);
  };

  /** Waiting for the next attempt (the network is back, a tab shows): try now, the count from the start. */
  function tryNowIfWaiting() {
    if (retryTimer === null) return;
    clearTimeout(retryTimer);
    retryTimer = null;
    setState(retryNow(state));
    client.activate();
  }

  /** Stops retrying and lets the current connection go: DISCONNECT with a receipt, or dropped after a second without one. */
  async function dropConnection(): Promise<void> {
    if (retryTimer) clearTimeout(retryTimer);
    retryTimer = null;
    forgetSubscriptions();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(() => resolve(client.deactivate({ force: true })), disconnectTimeoutMs);
    });
    await Promise.race([client.deactivate(), late]);
    clearTimeout(timer);
  }

  function start() {
    if (retryTimer) clearTimeout(retryTimer);
    retryTimer = null;
    setState({ ...initialConnectionState });
    // A Client still closing its last socket activates once that is done.
    if (client.active) void client.deactivate({ force: true });
    client.activate();
  }

  return {
    start,
    /** A user's "retry" (home's refresh): a new connection now, the count from the start. */
    restart: start,
    tryNowIfWaiting,
    stop: dropConnection,
    get state() {
      return state;
    },
    followPrices(next: PriceSelection) {
      selection = next;
      everyTick = new Set(next.all ? [] : next.everyTick);
      syncPriceTopics();
    },
    watchKline(symbol: string, period: KlinePeriod) {
      const topic = klineTopic(symbol, period);
      if (klineTopics.has(topic)) return;
      klineTopics.set(topic, { symbol, period, subscription: null });
      subscribeKline(topic);
    },
    unwatchKline(symbol: string, period: KlinePeriod) {
      const topic = klineTopic(symbol, period);
      const subscription = klineTopics.get(topic)?.subscription;
      if (subscription && client.connected) subscription.unsubscribe();
      klineTopics.delete(topic);
    },
  };
}

export type MarketSocket = ReturnType<typeof createMarketSocket>;

/** A kline topic's body: one bar of the market API's shape; null when it is not one. */
function decodeWireBar(body: string): WireBar | null {
  try {
    const parsed = wireBarSchema.safeParse(JSON.parse(body));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
