import type { AccountBalance } from '../api/account';
import type { OptionOrder } from '../api/options';
import type { BrandConfigResult } from '../config/brand-config';
import type { SwitchesCheck } from '../config/switches';
import type { PositionsSummary } from '../api/trading';
import type { KlinePeriod, WireBar } from '../market/kline';
import type { Book } from '../session/token';

/**
 * The data engine's API and the events it pushes, declared once. The worker's object is
 * checked against `EngineApi` with `satisfies`; the app calls it through Comlink and
 * receives `EngineBatch`es on the listener it registers in `hello`.
 */

export interface SessionTokens {
  token: string;
  refreshToken: string;
}

/** Why a session ended; the tabs use it to choose where to go and what to say. */
export type SessionEndReason =
  | 'logout'
  | 'expired'
  | 'invalid'
  | 'ended-by-server'
  | 'unauthorized'
  | 'password-changed';

export interface SessionSnapshot {
  signedIn: boolean;
  token: string | null;
  refreshToken: string | null;
  uid: number | null;
  book: Book | null;
  /** Access-token expiry, ms since epoch. */
  expiresAtMs: number | null;
  /** Increases with every change, so a tab can ignore an older snapshot. */
  version: number;
  endReason: SessionEndReason | null;
}

export const signedOutSession: SessionSnapshot = {
  signedIn: false,
  token: null,
  refreshToken: null,
  uid: null,
  book: null,
  expiresAtMs: null,
  version: 0,
  endReason: null,
};

/** The signed-in account (user and book) a session speaks for, as a key; null when signed out. */
export function sessionAccount(snapshot: Pick<SessionSnapshot, 'signedIn' | 'uid' | 'book'>): string | null {
  return snapshot.signedIn ? `${snapshot.uid}|${snapshot.book}` : null;
}

/** Whether a session trades on the demo book (the Mock paths, the demo reset). */
export function isDemoSession(snapshot: Pick<SessionSnapshot, 'book'>): boolean {
  return snapshot.book === 'demo';
}

export type EngineKind = 'shared' | 'dedicated';

/**
 * A price as it travels to a tab, compact:
 * [symbol, price, bidPrice, askPrice, priceChangePercent, low, high, volume, lastUpdate]
 */
export type PriceRow = [string, string, string, string, string, string, string, string, number];

export interface MarketSnapshot {
  status: 'connecting' | 'open' | 'closed';
  /** Nothing arrived for 10 s. */
  stale: boolean;
  /** More than 10 reconnection attempts failed in a row (they go on): the tabs offer a reload until it opens. */
  connectionFailed: boolean;
  /** Waiting between reconnection attempts: when the next one starts (epoch ms, the worker's clock), else null. */
  retryAtMs: number | null;
  /** The all-prices feed has arrived at least once (the loading screen hides). */
  ready: boolean;
  symbolCount: number;
}

export const initialMarketSnapshot: MarketSnapshot = {
  status: 'connecting',
  stale: false,
  connectionFailed: false,
  retryAtMs: null,
  ready: false,
  symbolCount: 0,
};

/** What the session clock needs from the brand and the server's switches. */
export interface SessionSettings {
  /** The API root ("" is the page's origin). */
  apiRoot: string;
  /** VIRTUAL_CURRENCY_TRADE: while off, a demo session is signed out. */
  demoAllowed: boolean;
  /** ws(s) URL of the positions socket (`{exchangeRoot}/exchange/ws`). */
  positionsSocketUrl: string;
}

export interface MarketSettings {
  /** ws(s) URL of the STOMP endpoint. */
  socketUrl: string;
  /** The market root for `/market/history` ("" is the page's origin). */
  marketRoot: string;
  /** How often each tab gets its changed prices. */
  batchWindowMs: number;
  /** The socket is RabbitMQ's Web-STOMP (the brand's `marketSocketUrl`): dotted per-symbol and kline topics. */
  brokerNaming?: boolean;
  /** With no tab visible this long, only the account's prices stay live (default 60 s). */
  quietAfterMs?: number;
  /** Follow the all-prices topic whatever the tabs show (the brand's `followAllPrices`). */
  followAllPrices?: boolean;
}

export interface EngineEventMap {
  session: SessionSnapshot;
  market: MarketSnapshot;
  prices: PriceRow[];
  /** These symbols' prices are no longer followed (nothing shows them, or the engine is quiet): show them as unknown. */
  pricesExpired: string[];
  /** The forming bar of a watched (symbol, period), at most once per batch window. */
  kline: { symbol: string; period: KlinePeriod; bar: WireBar };
  /** The signed-in account's open positions and pending orders with the summaries. */
  positions: PositionsState;
  /** The signed-in account's running options with their countdowns, about every 200 ms while any run. */
  options: OptionsState;
  /**
   * The signed-in account's balance as the exchange socket last pushed it (on joining and
   * after every change to its money); null after sign-out or a switch until it speaks again.
   */
  balance: AccountBalance | null;
  /** A notice arrived for the signed-in user (pushed on the exchange socket): their unread count after it. */
  notice: { unreadCount: number };
}

/** A running option and its countdown: progress = ceil(remaining / timeLong × 100). */
export interface RunningOption {
  order: OptionOrder;
  remainingMs: number;
  progress: number;
}

/** Running options (time left) and the latest settled ones (from the server's pushes). */
export interface OptionsState {
  /** False until the running list has been loaded for this account. */
  loaded: boolean;
  running: RunningOption[];
  settled: OptionOrder[];
}

/** Open positions (holtOrder) and pending orders (pendingOrder); null until the feed speaks. */
export interface PositionsState {
  holt: PositionsSummary | null;
  pending: PositionsSummary | null;
  /** More than 10 reconnections of the exchange socket failed (the market socket's rule; they go on): the tabs offer a reload. */
  connectionFailed: boolean;
}

export type EngineEvent = {
  [K in keyof EngineEventMap]: { type: K; payload: EngineEventMap[K] };
}[keyof EngineEventMap];

/** Pushed to one tab; `seq` increases per tab so a tab can drop a late batch. */
export interface EngineBatch {
  seq: number;
  events: EngineEvent[];
}

export type EngineListener = (batch: EngineBatch) => void;

export interface EngineWelcome {
  kind: EngineKind;
  session: SessionSnapshot;
  market: MarketSnapshot;
  heartbeatIntervalMs: number;
}

export interface EngineDiagnostics {
  kind: EngineKind;
  clientCount: number;
  startedAtMs: number;
  marketSocketOpen: boolean;
  watchedSymbols: number;
}

export interface EngineApi {
  /** The ready handshake: registers a tab and its listener, answers the current state. */
  hello(clientId: string, listener: EngineListener): Promise<EngineWelcome>;
  /** The latest positions (also pushed as `positions` events). */
  positions(): Promise<PositionsState>;
  /** The running options and recent settlements (also pushed as `options` events). */
  options(): Promise<OptionsState>;
  /** The account's latest balance (also pushed as `balance` events); null until the socket has sent it. */
  balance(): Promise<AccountBalance | null>;
  /** Keeps a tab registered; false means the engine had evicted it and it must say hello again. */
  heartbeat(clientId: string): Promise<boolean>;
  /** A tab leaving (pagehide). */
  goodbye(clientId: string): Promise<void>;
  /** Adopts new tokens (sign-in, refresh, account switch) for every tab. */
  signIn(tokens: SessionTokens): Promise<SessionSnapshot>;
  /**
   * Ends the session for every tab. With `onlyToken`, only while the session still holds
   * that token: a late refusal, or a delayed sign-out, of a session already replaced by a
   * new sign-in must not end the new one (checked in the engine, so no sign-in slips between).
   */
  signOut(reason: SessionEndReason, onlyToken?: string): Promise<SessionSnapshot>;
  diagnostics(): Promise<EngineDiagnostics>;
  /**
   * Starts the session clock (the start check, then every 60 s: expiry, refresh under 5
   * minutes left). Later calls update the settings.
   */
  configureSession(settings: SessionSettings): Promise<void>;
  /** Starts the market feed with the brand's settings; later calls change nothing. */
  configureMarket(settings: MarketSettings): Promise<MarketSnapshot>;
  /**
   * Replaces the symbols this tab shows; their latest prices come at the next batch.
   * `glance`: those of them it shows without needing every tick (list rows, hot cards),
   * followed at most once a second; the rest (a chart, an order form) at every tick.
   */
  watchPrices(clientId: string, symbols: string[], glance?: string[]): Promise<void>;
  /**
   * Whether this tab is visible. When none has been for a while (60 s), the engine keeps
   * only the account's positions and running options live and resumes the rest at once
   * when a tab shows again.
   */
  setVisible(clientId: string, visible: boolean): Promise<void>;
  /**
   * Starts the live bar of a chart: answers up to 300 bars of history (fetched once per
   * browser), then pushes the forming bar as ticks arrive. `fromTicks`: a price line only
   * (a sparkline), formed from the prices the tab watches without the server's kline topic.
   */
  watchKline(clientId: string, symbol: string, period: KlinePeriod, fromTicks?: boolean): Promise<WireBar[]>;
  unwatchKline(clientId: string, symbol: string, period: KlinePeriod): Promise<void>;
  /**
   * The bars of one period between two times (ms, both included), from `/market/history/limit`
   * under the market root: what the home mini chart draws before its live bar; empty when the
   * server refuses. Not cached: each card asks for its own recent window.
   */
  historyRange(symbol: string, period: KlinePeriod, fromMs: number, toMs: number): Promise<WireBar[]>;
  /** After the reconnection alert: try again from the first attempt. */
  reconnectMarket(): Promise<void>;
  /**
   * The browser is online again (`online`) or a tab was shown: every socket waiting to
   * reconnect tries now with its count from the start, and the session clock checks what it
   * could not reach. An open connection is left alone.
   */
  connectivityHint(): Promise<void>;
  /**
   * Checks config.json as the tab fetched it: the config with its defaults, or its problems
   * (zod/mini's bare words). The engine holds the schema (and zod) so that the page's first
   * load need not.
   */
  checkBrandConfig(input: unknown): Promise<BrandConfigResult>;
  /** Checks the switches call's answer (envelope and all) as the tab's request client got it, for the same reason. */
  checkSwitchesAnswer(answer: unknown): Promise<SwitchesCheck>;
}

/**
 * Tabs' main-thread timers run at most once a minute after five hidden minutes, so a
 * hidden tab's heartbeat may be a minute late: evict only after much longer.
 */
export const engineHeartbeatIntervalMs = 10_000;
export const engineClientTimeoutMs = 150_000;
