import { createRequire } from 'node:module';
import type { Instrument } from '../catalogue';
import { decimalToUnits, type MarketDataSource, type RawTick } from './market-data-source';

/**
 * Live crypto prices from Binance's public market stream: one combined-stream
 * connection carrying `<symbol>@bookTicker` (best bid/ask) and `<symbol>@aggTrade`
 * (trades, for volume) for every instrument. Prices stay exact: Binance sends them as
 * decimal strings, converted with decimalToUnits at the instrument's precision.
 *
 * Volume: RawTick volume is an integer, and the catalogue has no volume step, so each
 * aggregated trade counts as its quantity rounded UP to a whole number (0.0015 BTC
 * counts 1, 2.5 ETH counts 3, 100 counts 100). Every trade thus counts at least 1, so
 * the volume of a bar is never less than its number of trades.
 */

/** Binance's public combined-stream endpoint (one connection, many streams). */
export const BINANCE_STREAM_BASE_URL = 'wss://stream.binance.com:9443/stream';
/** Binance refuses more streams than this on one connection. */
export const MAX_STREAMS_PER_CONNECTION = 1024;
/** The wait before reconnecting grows by this much per consecutive failed attempt. */
export const RECONNECT_STEP_MS = 500;
/** ...up to this, so an outage is retried forever but never hammered. */
export const MAX_RECONNECT_DELAY_MS = 30_000;
/** Ticks are handed over in batches at most this often, so a busy feed costs one call per batch. */
export const DEFAULT_BATCH_MS = 50;
/**
 * Binance pings every 20 s: hearing nothing (no message, no ping) for three of those
 * means a dead connection (e.g. half-open TCP) that would otherwise never close.
 */
export const STALE_CONNECTION_MS = 60_000;
/** A bookTicker or aggTrade message is about 200 bytes: anything far larger is not one. */
export const MAX_MESSAGE_BYTES = 64 * 1024;
/** An opening handshake that hangs longer than this is abandoned (and retried). */
export const HANDSHAKE_TIMEOUT_MS = 10_000;

/** Close code sent when the source is stopped. */
const NORMAL_CLOSURE = 1000;

export interface BinanceQuote {
  bid: number;
  ask: number;
}

/** One decoded stream message: a best bid/ask (bookTicker) or a trade (aggTrade). */
export type BinanceEvent =
  | { kind: 'quote'; symbol: string; timeMs: number; bid: number; ask: number }
  | { kind: 'trade'; symbol: string; timeMs: number; price: number; volume: number };

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A positive price in units; only strings, as a JSON number may already have lost digits. */
function priceUnits(value: unknown, precision: number): number | null {
  if (typeof value !== 'string') return null;
  const units = decimalToUnits(value, precision);
  return units !== null && Number.isSafeInteger(units) && units > 0 ? units : null;
}

/** A trade quantity as volume: rounded up to a whole number, at least 1 (see the module comment). */
function quantityVolume(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const match = /^(\d+)(?:\.(\d+))?$/.exec(value);
  if (!match) return null;
  const volume = Number(match[1]) + (/[1-9]/.test(match[2] ?? '') ? 1 : 0);
  // A zero quantity is no trade.
  return Number.isSafeInteger(volume) && volume >= 1 ? volume : null;
}

/**
 * Decodes one text message, combined-stream (`{"stream":..,"data":..}`) or raw. Null
 * for anything that is not a valid bookTicker or aggTrade of a known instrument.
 */
export function decodeBinanceMessage(
  text: string,
  instrumentsByCode: ReadonlyMap<string, Pick<Instrument, 'precision'>>,
  nowMs: number,
): BinanceEvent | null {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(message)) return null;
  let data: JsonObject = message;
  let streamSymbol: string | null = null;
  let streamKind: string | null = null;
  if ('stream' in message) {
    const at = typeof message.stream === 'string' ? message.stream.indexOf('@') : -1;
    if (typeof message.stream !== 'string' || at <= 0 || !isObject(message.data)) return null;
    streamSymbol = message.stream.slice(0, at).toUpperCase();
    streamKind = message.stream.slice(at + 1);
    data = message.data;
  }
  // bookTicker carries no event type; aggTrade says so in `e`.
  const kind = data.e === undefined ? 'bookTicker' : data.e === 'aggTrade' ? 'aggTrade' : null;
  if (kind === null || (streamKind !== null && streamKind !== kind)) return null;
  const symbol = data.s;
  if (typeof symbol !== 'string' || (streamSymbol !== null && streamSymbol !== symbol)) return null;
  const instrument = instrumentsByCode.get(symbol);
  if (!instrument) return null;

  if (kind === 'bookTicker') {
    const bid = priceUnits(data.b, instrument.precision);
    const ask = priceUnits(data.a, instrument.precision);
    if (bid === null || ask === null || ask < bid) return null;
    // No event time in bookTicker: stamp it with the receive time.
    return { kind: 'quote', symbol, timeMs: nowMs, bid, ask };
  }
  const price = priceUnits(data.p, instrument.precision);
  const volume = quantityVolume(data.q);
  const timeMs = data.T;
  if (price === null || volume === null || typeof timeMs !== 'number' || !Number.isSafeInteger(timeMs) || timeMs <= 0) return null;
  return { kind: 'trade', symbol, timeMs, price, volume };
}

/**
 * One message as a RawTick. A bookTicker gives bid/ask at the receive time with volume
 * 0; an aggTrade gives its volume at the trade time, with the symbol's last known
 * bid/ask from `quotes` (null while none is known). Pure: `quotes` is only read.
 */
export function parseBinanceMessage(
  text: string,
  instrumentsByCode: ReadonlyMap<string, Pick<Instrument, 'precision'>>,
  nowMs: number,
  quotes: ReadonlyMap<string, BinanceQuote> = new Map(),
): RawTick | null {
  const event = decodeBinanceMessage(text, instrumentsByCode, nowMs);
  if (!event) return null;
  if (event.kind === 'quote') return { symbol: event.symbol, timeMs: event.timeMs, bid: event.bid, ask: event.ask, volume: 0 };
  const quote = quotes.get(event.symbol);
  if (!quote) return null;
  return { symbol: event.symbol, timeMs: event.timeMs, bid: quote.bid, ask: quote.ask, volume: event.volume };
}

/** The combined-stream URL for the instruments: bookTicker (and aggTrade unless `trades` is false) each. */
export function binanceStreamUrl(
  instruments: readonly Pick<Instrument, 'code'>[],
  options: { baseUrl?: string; trades?: boolean } = {},
): string {
  const kinds = options.trades === false ? ['bookTicker'] : ['bookTicker', 'aggTrade'];
  const streams = instruments.flatMap((instrument) => kinds.map((kind) => `${instrument.code.toLowerCase()}@${kind}`));
  if (streams.length === 0) throw new RangeError('binance stream: no instruments');
  if (streams.length > MAX_STREAMS_PER_CONNECTION) {
    throw new RangeError(`binance stream: ${streams.length} streams, at most ${MAX_STREAMS_PER_CONNECTION} per connection`);
  }
  return `${options.baseUrl ?? BINANCE_STREAM_BASE_URL}?streams=${streams.join('/')}`;
}

/** The wait before reconnect attempt `attempt` (1, 2, ...): a step per attempt, capped. */
export function reconnectDelayMs(attempt: number, stepMs = RECONNECT_STEP_MS, maxMs = MAX_RECONNECT_DELAY_MS): number {
  return Math.min(stepMs * Math.max(1, attempt), maxMs);
}

export interface BinanceStreamLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export interface BinanceStreamOptions {
  instruments: readonly Instrument[];
  /** Full stream URL; by default the public combined stream of `instruments` (see binanceStreamUrl). */
  url?: string;
  /** Endpoint the default URL is built on (a local server in tests). */
  baseUrl?: string;
  /** Subscribe to aggTrade for volume (default true); without it every tick has volume 0. */
  trades?: boolean;
  nowMs?: () => number;
  batchMs?: number;
  reconnectStepMs?: number;
  maxReconnectDelayMs?: number;
  staleAfterMs?: number;
  log?: BinanceStreamLogger;
}

// `ws` ships no type declarations (and @types/ws is not installed): type the part used.
interface StreamSocket {
  on(event: 'open' | 'ping', listener: () => void): void;
  on(event: 'message', listener: (data: Uint8Array, isBinary: boolean) => void): void;
  on(event: 'close', listener: (code: number) => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
  close(code?: number): void;
  terminate(): void;
}
type StreamSocketConstructor = new (url: string, options: { handshakeTimeout: number; maxPayload: number }) => StreamSocket;
const { WebSocket } = createRequire(import.meta.url)('ws') as { WebSocket: StreamSocketConstructor };

type Timer = ReturnType<typeof setTimeout>;

/**
 * The live Binance source. start() connects; ticks are buffered and handed over every
 * `batchMs`, one per symbol: the latest bid/ask wins, the volume of every trade in the
 * batch is added. A dropped connection (Binance also ends every connection after 24 h)
 * is reopened after 500 ms × attempt, capped, forever; stop() closes and stops that.
 */
export function binanceStreamSource(options: BinanceStreamOptions): MarketDataSource {
  const nowMs = options.nowMs ?? Date.now;
  const batchMs = options.batchMs ?? DEFAULT_BATCH_MS;
  const stepMs = options.reconnectStepMs ?? RECONNECT_STEP_MS;
  const maxDelayMs = options.maxReconnectDelayMs ?? MAX_RECONNECT_DELAY_MS;
  const staleAfterMs = options.staleAfterMs ?? STALE_CONNECTION_MS;
  const log = options.log;
  const url =
    options.url ??
    binanceStreamUrl(options.instruments, {
      ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
      ...(options.trades !== undefined ? { trades: options.trades } : {}),
    });
  const byCode = new Map(options.instruments.map((instrument) => [instrument.code, instrument]));
  const decoder = new TextDecoder();

  /** Set while started. */
  let deliver: ((ticks: RawTick[]) => void) | null = null;
  /** The connection in use; events of any other (closed, abandoned) socket are ignored. */
  let socket: StreamSocket | null = null;
  /** Consecutive attempts without a message received: the reconnect delay's multiplier. */
  let attempt = 0;
  let reconnectTimer: Timer | null = null;
  let batchTimer: Timer | null = null;
  let staleTimer: Timer | null = null;
  const quotes = new Map<string, BinanceQuote>();
  const pending = new Map<string, RawTick>();
  const lastSentMs = new Map<string, number>();

  function clearTimer(timer: Timer | null): null {
    if (timer) clearTimeout(timer);
    return null;
  }

  function flush() {
    batchTimer = null;
    if (!deliver || pending.size === 0) return;
    const ticks = [...pending.values()];
    pending.clear();
    for (const tick of ticks) {
      // Trade times come from Binance's clock, quote times from ours: never step back,
      // since the market data service drops a tick older than the last.
      tick.timeMs = Math.max(tick.timeMs, lastSentMs.get(tick.symbol) ?? tick.timeMs);
      lastSentMs.set(tick.symbol, tick.timeMs);
    }
    deliver(ticks.sort((a, b) => a.timeMs - b.timeMs));
  }

  function accept(event: BinanceEvent) {
    const entry = pending.get(event.symbol);
    if (event.kind === 'quote') {
      quotes.set(event.symbol, { bid: event.bid, ask: event.ask });
      if (entry) Object.assign(entry, { bid: event.bid, ask: event.ask, timeMs: Math.max(entry.timeMs, event.timeMs) });
      else pending.set(event.symbol, { symbol: event.symbol, timeMs: event.timeMs, bid: event.bid, ask: event.ask, volume: 0 });
    } else {
      const quote = quotes.get(event.symbol);
      if (!quote) return; // no bid/ask known yet on this connection: nothing to attach the volume to
      if (entry) Object.assign(entry, { volume: entry.volume + event.volume, timeMs: Math.max(entry.timeMs, event.timeMs) });
      else pending.set(event.symbol, { symbol: event.symbol, timeMs: event.timeMs, bid: quote.bid, ask: quote.ask, volume: event.volume });
    }
    if (!batchTimer) {
      batchTimer = setTimeout(flush, batchMs);
      batchTimer.unref?.();
    }
  }

  /** (Re)starts the dead-connection watchdog; refresh() is cheap enough for every message. */
  function heard() {
    if (staleTimer) {
      staleTimer.refresh();
      return;
    }
    staleTimer = setTimeout(() => {
      staleTimer = null;
      log?.warn({ url, staleAfterMs }, 'binance stream silent: dropping the connection');
      socket?.terminate(); // its close event reconnects
    }, staleAfterMs);
    staleTimer.unref?.();
  }

  function connect() {
    reconnectTimer = null;
    // A quote from before the gap is stale: trades wait for this connection's first bookTicker.
    quotes.clear();
    const current = new WebSocket(url, { handshakeTimeout: HANDSHAKE_TIMEOUT_MS, maxPayload: MAX_MESSAGE_BYTES });
    socket = current;
    let received = false;
    current.on('open', () => {
      if (socket !== current) return;
      log?.info({ url, attempt }, 'binance stream connected');
      heard();
    });
    // Binance pings every 20 s and drops connections that do not pong: `ws` answers
    // every ping with a pong by itself, so this only feeds the watchdog.
    current.on('ping', () => {
      if (socket === current) heard();
    });
    current.on('message', (data, isBinary) => {
      if (socket !== current || isBinary) return;
      heard();
      if (!received) {
        // Only a connection that delivers counts as healthy, so an accept-then-drop
        // loop keeps backing off.
        received = true;
        attempt = 0;
      }
      const event = decodeBinanceMessage(decoder.decode(data), byCode, nowMs());
      if (event) accept(event);
    });
    current.on('error', (error) => {
      // Always listened to, or `ws` would throw; the close event that follows reconnects.
      if (socket === current) log?.warn({ url, error: error.message }, 'binance stream error');
    });
    current.on('close', (code) => {
      if (socket !== current) return;
      socket = null;
      staleTimer = clearTimer(staleTimer);
      if (!deliver) return;
      attempt += 1;
      const delayMs = reconnectDelayMs(attempt, stepMs, maxDelayMs);
      log?.warn({ url, code, attempt, delayMs }, 'binance stream closed: reconnecting');
      reconnectTimer = setTimeout(connect, delayMs);
      reconnectTimer.unref?.();
    });
  }

  return {
    name: 'binance',
    start(onTicks) {
      if (deliver) return;
      deliver = onTicks;
      attempt = 0;
      connect();
    },
    stop() {
      deliver = null;
      reconnectTimer = clearTimer(reconnectTimer);
      batchTimer = clearTimer(batchTimer);
      staleTimer = clearTimer(staleTimer);
      pending.clear();
      const current = socket;
      socket = null;
      // Closing a socket still connecting aborts it (with an error event, ignored).
      current?.close(NORMAL_CLOSURE);
    },
  };
}
