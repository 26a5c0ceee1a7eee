import { decodePriceBatch, isPriceTick, priceTopic, wireBarSchema, type PriceTick } from '../../shared/api/market';
import { brokerDestination } from '../../shared/api/market-broker';
import { noPrices, type PriceSelection } from '../engine/price-subscriptions';
import type { KlinePeriod, WireBar } from '../../shared/market/kline';
import {
  connectionLost,
  connectionOpened,
  initialConnectionState,
  type ConnectionState,
} from '../engine/reconnect-policy';
import { openStompConnection, type CreateSocket, type StompConnection } from './stomp-connection';

/** Server heart-beats every 10 s both ways; a silent server is noticed by the staleness check too. */
const heartbeatMs = 10_000;
const pricesTopic = '/topic/prices';


export interface MarketSocketOptions {
  url: string;
  /** `glance`: from a glance topic (`/topic/price-1s/…`), already held to one a second per symbol by the server. */
  onPrices: (ticks: PriceTick[], glance?: boolean) => void;
  onState: (state: ConnectionState) => void;
  /** The server's forming bar of a followed (symbol, period). */
  onBar?: (symbol: string, period: KlinePeriod, bar: WireBar) => void;
  log?: (message: string) => void;
  /** Opens the WebSocket; the platform's by default (Node tests pass `ws` or a fake). */
  createSocket?: CreateSocket;
  /**
   * CONNECT's host header. Default '/': the server's endpoint ignores it, and RabbitMQ's
   * Web-STOMP (scale-out mode) takes it as the virtual host, '/' being its default.
   */
  host?: string;
  /**
   * RabbitMQ's Web-STOMP (scale-out mode) takes one slash after `/topic`: the per-symbol
   * and kline topics are then the dotted names of `market-broker.ts`.
   */
  brokerNaming?: boolean;
}

/**
 * The one market connection of this browser: STOMP over WebSocket (our own client and
 * codec: the prices topic is the worker's hot path), subscribed to the prices the engine
 * follows (per-symbol topics, or the all-prices topic), reconnecting by the engine's policy (500 ms × attempt, then give up and let the tabs
 * offer a reload).
 */
export function createMarketSocket(options: MarketSocketOptions) {
  let state: ConnectionState = initialConnectionState;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let connection: StompConnection | null = null;
  /** Bumped whenever a connection is dropped on purpose, so its late reports are ignored. */
  let generation = 0;
  let stopped = false;

  function setState(next: ConnectionState) {
    state = next;
    options.onState(next);
  }

  function onPricesBody(body: string) {
    const ticks = decodePriceBatch(body);
    if (ticks) options.onPrices(ticks);
    else options.log?.('market: a prices message did not match the contract');
  }

  const named = (destination: string) => (options.brokerNaming ? brokerDestination(destination) : destination);

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
  const onEveryTickBody = (body: string) => onPriceBody(body, false);
  const onGlanceBody = (body: string) => onPriceBody(body, true);
  const bodyHandler = (topic: string) => (topic === pricesTopic ? onPricesBody : topic.startsWith(priceTopic('', true)) ? onGlanceBody : onEveryTickBody);

  /**
   * The price topics followed, each with its subscription on the current connection (null
   * until it opens). A symbol moving between every tick and a glance subscribes to its other
   * topic before leaving the first, and the server sends the newest price on subscribing.
   */
  let selection: PriceSelection = noPrices;
  const priceTopics = new Map<string, (() => void) | null>();

  function wantedPriceTopics(): Set<string> {
    if (selection.all) return new Set([pricesTopic]);
    const everyTick = new Set(selection.everyTick);
    return new Set(selection.symbols.map((symbol) => priceTopic(symbol, !everyTick.has(symbol))));
  }

  /** Subscribes to what is followed and unsubscribes from the rest, on the open connection. */
  function syncPriceTopics() {
    const wanted = wantedPriceTopics();
    const leaving = [...priceTopics].filter(([topic]) => !wanted.has(topic));
    for (const topic of wanted) if (!priceTopics.has(topic)) priceTopics.set(topic, null);
    if (connection && state.status === 'open') {
      for (const [topic, unsubscribe] of priceTopics) {
        if (unsubscribe || !wanted.has(topic)) continue;
        priceTopics.set(topic, connection.subscribe(named(topic), bodyHandler(topic)));
      }
    }
    for (const [topic, unsubscribe] of leaving) {
      unsubscribe?.();
      priceTopics.delete(topic);
    }
  }

  /** The kline topics followed, each with its subscription on the current connection (null until it opens). */
  const klineTopics = new Map<string, { symbol: string; period: KlinePeriod; unsubscribe: (() => void) | null }>();
  const klineTopic = (symbol: string, period: KlinePeriod) => `/topic/kline/${symbol}/${period}`;

  function subscribeKline(topic: string) {
    const entry = klineTopics.get(topic);
    if (!entry || !connection || state.status !== 'open') return;
    entry.unsubscribe = connection.subscribe(named(topic), (body) => {
      const bar = decodeWireBar(body);
      if (bar) options.onBar?.(entry.symbol, entry.period, bar);
      else options.log?.('market: a kline message did not match the contract');
    });
  }

  function connect() {
    generation += 1;
    const own = generation;
    connection = openStompConnection({
      url: options.url,
      host: options.host ?? '/',
      heartbeatMs,
      ...(options.createSocket ? { createSocket: options.createSocket } : {}),
      onOpen() {
        if (own !== generation) return;
        setState(connectionOpened());
        // Subscriptions die with their connection: every (re)connection subscribes anew.
        for (const topic of priceTopics.keys()) priceTopics.set(topic, null);
        syncPriceTopics();
        for (const entry of klineTopics.values()) entry.unsubscribe = null;
        for (const topic of klineTopics.keys()) subscribeKline(topic);
      },
      onError(error) {
        if (own === generation) options.log?.(`market: STOMP error ${error.message}`);
      },
      onClose(info) {
        if (own !== generation) return;
        connection = null;
        if (stopped) return;
        if (info.reason !== 'socket-closed' || info.wasConnected) {
          options.log?.(`market: connection closed (${info.reason}${info.detail ? `: ${info.detail}` : ''})`);
        }
        const lost = connectionLost(state);
        setState(lost.state);
        if (lost.retryInMs === null) return;
        retryTimer = setTimeout(() => {
          retryTimer = null;
          if (stopped) return;
          setState({ ...state, status: 'connecting' });
          connect();
        }, lost.retryInMs);
      },
    });
  }

  /** Stops retrying and lets the current connection go without hearing from it again. */
  function dropConnection(): Promise<void> {
    if (retryTimer) clearTimeout(retryTimer);
    retryTimer = null;
    generation += 1;
    const current = connection;
    connection = null;
    return current ? current.disconnect() : Promise.resolve();
  }

  function start() {
    stopped = false;
    void dropConnection();
    setState({ ...initialConnectionState });
    connect();
  }

  return {
    start,
    /** After giving up, a user's "retry" starts the count again. */
    restart: start,
    async stop() {
      stopped = true;
      await dropConnection();
    },
    get state() {
      return state;
    },
    followPrices(next: PriceSelection) {
      selection = next;
      syncPriceTopics();
    },
    watchKline(symbol: string, period: KlinePeriod) {
      const topic = klineTopic(symbol, period);
      if (klineTopics.has(topic)) return;
      klineTopics.set(topic, { symbol, period, unsubscribe: null });
      subscribeKline(topic);
    },
    unwatchKline(symbol: string, period: KlinePeriod) {
      const topic = klineTopic(symbol, period);
      klineTopics.get(topic)?.unsubscribe?.();
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
