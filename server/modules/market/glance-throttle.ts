/**
 * Which symbols' `/topic/price-1s/{symbol}` is due at a flush: at most one message per
 * symbol per interval, the first change after a quiet spell at once (leading edge), later
 * changes within the window at its end with the newest tick (trailing edge), so a glance
 * is never more than one interval (and a flush) behind the market.
 */
export function createGlanceThrottle(intervalMs: number) {
  const lastSentMs = new Map<string, number>();
  /** Changed since their last message, not yet sent. */
  const owed = new Set<string>();
  return {
    changed(symbol: string) {
      owed.add(symbol);
    },
    /** The symbols to publish now; each is then not due again before `intervalMs` has passed. */
    due(nowMs: number): string[] {
      const out: string[] = [];
      for (const symbol of owed) {
        const last = lastSentMs.get(symbol);
        if (last !== undefined && nowMs - last < intervalMs) continue;
        owed.delete(symbol);
        lastSentMs.set(symbol, nowMs);
        out.push(symbol);
      }
      return out;
    },
  };
}
