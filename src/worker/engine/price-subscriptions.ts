import type { Clock, Timers } from './ports';

/**
 * Which prices the engine's one market socket follows: the per-symbol topics of what the
 * tabs show (and of what must stay live for the account), or the all-prices topic when a
 * screen shows (nearly) every symbol and one batch costs less than many messages.
 */
export type PriceSelection =
  | { readonly all: true }
  | {
      readonly all: false;
      /** Every followed symbol, sorted. */
      readonly symbols: readonly string[];
      /**
       * Those a screen shows as they tick (the chart or form of what is being traded), sorted:
       * `/topic/price/{symbol}`. The rest are only glanced at (lists, hot cards, positions
       * while no tab is visible): `/topic/price-1s/{symbol}`, at most one message a second.
       */
      readonly everyTick: readonly string[];
    };

export const noPrices: PriceSelection = { all: false, symbols: [], everyTick: [] };

/** Changes to the wanted set are gathered this long before the socket hears of them. */
export const subscribeDebounceMs = 50;
/** A symbol no longer shown stays subscribed this long, so scrolling back and forth does not churn. */
export const unsubscribeLingerMs = 5_000;
/** With no tab visible this long, only what must stay live is followed (the quiet engine). */
export const quietAfterMs = 60_000;
/**
 * A per-symbol message repeats the STOMP headers (about 90 octets) around each tick
 * (about 220 octets of JSON), while the all-prices batch carries them once per 100 ms for
 * every changed symbol. Following per symbol is cheaper while the symbols wanted at every
 * tick are below this share of all symbols (glanced-at symbols are cheaper per symbol
 * whatever their number: one message a second each, against about 2.5 ticks a second in
 * the batch).
 */
export const allPricesShare = 0.7;
/** The server's cap is 200 subscriptions per connection; charts need some of them. */
export const perSymbolSubscriptionsMax = 150;

export interface WantedPrices {
  /**
   * Each tab's shown symbols (rows, hot cards, charts, forms), those of them it only glances
   * at, and whether the tab is visible.
   */
  tabs: Iterable<{ symbols: Iterable<string>; glance: ReadonlySet<string>; visible: boolean }>;
  /** Symbols of open positions and running options: their P/L, stop-out and countdowns. */
  account: Iterable<string>;
  /** No tab has been visible for `quietAfterMs`: only the account's symbols stay live. */
  quiet: boolean;
}

/**
 * The union of what should be live now, each symbol with whether some visible screen needs
 * its every tick (true) or a glance suffices (false). The account's symbols (P/L shown on
 * return, stop-out awareness, countdowns) are glanced at unless a tab shows them as they tick.
 */
export function wantedSymbols(wanted: WantedPrices): Map<string, boolean> {
  const symbols = new Map<string, boolean>();
  for (const symbol of wanted.account) symbols.set(symbol, false);
  if (wanted.quiet) return symbols;
  for (const tab of wanted.tabs) {
    for (const symbol of tab.symbols) symbols.set(symbol, symbols.get(symbol) === true || !tab.glance.has(symbol));
  }
  return symbols;
}

/** Per-symbol topics for a few symbols; the all-prices topic when nearly all are wanted at every tick. */
export function choosePriceSelection(symbols: ReadonlyMap<string, boolean>, knownSymbolCount: number): PriceSelection {
  if (symbols.size === 0) return noPrices;
  const everyTick = [...symbols].flatMap(([symbol, ticks]) => (ticks ? [symbol] : [])).sort();
  const nearlyAll = knownSymbolCount > 0 && everyTick.length >= knownSymbolCount * allPricesShare;
  if (nearlyAll || symbols.size > perSymbolSubscriptionsMax) return { all: true };
  return { all: false, symbols: [...symbols.keys()].sort(), everyTick };
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((symbol, index) => symbol === b[index]);

/** What several engines follow, on one socket (the leader's): a symbol any needs at every tick is followed so. */
export function unionOfSelections(selections: Iterable<PriceSelection>): PriceSelection {
  const symbols = new Set<string>();
  const everyTick = new Set<string>();
  for (const selection of selections) {
    if (selection.all) return { all: true };
    for (const symbol of selection.symbols) symbols.add(symbol);
    for (const symbol of selection.everyTick) everyTick.add(symbol);
  }
  return { all: false, symbols: [...symbols].sort(), everyTick: [...everyTick].sort() };
}

export function sameSelection(a: PriceSelection, b: PriceSelection): boolean {
  if (a.all || b.all) return a.all === b.all;
  return sameList(a.symbols, b.symbols) && sameList(a.everyTick, b.everyTick);
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
  /** The quiet engine starts (true) or ends (false). */
  onQuiet?: (quiet: boolean) => void;
  debounceMs?: number;
  lingerMs?: number;
  quietAfterMs?: number;
}) {
  const debounceMs = options.debounceMs ?? subscribeDebounceMs;
  const lingerMs = options.lingerMs ?? unsubscribeLingerMs;
  const quietMs = options.quietAfterMs ?? quietAfterMs;
  const tabs = new Map<string, { symbols: Set<string>; glance: Set<string>; visible: boolean }>();
  let account = new Set<string>();
  let knownSymbolCount = 0;
  let quiet = false;
  let quietTimer: unknown = null;
  let pendingTimer: unknown = null;
  let pendingDueMs = Number.POSITIVE_INFINITY;
  /**
   * Symbols followed now, each with when it stopped being wanted (null while wanted) and
   * whether at every tick (kept while it lingers: a symbol scrolled back into view finds its
   * subscription as it was).
   */
  const followed = new Map<string, { unwantedSinceMs: number | null; everyTick: boolean }>();
  let applied: PriceSelection = noPrices;

  const anyVisible = () => [...tabs.values()].some((tab) => tab.visible);

  function wantedNow(): Map<string, boolean> {
    return wantedSymbols({ tabs: tabs.values(), account, quiet });
  }

  /** Brings `followed` to the wanted set: additions now, removals once they have lingered (or at once when quiet). */
  function settle() {
    pendingTimer = null;
    pendingDueMs = Number.POSITIVE_INFINITY;
    const wanted = wantedNow();
    const nowMs = options.clock.nowMs();
    let nextLingerDueMs = Number.POSITIVE_INFINITY;
    for (const [symbol, everyTick] of wanted) followed.set(symbol, { unwantedSinceMs: null, everyTick });
    for (const [symbol, entry] of followed) {
      if (wanted.has(symbol)) continue;
      const since = entry.unwantedSinceMs ?? nowMs;
      if (quiet || nowMs - since >= lingerMs) {
        followed.delete(symbol);
      } else {
        entry.unwantedSinceMs = since;
        nextLingerDueMs = Math.min(nextLingerDueMs, since + lingerMs);
      }
    }
    const next = choosePriceSelection(new Map([...followed].map(([symbol, entry]) => [symbol, entry.everyTick])), knownSymbolCount);
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
        options.onQuiet?.(false);
      }
    } else if (!quiet && quietTimer === null) {
      quietTimer = options.timers.setTimeout(() => {
        quietTimer = null;
        quiet = true;
        schedule(0);
        options.onQuiet?.(true);
      }, quietMs);
    }
  }

  return {
    /**
     * Replaces what a tab shows; `glance`: those of `symbols` it does not need at every tick.
     * A new tab counts as visible until it says otherwise.
     */
    setTab(clientId: string, symbols: readonly string[], glance: readonly string[] = []) {
      const tab = tabs.get(clientId);
      if (tab) {
        tab.symbols = new Set(symbols);
        tab.glance = new Set(glance);
      } else tabs.set(clientId, { symbols: new Set(symbols), glance: new Set(glance), visible: true });
      checkQuiet();
      schedule(debounceMs);
    },
    setVisible(clientId: string, visible: boolean) {
      const tab = tabs.get(clientId);
      if (tab) tab.visible = visible;
      else tabs.set(clientId, { symbols: new Set(), glance: new Set(), visible });
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
