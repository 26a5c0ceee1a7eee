import type { Product } from '../../../src/shared/api/market';
import type { AccountFeedMessage, ExchangeFeedMessage, OptionFeedMessage, PositionsSummary } from '../../../src/shared/api/trading';
import { formatMoney, money, type Units } from '../../../src/shared/money/money';
import { accountEquity, lockedMargin, marginLevelPercent } from '../../../src/shared/trading/account-risk';
import { OrderStatus } from '../../../src/shared/trading/order-rules';
import type { Book } from '../../db/schema';
import type { MarketDataService } from '../market/market-data-service';
import type { RawTick } from '../market/sources/market-data-source';
import { accountBalanceView } from '../account/account-balance';
import type { Ledger, TradingBalances } from '../ledger/ledger';
import { orderView } from './order-view';
import { closePriceOn, resultAt } from './position-value';
import type { OrderRow, TradingRepository } from './trading-repository';

/** What one socket of the feed needs: send text, and close. */
export interface FeedSocket {
  send(text: string): void;
  close(code: number, reason: string): void;
}

/**
 * The slowest pace a socket may ask for its price-moved pushes (`cadence`): a hidden
 * browser's, which shows nothing until a tab is visible again and then asks for the
 * feed's own pace back.
 */
export const slowestCadenceMs = 60_000;

/** The summary as the contract defines it (src/shared/api/trading.ts). */
type FeedSummary = PositionsSummary;

interface AccountFeed {
  uid: number;
  book: Book;
  sockets: Set<FeedSocket>;
  orders: OrderRow[];
  balances: TradingBalances;
  symbols: Set<string>;
  priceMoved: boolean;
}

/** The signed-in session a socket was opened with (from its access token). */
export interface FeedSession {
  uid: number;
  /** The session family: logout, a reused refresh token and a password reset end it. */
  fid: string;
  virtualStatus: number;
}

/** Which sessions ended: one family, or every session of a user. */
export type EndedSessions = { fid: string } | { uid: number };

/** The worker does not reconnect after this code; it checks the session and signs out. */
export const sessionEndedCloseCode = 4401;
export const sessionEndedReason = 'session ended';

/**
 * `/exchange/ws`: each signed-in socket hears its account's open positions (`holtOrder`)
 * and pending orders (`pendingOrder`) with live profit and loss and the summary, at once
 * on any change of its orders or money, and at most every `intervalMs` while prices move;
 * and its balance (`account`, what `user/balance` answers) when it joins and on every
 * change of its money.
 */
export function createPositionsFeed(deps: {
  orders: TradingRepository;
  ledger: Ledger;
  market: MarketDataService;
  /** The minimum holding time, so that each open position says when it may be closed. */
  minHoldSeconds: number;
  /** The most often a moving market pushes one account's feed. */
  intervalMs: number;
  /** Open sockets' sessions are checked this often (ends no announcement reaches). */
  sessionRecheckMs: number;
  /** Whether a socket's session still lives (the periodic re-check); none: sockets are not re-checked. */
  sessionAlive?: (session: FeedSession) => Promise<boolean>;
  log?: (message: string, error?: unknown) => void;
}) {
  const accounts = new Map<string, AccountFeed>();
  /**
   * Each socket's pace for pushes that only prices caused: at most every `intervalMs`
   * (the feed's own by default), with `owed` a price move it has not heard of yet. A change
   * of orders or money goes to every socket at once, whatever its pace.
   */
  const paces = new Map<FeedSocket, { intervalMs: number; lastSentMs: number; owed: boolean }>();
  /** Each signed-in socket's session and how it leaves the feed. */
  const sessions = new Map<FeedSocket, { session: FeedSession; detach: () => void }>();
  /** Which accounts hold orders on a symbol: a tick marks only those (ticks are the hot path). */
  const bySymbol = new Map<string, Set<AccountFeed>>();
  const keyOf = (uid: number, book: Book) => `${uid}|${book}`;

  async function reload(account: AccountFeed) {
    account.orders = await deps.orders.openNewestFirst(account.uid, account.book);
    account.balances = await deps.ledger.tradingBalances(account.uid, account.book);
    for (const symbol of account.symbols) bySymbol.get(symbol)?.delete(account);
    account.symbols = new Set(account.orders.map((row) => row.symbol));
    for (const symbol of account.symbols) {
      let holders = bySymbol.get(symbol);
      if (!holders) bySymbol.set(symbol, (holders = new Set()));
      holders.add(account);
    }
  }

  function forget(account: AccountFeed) {
    for (const symbol of account.symbols) bySymbol.get(symbol)?.delete(account);
    // Only if still the current entry: a late detach must not drop a newer account feed.
    if (accounts.get(keyOf(account.uid, account.book)) === account) accounts.delete(keyOf(account.uid, account.book));
  }

  /** Takes the sockets whose session matches out of the feed and closes them with 4401. */
  function closeSessions(matches: (session: FeedSession) => boolean) {
    for (const [socket, entry] of [...sessions]) {
      if (!matches(entry.session)) continue;
      entry.detach();
      try {
        socket.close(sessionEndedCloseCode, sessionEndedReason);
      } catch (error) {
        deps.log?.('positions feed: close failed', error);
      }
    }
  }

  let rechecking = false;
  async function recheckSessions() {
    if (!deps.sessionAlive || rechecking) return;
    rechecking = true;
    try {
      // One look-up per distinct session, however many sockets it has.
      const distinct = new Map<string, FeedSession>();
      for (const { session } of sessions.values()) distinct.set(`${session.fid}|${session.uid}|${session.virtualStatus}`, session);
      for (const session of distinct.values()) {
        if (await deps.sessionAlive(session)) continue;
        closeSessions((each) => each.fid === session.fid && each.uid === session.uid && each.virtualStatus === session.virtualStatus);
      }
    } finally {
      rechecking = false;
    }
  }

  const recheckTimer = setInterval(() => {
    recheckSessions().catch((error: unknown) => deps.log?.('positions feed: session re-check failed', error));
  }, deps.sessionRecheckMs);
  recheckTimer.unref?.();

  function live(row: OrderRow, products: ReadonlyMap<string, Product>): { currentPrice: Units; profitLoss: Units } | null {
    const quote = deps.market.latestQuote(row.symbol);
    const product = products.get(row.symbol);
    if (!quote || !product) return null;
    // A position would close at the bid (buy) or ask (sell); a pending order is valued as if filled at its limit.
    const currentPrice = closePriceOn(row, quote, product);
    const entry = row.status === OrderStatus.position ? row.open_price : row.limit_price;
    if (entry === null) return null;
    return { currentPrice, profitLoss: resultAt(row, money(String(entry)), currentPrice) };
  }

  /** Both lists of an account, each order valued once. */
  function summaries(account: AccountFeed): { holt: FeedSummary; pending: FeedSummary } {
    const products = new Map(deps.market.products().map((product) => [product.productCode, product]));
    const valued = account.orders.map((row) => ({ row, live: live(row, products) }));
    // The shared formula: the same equity that stop-out and negative-balance protection use.
    const holdings = valued.map((each) => ({ status: each.row.status, margin: money(String(each.row.margin)), profitLoss: each.row.status === OrderStatus.position ? (each.live?.profitLoss ?? 0n) : null }));
    const margin = lockedMargin(holdings);
    const equity = accountEquity(account.balances.cash, holdings);
    // Running options' amounts are the user's until settlement: in the net value, never available.
    const netValue = equity + account.balances.optionEscrow;
    const of = (status: number) => summary(valued.filter((each) => each.row.status === status), products, { equity, netValue }, margin);
    return { holt: of(OrderStatus.position), pending: of(OrderStatus.pending) };
  }

  function summary(
    valued: { row: OrderRow; live: { currentPrice: Units; profitLoss: Units } | null }[],
    products: ReadonlyMap<string, Product>,
    { equity, netValue }: { equity: Units; netValue: Units },
    margin: Units,
  ): FeedSummary {
    const listPnl = valued.reduce((sum, each) => sum + (each.live?.profitLoss ?? 0n), 0n);
    return {
      orderList: valued.map((each) => orderView(each.row, products.get(each.row.symbol)?.productName ?? each.row.symbol, deps.minHoldSeconds, each.live)),
      profitLossSum: formatMoney(listPnl),
      netValue: formatMoney(netValue),
      securityDepositPrent: formatMoney(marginLevelPercent(equity, margin) ?? 0n),
      securityDepositAvailableSum: formatMoney(equity - margin),
    };
  }

  function listMessages(account: AccountFeed, withBalance: boolean): string[] {
    const { holt, pending } = summaries(account);
    const messages = [JSON.stringify({ type: 'holtOrder', data: holt }), JSON.stringify({ type: 'pendingOrder', data: pending })];
    if (withBalance) messages.push(JSON.stringify({ type: 'account', data: accountBalanceView(account.balances) } satisfies AccountFeedMessage));
    return messages;
  }

  function sendLists(socket: FeedSocket, messages: readonly string[]) {
    const pace = paces.get(socket);
    if (pace) {
      pace.lastSentMs = performance.now();
      pace.owed = false;
    }
    try {
      for (const message of messages) socket.send(message);
    } catch (error) {
      deps.log?.('positions feed: send failed', error);
    }
  }

  /** The lists (and with `withBalance`, after a change of money, the balance) to every socket of the account. */
  function send(account: AccountFeed, withBalance = false) {
    account.priceMoved = false;
    const messages = listMessages(account, withBalance);
    for (const socket of account.sockets) sendLists(socket, messages);
  }

  function sendText(sockets: ReadonlySet<FeedSocket>, text: string) {
    for (const socket of sockets) {
      try {
        socket.send(text);
      } catch (error) {
        deps.log?.('positions feed: send failed', error);
      }
    }
  }

  /** Price moves to the sockets whose pace allows a push now; the others stay owed one. */
  function pushPriceMoves() {
    const nowMs = performance.now();
    for (const account of accounts.values()) {
      if (account.priceMoved) for (const socket of account.sockets) paces.get(socket)!.owed = true;
      account.priceMoved = false;
      let messages: string[] | null = null;
      for (const socket of account.sockets) {
        const pace = paces.get(socket)!;
        // Half a tick of slack: the timer's own jitter must not skip a socket on the feed's pace.
        if (!pace.owed || nowMs - pace.lastSentMs < pace.intervalMs - deps.intervalMs / 2) continue;
        messages ??= listMessages(account, false);
        sendLists(socket, messages);
      }
    }
  }

  const timer = setInterval(pushPriceMoves, deps.intervalMs);
  timer.unref?.();

  const stopListening = deps.market.onQuote((tick: RawTick) => {
    const holders = bySymbol.get(tick.symbol);
    if (holders) for (const account of holders) account.priceMoved = true;
  });

  return {
    /**
     * A socket of (uid, book) joins: it gets the current state at once. With the session it
     * was opened with, it is closed (4401) when that session ends.
     */
    async attach(socket: FeedSocket, uid: number, book: Book, session?: FeedSession): Promise<() => void> {
      const key = keyOf(uid, book);
      let account = accounts.get(key);
      if (!account) {
        account = { uid, book, sockets: new Set(), orders: [], balances: { cash: 0n, margin: 0n, optionEscrow: 0n }, symbols: new Set(), priceMoved: false };
        accounts.set(key, account);
        await reload(account);
      }
      account.sockets.add(socket);
      paces.set(socket, { intervalMs: deps.intervalMs, lastSentMs: 0, owed: false });
      const joined = account;
      const detach = () => {
        sessions.delete(socket);
        paces.delete(socket);
        if (!joined.sockets.delete(socket)) return;
        if (joined.sockets.size === 0) forget(joined);
      };
      if (session) sessions.set(socket, { session, detach });
      send(account, true);
      return detach;
    },
    /** Sessions ended (logout, password reset, a reused refresh token): their sockets close with 4401. */
    endSessions(ended: EndedSessions) {
      closeSessions((session) => ('fid' in ended ? session.fid === ended.fid : session.uid === ended.uid));
    },
    /** Checks every open socket's session now (the timer does it every `sessionRecheckMs`). */
    recheckSessions,
    /**
     * A socket's pace for pushes that only prices cause (its `cadence` message), kept between
     * the feed's own interval and `slowestCadenceMs`; a faster pace takes effect at the next push.
     */
    setCadence(socket: FeedSocket, intervalMs: number) {
      const pace = paces.get(socket);
      if (pace) pace.intervalMs = Math.min(slowestCadenceMs, Math.max(deps.intervalMs, Math.round(intervalMs)));
    },
    /** Orders or money of (uid, book) changed: push the lists and the balance at once. */
    changed(uid: number, book: Book) {
      const account = accounts.get(keyOf(uid, book));
      if (!account) return;
      reload(account)
        .then(() => send(account, true))
        .catch((error: unknown) => deps.log?.('positions feed: reload failed', error));
    },
    /** One message to the open sockets of (uid, book), if any (an option placed or settled). */
    sendTo(uid: number, book: Book, message: OptionFeedMessage) {
      const account = accounts.get(keyOf(uid, book));
      if (account) sendText(account.sockets, JSON.stringify(message));
    },
    /**
     * One message to every open socket of the user, on either book: what concerns the person
     * rather than one account (a notice's unread count). The feed only carries it.
     */
    sendToUser(uid: number, message: ExchangeFeedMessage) {
      const text = JSON.stringify(message);
      for (const book of ['real', 'demo'] as const) {
        const account = accounts.get(keyOf(uid, book));
        if (account) sendText(account.sockets, text);
      }
    },
    /** The users with at least one open socket. */
    connectedUids(): number[] {
      return [...new Set([...accounts.values()].map((account) => account.uid))];
    },
    connectionCount(): number {
      let count = 0;
      for (const account of accounts.values()) count += account.sockets.size;
      return count;
    },
    stop() {
      clearInterval(timer);
      clearInterval(recheckTimer);
      sessions.clear();
      paces.clear();
      stopListening();
      for (const account of accounts.values()) for (const socket of account.sockets) socket.close(1001, 'server shutting down');
      accounts.clear();
      bySymbol.clear();
    },
  };
}

export type PositionsFeed = ReturnType<typeof createPositionsFeed>;
