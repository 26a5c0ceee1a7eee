import {
  initialMarketSnapshot,
  engineClientTimeoutMs,
  sessionAccount,
  engineHeartbeatIntervalMs,
  type EngineApi,
  type EngineKind,
  type MarketSnapshot,
  type SessionSettings,
  type SessionSnapshot,
} from '../../shared/protocol/engine';
import { createMarketFeed, type MarketConnectionFactory, type MarketFeed } from '../engine/market-feed';
import type { Clock, KeyValueStore, Timers } from '../engine/ports';
import type { KlinePeriod, WireBar } from '../../shared/market/kline';
import type { AccountBalance } from '../../shared/api/account';
import type { OptionOrder } from '../../shared/api/options';
import { createOptionCountdowns, emptyOptions } from '../engine/option-countdowns';
import { createPositionsChannel, emptyPositions, type PositionsConnector } from '../engine/positions-channel';
import { createSessionClock, type SessionApi, type SessionClock } from '../engine/session-clock';
import { createSessionStore } from '../engine/session-store';
import { checkBrandConfig, checkSwitchesAnswer } from '../engine/start-checks';
import type { RandomSource } from '../engine/reconnect-policy';
import { createClientRegistry } from './client-registry';

/** Messages between engines of one browser (the dedicated-worker fallback has one per tab). */
export type PeerMessage = { type: 'session'; snapshot: SessionSnapshot };

export interface PeerChannel {
  post(message: PeerMessage): void;
  listen(handler: (message: PeerMessage) => void): void;
}

export interface EngineHostOptions {
  kind: EngineKind;
  clock: Clock;
  timers: Timers;
  store: KeyValueStore;
  peers: PeerChannel | null;
  /** Opens the market socket for a URL (a STOMP client in the worker, a fake in tests). */
  connectMarket: (socketUrl: string, brokerNaming: boolean) => MarketConnectionFactory;
  /** The session clock's calls under the API root (fetch in the worker, a fake in tests). */
  sessionApi: (apiRoot: string) => SessionApi;
  /** Opens the positions socket (a WebSocket in the worker, a fake in tests). */
  connectPositions?: PositionsConnector;
  /** The account's running options (`option/orderList` status 0) under the API root; null when unreachable. */
  fetchRunningOptions?: (apiRoot: string, token: string) => Promise<OptionOrder[] | null>;
  /** Whether this engine runs the session clock (always, but for the dedicated-worker fallback's leader). */
  ownsSessionClock?: () => boolean;
  /** POSTs `/market/history` under the market root (fetch in the worker, a fake in tests). */
  fetchHistory: (marketRoot: string, symbol: string, period: KlinePeriod) => Promise<WireBar[]>;
  /** POSTs `/market/history/limit` (bars between two times) under the market root; absent, the engine has no such history. */
  fetchHistoryRange?: (marketRoot: string, symbol: string, period: KlinePeriod, fromMs: number, toMs: number) => Promise<WireBar[]>;
  log?: (message: string) => void;
  /** The reconnection waits' jitter (`Math.random` by default; tests fix it). */
  random?: RandomSource;
}

/**
 * Wires the engine's parts together behind `EngineApi`. Entry files only create the
 * edges (ports, IndexedDB, BroadcastChannel) and hand them in.
 */
export function createEngineHost(options: EngineHostOptions) {
  const { kind, clock, timers, store, peers } = options;
  const startedAtMs = clock.nowMs();
  const clients = createClientRegistry({
    clock,
    clientTimeoutMs: engineClientTimeoutMs,
    onEvict: (id) => {
      market?.forget(id);
      options.log?.(`evicted silent tab ${id}`);
    },
  });
  let market: MarketFeed | null = null;
  /** Open positions' and running options' symbols: live for their P/L, stop-out and countdowns even when no tab looks. */
  let positionSymbols: string[] = [];
  let runningOptionSymbols: string[] = [];
  function followAccountSymbols() {
    market?.setAccountSymbols([...positionSymbols, ...runningOptionSymbols]);
  }
  /** The market root the first configureMarket gave (later calls change nothing, as for the feed). */
  let marketRoot: string | null = null;
  let sessionClock: SessionClock | null = null;
  let sessionSettings: SessionSettings | null = null;
  const fetchRunningOptions = options.fetchRunningOptions;
  const optionCountdowns = fetchRunningOptions
    ? createOptionCountdowns({
        clock,
        timers,
        loadRunning: async () => {
          const token = session.snapshot.token;
          return sessionSettings && token ? fetchRunningOptions(sessionSettings.apiRoot, token) : null;
        },
        onUpdate: (state) => {
          clients.broadcast([{ type: 'options', payload: state }]);
          runningOptionSymbols = state.running.map((running) => running.order.tradePair);
          followAccountSymbols();
        },
      })
    : null;
  const positions = options.connectPositions
    ? createPositionsChannel({
        timers,
        connect: options.connectPositions,
        onUpdate: (state) => {
          clients.broadcast([{ type: 'positions', payload: state }]);
          positionSymbols = (state.holt?.orderList ?? []).map((order) => order.tradePair);
          followAccountSymbols();
        },
        onOption: (order) => optionCountdowns?.apply(order),
        onAccount: (next) => publishBalance(next),
        onNotice: (unreadCount) => clients.broadcast([{ type: 'notice', payload: { unreadCount } }]),
        onConnected: () => void optionCountdowns?.reload(),
        onRefused: () => void sessionClock?.verify(),
        ...(options.log ? { log: options.log } : {}),
        ...(options.random ? { random: options.random } : {}),
      })
    : null;
  /** The account the exchange socket, the option countdowns and the balance belong to. */
  let followedAccount: string | null = null;
  /** The followed account's balance as the exchange socket last pushed it. */
  let balance: AccountBalance | null = null;

  function publishBalance(next: AccountBalance | null) {
    balance = next;
    clients.broadcast([{ type: 'balance', payload: next }]);
  }

  /** Points the exchange socket, the option countdowns and the balance at the session's account. */
  function followAccount(snapshot: SessionSnapshot, settings: SessionSettings) {
    const account = sessionAccount(snapshot);
    const changed = account !== followedAccount;
    followedAccount = account;
    // Never show one account's money under another: forget it until the socket speaks.
    if (changed && balance !== null) publishBalance(null);
    positions?.follow(snapshot, settings.positionsSocketUrl);
    if (changed) optionCountdowns?.follow(account !== null);
  }

  const session = createSessionStore({
    store,
    clock,
    onChange: (snapshot) => {
      clients.broadcast([{ type: 'session', payload: snapshot }]);
      if (sessionSettings) followAccount(snapshot, sessionSettings);
    },
  });

  peers?.listen((message) => {
    if (message.type === 'session') session.adopt(message.snapshot);
  });

  function shareWithPeers(snapshot: SessionSnapshot) {
    peers?.post({ type: 'session', snapshot });
  }

  /** The market socket's last status, and whether it has been open once (a reopening means the server is back). */
  let marketStatus: MarketSnapshot['status'] = 'connecting';
  let marketWasOpen = false;

  /** The server may answer again: every socket waiting to reconnect tries now, and the session clock catches up. */
  function recoverConnections(includingMarket: boolean) {
    if (includingMarket) market?.retryNow();
    positions?.retryNow();
    void sessionClock?.resume();
  }

  const restored = session.restore();
  const evictionTimer = timers.setInterval(() => clients.evictSilent(), engineHeartbeatIntervalMs);

  const api = {
    async hello(clientId, listener) {
      await restored;
      clients.add(clientId, listener);
      return {
        kind,
        session: session.snapshot,
        market: market?.snapshot ?? initialMarketSnapshot,
        heartbeatIntervalMs: engineHeartbeatIntervalMs,
      };
    },
    async positions() {
      return positions?.state ?? emptyPositions;
    },
    async options() {
      return optionCountdowns?.state ?? emptyOptions;
    },
    async balance() {
      return balance;
    },
    async heartbeat(clientId) {
      return clients.touch(clientId);
    },
    async goodbye(clientId) {
      clients.remove(clientId);
      market?.forget(clientId);
    },
    async signIn(tokens) {
      await restored;
      const snapshot = await session.signIn(tokens);
      shareWithPeers(snapshot);
      return snapshot;
    },
    async signOut(reason, onlyToken?: string) {
      await restored;
      const snapshot = await session.signOut(reason, onlyToken);
      shareWithPeers(snapshot);
      return snapshot;
    },
    async diagnostics() {
      return {
        kind,
        clientCount: clients.size,
        startedAtMs,
        marketSocketOpen: market?.snapshot.status === 'open',
        watchedSymbols: market?.watchedCount() ?? 0,
      };
    },
    async configureSession(settings) {
      sessionSettings = settings;
      await restored;
      followAccount(session.snapshot, settings);
      if (!sessionClock) {
        sessionClock = createSessionClock({
          clock,
          timers,
          api: options.sessionApi(settings.apiRoot),
          session: () => session.snapshot,
          signIn: (tokens) => api.signIn(tokens),
          signOut: (reason) => api.signOut(reason),
          demoAllowed: () => sessionSettings?.demoAllowed ?? false,
          isOwner: options.ownsSessionClock ?? (() => true),
          ...(options.log ? { log: options.log } : {}),
        });
        void sessionClock.start();
      } else void sessionClock.tick();
    },
    async configureMarket(settings) {
      if (!market) {
        marketRoot = settings.marketRoot;
        market = createMarketFeed({
          clock,
          timers,
          batchWindowMs: settings.batchWindowMs,
          connect: options.connectMarket(settings.socketUrl, settings.brokerNaming ?? false),
          sendRows: (clientId, rows) => clients.sendTo(clientId, [{ type: 'prices', payload: rows }]),
          sendBar: (clientId, update) => clients.sendTo(clientId, [{ type: 'kline', payload: update }]),
          fetchHistory: (symbol, period) => options.fetchHistory(settings.marketRoot, symbol, period),
          onSnapshot: (snapshot) => {
            clients.broadcast([{ type: 'market', payload: snapshot }]);
            // The market socket is back after an outage: the server answers again, so the
            // exchange socket and the session clock need not wait out their own backoff.
            if (snapshot.status === 'open' && marketStatus !== 'open' && marketWasOpen) recoverConnections(false);
            marketWasOpen ||= snapshot.status === 'open';
            marketStatus = snapshot.status;
          },
          sendExpired: (symbols) => clients.broadcast([{ type: 'pricesExpired', payload: symbols }]),
          ...(settings.quietAfterMs !== undefined ? { quietAfterMs: settings.quietAfterMs } : {}),
          followAllPrices: settings.followAllPrices ?? false,
          // No tab visible for a while: the positions' profit and loss may come slower too.
          onQuiet: (quiet) => positions?.setQuiet(quiet),
        });
        followAccountSymbols();
      }
      return market.snapshot;
    },
    async watchPrices(clientId, symbols, glance?) {
      market?.watch(clientId, symbols, glance);
    },
    async setVisible(clientId, visible) {
      market?.setVisible(clientId, visible);
      // Someone looks: a connection waiting out its backoff tries now.
      if (visible) recoverConnections(true);
    },
    async connectivityHint() {
      recoverConnections(true);
    },
    async watchKline(clientId, symbol, period, fromTicks?) {
      if (!market) throw new Error('configureMarket first');
      return market.watchKline(clientId, symbol, period, fromTicks);
    },
    async unwatchKline(clientId, symbol, period) {
      market?.unwatchKline(clientId, symbol, period);
    },
    async reconnectMarket() {
      market?.reconnect();
    },
    async historyRange(symbol, period, fromMs, toMs) {
      if (marketRoot === null) throw new Error('configureMarket first');
      if (!options.fetchHistoryRange) throw new Error('this engine has no ranged history');
      return options.fetchHistoryRange(marketRoot, symbol, period, fromMs, toMs);
    },
    async checkBrandConfig(input) {
      return checkBrandConfig(input);
    },
    async checkSwitchesAnswer(answer) {
      return checkSwitchesAnswer(answer);
    },
  } satisfies EngineApi;

  return {
    api,
    clients,
    session,
    ready: restored,
    dispose() {
      timers.clearInterval(evictionTimer);
      sessionClock?.stop();
      positions?.stop();
      optionCountdowns?.stop();
      void market?.stop();
    },
  };
}
