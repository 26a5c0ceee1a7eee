import type { Clock, Timers } from './ports';

/**
 * Which prices the engine's one market socket follows: the per-symbol topics of what the
 * tabs show (and of what must stay live for the account), or the all-prices topic when a
 * screen shows (nearly) every symbol and one batch costs less than many messages.
 */
export type PriceSelection = { readonly all: true } | { readonly all: false; readonly symbols: readonly string[] };

export const noPrices: PriceSelection = { all: false, symbols: [] };

/** Changes to the wanted set are gathered this long before the socket hears of them. */
export const subscribeDebounceMs = 50;
/** A symbol no longer shown stays subscribed this long, so scrolling back and forth does not churn. */
export const unsubscribeLingerMs = 5_000;
/** With no tab visible this long, only what must stay live is followed (the quiet engine). */
export const quietAfterMs = 60_000;
/**
 * A per-symbol message repeats the STOMP headers (about 90 octets) around each tick
 * (about 220 octets of JSON), while the all-prices batch carries them once per 100 ms for
 * every changed symbol. Following per symbol is cheaper while the wanted symbols are
 * below this share of all symbols.
 */
export const allPricesShare = 0.7;
/** The server's cap is 200 subscriptions per connection; charts need some of them. */
export const perSymbolSubscriptionsMax = 150;

export interface WantedPrices {
  /** Each tab's shown symbols (rows, hot cards, charts, forms) and whether the tab is visible. */
  tabs: Iterable<{ symbols: Iterable<string>; visible: boolean }>;
  /** Symbols of open positions and running options: their P/L, stop-out and countdowns. */
  account: Iterable<string>;
  /** No tab has been visible for `quietAfterMs`: only the account's symbols stay live. */
  quiet: boolean;
}

/** The union of what should be live now. */
export function wantedSymbols(wanted: WantedPrices): Set<string> {
  const symbols = new Set<string>(wanted.account);
  if (wanted.quiet) return symbols;
  for (const tab of wanted.tabs) for (const symbol of tab.symbols) symbols.add(symbol);
  return symbols;
}

/** Per-symbol topics for a few symbols; the all-prices topic when nearly all are wanted. */
export function choosePriceSelection(symbols: ReadonlySet<string>, knownSymbolCount: number): PriceSelection {
  if (symbols.size === 0) return noPrices;
  const nearlyAll = knownSymbolCount > 0 && symbols.size >= knownSymbolCount * allPricesShare;
  if (nearlyAll || symbols.size > perSymbolSubscriptionsMax) return { all: true };
  return { all: false, symbols: [...symbols].sort() };
}

export function sameSelection(a: PriceSelection, b: PriceSelection): boolean {
  if (a.all || b.all) return a.all === b.all;
  return a.symbols.length === b.symbols.length && a.symbols.every((symbol, index) => symbol === b.symbols[index]);
}

/**
 * Keeps the socket's price subscriptions on what is shown: tabs come and go, rows scroll,
 * positions open and close, tabs hide and show. Additions go out after a short debounce,
 * removals only after a linger, and the quiet engine drops everything but the account's
 * symbols once no tab has been visible for `quietAfterMs`; a tab becoming visible resumes
 * at once.
 */
export function createPriceSubscriptions(options: {
  clock: Clock;
  timers: Timers;
  apply: (selection: PriceSelection) => void;
  debounceMs?: number;
  lingerMs?: number;
  quietAfterMs?: number;
}) {
  const debounceMs = options.debounceMs ?? subscribeDebounceMs;
  const lingerMs = options.lingerMs ?? unsubscribeLingerMs;
  const quietMs = options.quietAfterMs ?? quietAfterMs;
  const tabs = new Map<string, { symbols: Set<string>; visible: boolean }>();
  let account = new Set<string>();
  let knownSymbolCount = 0;
  let quiet = false;
  let quietTimer: unknown = null;
  let pendingTimer: unknown = null;
  let pendingDueMs = Number.POSITIVE_INFINITY;
  /** Symbols followed now, each with when it stopped being wanted (null while wanted). */
  const followed = new Map<string, number | null>();
  let applied: PriceSelection = noPrices;

  const anyVisible = () => [...tabs.values()].some((tab) => tab.visible);

  function wantedNow(): Set<string> {
    return wantedSymbols({ tabs: tabs.values(), account, quiet });
  }

  /** Brings `followed` to the wanted set: additions now, removals once they have lingered (or at once when quiet). */
  function settle() {
    pendingTimer = null;
    pendingDueMs = Number.POSITIVE_INFINITY;
    const wanted = wantedNow();
    const nowMs = options.clock.nowMs();
    let nextLingerDueMs = Number.POSITIVE_INFINITY;
    for (const symbol of wanted) followed.set(symbol, null);
    for (const [symbol, unwantedSinceMs] of followed) {
      if (wanted.has(symbol)) continue;
      const since = unwantedSinceMs ?? nowMs;
      if (quiet || nowMs - since >= lingerMs) {
        followed.delete(symbol);
      } else {
        followed.set(symbol, since);
        nextLingerDueMs = Math.min(nextLingerDueMs, since + lingerMs);
      }
    }
    const next = choosePriceSelection(new Set(followed.keys()), knownSymbolCount);
    if (!sameSelection(next, applied)) {
      applied = next;
      options.apply(next);
    }
    if (Number.isFinite(nextLingerDueMs)) {
      pendingDueMs = nextLingerDueMs;
      pendingTimer = options.timers.setTimeout(settle, nextLingerDueMs - nowMs);
    }
  }

  /** Settles within `delayMs`; an earlier settle already due stays (a steady scroll does not postpone it). */
  function schedule(delayMs: number) {
    const dueMs = options.clock.nowMs() + delayMs;
    if (pendingTimer !== null && pendingDueMs <= dueMs) return;
    if (pendingTimer !== null) options.timers.clearTimeout(pendingTimer);
    pendingTimer = null;
    if (delayMs <= 0) {
      settle();
      return;
    }
    pendingDueMs = dueMs;
    pendingTimer = options.timers.setTimeout(settle, delayMs);
  }

  function checkQuiet() {
    if (anyVisible()) {
      if (quietTimer !== null) options.timers.clearTimeout(quietTimer);
      quietTimer = null;
      if (quiet) {
        // A tab shows again: everything it shows comes back at once.
        quiet = false;
        schedule(0);
      }
    } else if (!quiet && quietTimer === null) {
      quietTimer = options.timers.setTimeout(() => {
        quietTimer = null;
        quiet = true;
        schedule(0);
      }, quietMs);
    }
  }

  return {
    /** Replaces what a tab shows. A new tab counts as visible until it says otherwise. */
    setTab(clientId: string, symbols: readonly string[]) {
      const tab = tabs.get(clientId);
      if (tab) tab.symbols = new Set(symbols);
      else tabs.set(clientId, { symbols: new Set(symbols), visible: true });
      checkQuiet();
      schedule(debounceMs);
    },
    setVisible(clientId: string, visible: boolean) {
      const tab = tabs.get(clientId);
      if (tab) tab.visible = visible;
      else tabs.set(clientId, { symbols: new Set(), visible });
      checkQuiet();
    },
    removeTab(clientId: string) {
      if (!tabs.delete(clientId)) return;
      checkQuiet();
      schedule(debounceMs);
    },
    /** The symbols of open positions and running options, live while any tab is open or not. */
    setAccountSymbols(symbols: Iterable<string>) {
      const next = new Set(symbols);
      if (next.size === account.size && [...next].every((symbol) => account.has(symbol))) return;
      account = next;
      schedule(debounceMs);
    },
    /** How many symbols the market has (the all-prices choice depends on it). */
    setKnownSymbolCount(count: number) {
      if (count === knownSymbolCount) return;
      knownSymbolCount = count;
      schedule(debounceMs);
    },
    get selection(): PriceSelection {
      return applied;
    },
    get quiet(): boolean {
      return quiet;
    },
    /** Whether `symbol` is followed now (its prices are current). */
    follows(symbol: string): boolean {
      return applied.all || followed.has(symbol);
    },
    stop() {
      if (pendingTimer !== null) options.timers.clearTimeout(pendingTimer);
      if (quietTimer !== null) options.timers.clearTimeout(quietTimer);
      pendingTimer = null;
      quietTimer = null;
    },
  };
}

export type PriceSubscriptions = ReturnType<typeof createPriceSubscriptions>;
