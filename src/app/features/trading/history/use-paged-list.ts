import { useEffect, useLayoutEffect, useMemo, useSyncExternalStore } from 'react';

/** The specification's paging: after more than 5 failed responses in a row, no further loading. */
export const listFailureCap = 5;
/** The wait before another try: doubling from 1 s, at most 8 s. */
export const listRetryDelayMs = (failures: number) => Math.min(8_000, 500 * 2 ** failures);

/** One page as a paged source answers it: its items and how many pages there are in all. */
export interface PageOf<Item> {
  items: readonly Item[];
  pages: number;
}

/**
 * idle: more pages may follow (loads when asked); loading: a page is on its way;
 * retrying: the last load failed and another try is scheduled; stopped: more than the
 * failure cap failed in a row, nothing loads until `retry`; end: every page is here.
 */
export type PagedListStatus = 'idle' | 'loading' | 'retrying' | 'stopped' | 'end';

export interface PagedListState<Item, Page extends PageOf<Item>> {
  items: readonly Item[];
  /** The last page answered (a source's extra fields, e.g. totals, ride on it). */
  lastPage: Page | null;
  loadedPages: number;
  status: PagedListStatus;
  /** Failed loads in a row. */
  failures: number;
}

export interface PagedListOptions<Item, Page extends PageOf<Item>> {
  fetchPage: (page: number, signal: AbortSignal) => Promise<Page>;
  /** Items already listed are not listed twice when pages shift under the list (offset paging). */
  keyOf: (item: Item) => string;
  /** Loading stops for good after more than this many failures in a row. */
  failureCap: number;
  /** The wait before the next try after `failures` failures in a row. */
  retryDelayMs: (failures: number) => number;
  timers?: { setTimeout: (run: () => void, ms: number) => unknown; clearTimeout: (handle: unknown) => void };
}

/**
 * An infinitely loading list of pages, outside React so that its rules (one load at a
 * time, retries with a cap, answers of an abandoned load ignored) do not depend on render
 * timing. The hook below binds it to a view.
 */
export function createPagedList<Item, Page extends PageOf<Item>>(initial: PagedListOptions<Item, Page>) {
  let options = initial;
  const timers = initial.timers ?? {
    setTimeout: (run: () => void, ms: number) => window.setTimeout(run, ms),
    clearTimeout: (handle: unknown) => window.clearTimeout(handle as number),
  };
  let state: PagedListState<Item, Page> = { items: [], lastPage: null, loadedPages: 0, status: 'idle', failures: 0 };
  const listeners = new Set<() => void>();
  let inFlight: AbortController | null = null;
  let retryTimer: unknown = null;
  /** Bumped by dispose: an answer from before it is dropped. */
  let generation = 0;

  function set(next: Partial<PagedListState<Item, Page>>) {
    state = { ...state, ...next };
    for (const listener of listeners) listener();
  }

  async function load() {
    const mine = generation;
    const controller = new AbortController();
    inFlight = controller;
    set({ status: 'loading' });
    try {
      const page = await options.fetchPage(state.loadedPages + 1, controller.signal);
      if (mine !== generation) return;
      const seen = new Set(state.items.map(options.keyOf));
      const added = page.items.filter((item) => !seen.has(options.keyOf(item)));
      const loadedPages = state.loadedPages + 1;
      // An empty page also ends the list: the total shrank under us.
      const end = loadedPages >= page.pages || page.items.length === 0;
      set({ items: [...state.items, ...added], lastPage: page, loadedPages, failures: 0, status: end ? 'end' : 'idle' });
      // A page of items already listed (pages shifted under the list) changes nothing on
      // screen, so nothing would ask for more: go on to the next page at once.
      if (!end && added.length === 0) void load();
    } catch {
      if (mine !== generation) return;
      const failures = state.failures + 1;
      if (failures > options.failureCap) {
        set({ failures, status: 'stopped' });
        return;
      }
      set({ failures, status: 'retrying' });
      retryTimer = timers.setTimeout(() => {
        retryTimer = null;
        if (mine === generation) void load();
      }, options.retryDelayMs(failures));
    } finally {
      if (inFlight === controller) inFlight = null;
    }
  }

  return {
    getState: () => state,
    /** Takes newer options (a fetch that closes over newer values) for the loads to come. */
    update(next: Omit<PagedListOptions<Item, Page>, 'timers'>) {
      options = { ...next, timers };
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    /** Loads the next page unless one is on its way, a retry is scheduled, or loading stopped or ended. */
    loadMore() {
      if (state.status === 'idle') void load();
    },
    /** After the failure cap: counts failures from zero again and loads. */
    retry() {
      if (state.status !== 'stopped') return;
      set({ failures: 0 });
      void load();
    },
    /** Abandons the load under way and any scheduled retry; `loadMore` starts again from where the list is. */
    dispose() {
      generation += 1;
      inFlight?.abort();
      inFlight = null;
      if (retryTimer !== null) timers.clearTimeout(retryTimer);
      retryTimer = null;
      if (state.status === 'loading' || state.status === 'retrying') set({ status: 'idle' });
    },
  };
}

export type PagedList<Item, Page extends PageOf<Item>> = ReturnType<typeof createPagedList<Item, Page>>;

/**
 * A paged list bound to a view: the first page loads on mount, a new list starts from page
 * 1 whenever `resetKey` changes (e.g. the account switched between real and demo), and the
 * view calls `loadMore` when the end of the list comes into view.
 */
export function usePagedList<Item, Page extends PageOf<Item>>(
  options: Omit<PagedListOptions<Item, Page>, 'timers'> & { resetKey: string },
): { state: PagedListState<Item, Page>; list: PagedList<Item, Page> } {
  const { resetKey, ...listOptions } = options;
  // A new key is a new list; a render with the same key only hands the list newer options.
  const list = useMemo(() => createPagedList<Item, Page>(listOptions), [resetKey]); // eslint-disable-line react-hooks/exhaustive-deps
  // Before the effect below: its first load already uses this render's fetch.
  useLayoutEffect(() => {
    list.update(listOptions);
  });
  useEffect(() => {
    list.loadMore();
    return () => list.dispose();
  }, [list]);
  const state = useSyncExternalStore(list.subscribe, list.getState);
  return { state, list };
}

