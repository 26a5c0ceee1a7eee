import { staleAfterMs } from '../../shared/market/price-freshness';
import type { Clock } from './ports';

export { staleAfterMs };

/**
 * Market data is stale when nothing arrived for the shared limit (10 s) while prices were moving; the check
 * runs every second. A screen following only closed markets (their last price, then
 * silence) is not stale.
 */
export const stalenessCheckEveryMs = 1_000;

export function createStalenessMonitor(options: { clock: Clock; staleAfterMs?: number; onChange: (stale: boolean) => void }) {
  const threshold = options.staleAfterMs ?? staleAfterMs;
  let lastDataMs: number | null = null;
  let stale = false;
  let expecting = true;
  // Followed one symbol at a time, a market that is closed sends its last price once and then
  // nothing: silence counts only once some symbol has moved (sent again after its first price).
  const seenOnce = new Set<string>();
  let moving = false;
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
        seenOnce.clear();
        moving = false;
        if (lastDataMs !== null) lastDataMs = options.clock.nowMs();
      } else if (stale) {
        stale = false;
        options.onChange(false);
      }
    },
    /** Data arrived, for these symbols (none named: a message that proves the feed moves). */
    noteData(symbols?: readonly string[]) {
      lastDataMs = options.clock.nowMs();
      if (!symbols) moving = true;
      else
        for (const symbol of symbols) {
          if (seenOnce.has(symbol)) moving = true;
          else seenOnce.add(symbol);
        }
      if (stale) {
        stale = false;
        options.onChange(false);
      }
    },
    /** Runs on the check cadence; reports a change of state once. */
    check() {
      // Once stale it stays so until data arrives, however long the silence.
      const isStale = lastDataMs === null || !expecting ? false : stale || (moving && options.clock.nowMs() - lastDataMs >= threshold);
      if (isStale !== stale) {
        stale = isStale;
        options.onChange(stale);
      }
    },
    get stale() {
      return stale;
    },
    /** Some followed symbol has moved: which symbols bring data no longer matters until `expect` starts again. */
    get moving() {
      return moving;
    },
  };
}
