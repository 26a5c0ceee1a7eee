/**
 * The symbols this tab shows, counted per use (a row, a hot card, the open chart): the
 * union goes to the engine, at most once per frame, so scrolling a list sends one update.
 */
export function createWatchRegistry(send: (symbols: string[]) => void) {
  const counts = new Map<string, number>();
  let scheduled = false;
  let lastSent = '';

  function schedule() {
    if (scheduled) return;
    scheduled = true;
    const run = () => {
      scheduled = false;
      const symbols = [...counts.keys()].sort();
      const key = symbols.join(',');
      if (key === lastSent) return;
      lastSent = key;
      send(symbols);
    };
    if (typeof requestAnimationFrame === 'function') requestAnimationFrame(run);
    else setTimeout(run, 16);
  }

  return {
    /** Starts watching; the returned function stops (each call releases its own use). */
    watch(symbols: readonly string[]): () => void {
      for (const symbol of symbols) counts.set(symbol, (counts.get(symbol) ?? 0) + 1);
      schedule();
      let released = false;
      return () => {
        if (released) return;
        released = true;
        for (const symbol of symbols) {
          const count = (counts.get(symbol) ?? 0) - 1;
          if (count <= 0) counts.delete(symbol);
          else counts.set(symbol, count);
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
