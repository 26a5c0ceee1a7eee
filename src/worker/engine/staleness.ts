import type { Clock } from './ports';

/** Market data is stale when nothing arrived for 10 s; the check runs every second. */
export const staleAfterMs = 10_000;
export const stalenessCheckEveryMs = 1_000;

export function createStalenessMonitor(options: { clock: Clock; staleAfterMs?: number; onChange: (stale: boolean) => void }) {
  const threshold = options.staleAfterMs ?? staleAfterMs;
  let lastDataMs: number | null = null;
  let stale = false;
  let expecting = true;
  return {
    /**
     * Whether any prices are followed at all. Following none (no tab shows a price, the
     * quiet engine without positions), silence is not staleness; following some again
     * gives them a full window before silence counts.
     */
    expect(following: boolean) {
      if (following === expecting) return;
      expecting = following;
      if (following) {
        if (lastDataMs !== null) lastDataMs = options.clock.nowMs();
      } else if (stale) {
        stale = false;
        options.onChange(false);
      }
    },
    noteData() {
      lastDataMs = options.clock.nowMs();
      if (stale) {
        stale = false;
        options.onChange(false);
      }
    },
    /** Runs on the check cadence; reports a change of state once. */
    check() {
      const isStale = lastDataMs === null || !expecting ? false : options.clock.nowMs() - lastDataMs >= threshold;
      if (isStale !== stale) {
        stale = isStale;
        options.onChange(stale);
      }
    },
    get stale() {
      return stale;
    },
  };
}
