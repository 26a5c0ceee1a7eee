/**
 * The symbols this tab shows, counted per use (a row, a hot card, the open chart), each use
 * needing every tick or only a glance: the union goes to the engine with the symbols that
 * only glances need, at most once per frame, so scrolling a list sends one update.
 */
export function createWatchRegistry(send: (symbols: string[], glance: string[]) => void) {
  const counts = new Map<string, number>();
  /** Uses that need every tick; a symbol with none is only glanced at. */
  const everyTickCounts = new Map<string, number>();
  let scheduled = false;
  let lastSent = '';

  function schedule() {
    if (scheduled) return;
    scheduled = true;
    const run = () => {
      scheduled = false;
      const symbols = [...counts.keys()].sort();
      const glance = symbols.filter((symbol) => !everyTickCounts.has(symbol));
      const key = `${symbols.join(',')}|${glance.join(',')}`;
      if (key === lastSent) return;
      lastSent = key;
      send(symbols, glance);
    };
    if (typeof requestAnimationFrame === 'function') requestAnimationFrame(run);
    else setTimeout(run, 16);
  }

  function count(map: Map<string, number>, symbol: string, delta: number) {
    const next = (map.get(symbol) ?? 0) + delta;
    if (next <= 0) map.delete(symbol);
    else map.set(symbol, next);
  }

  return {
    /**
     * Starts watching; the returned function stops (each call releases its own use).
     * `glance`: this use shows the price without needing every tick (at most one a second).
     */
    watch(symbols: readonly string[], options: { glance?: boolean } = {}): () => void {
      const everyTick = options.glance !== true;
      for (const symbol of symbols) {
        count(counts, symbol, 1);
        if (everyTick) count(everyTickCounts, symbol, 1);
      }
      schedule();
      let released = false;
      return () => {
        if (released) return;
        released = true;
        for (const symbol of symbols) {
          count(counts, symbol, -1);
          if (everyTick) count(everyTickCounts, symbol, -1);
        }
        schedule();
      };
    },
    resend() {
      lastSent = '';
      schedule();
    },
  };
}

export type WatchRegistry = ReturnType<typeof createWatchRegistry>;
