import type { Clock, Timers } from '../../../src/worker/engine/ports';

/**
 * A clock and timers that move only when the test says so. Build one per test: nothing
 * is shared, so tests pass in any order.
 */
export function createFakeClock(startMs = 1_700_000_000_000) {
  let nowMs = startMs;
  /** `everyMs` 0 marks a one-shot timeout. */
  const scheduled: { callback: () => void; everyMs: number; dueMs: number }[] = [];
  const cancel = (handle: unknown) => {
    const index = scheduled.indexOf(handle as (typeof scheduled)[number]);
    if (index >= 0) scheduled.splice(index, 1);
  };
  const clock: Clock = { nowMs: () => nowMs };
  const timers: Timers = {
    setInterval: (callback, ms) => {
      const entry = { callback, everyMs: ms, dueMs: nowMs + ms };
      scheduled.push(entry);
      return entry;
    },
    clearInterval: cancel,
    setTimeout: (callback, ms) => {
      const entry = { callback, everyMs: 0, dueMs: nowMs + Math.max(0, ms) };
      scheduled.push(entry);
      return entry;
    },
    clearTimeout: cancel,
  };
  return {
    clock,
    timers,
    /** Moves time on by `ms`, running every timer that falls due on the way, in time order. */
    advance(ms: number) {
      const targetMs = nowMs + ms;
      for (;;) {
        const due = scheduled.filter((entry) => entry.dueMs <= targetMs).sort((a, b) => a.dueMs - b.dueMs)[0];
        if (!due) break;
        nowMs = due.dueMs;
        if (due.everyMs === 0) cancel(due);
        else due.dueMs += due.everyMs;
        due.callback();
      }
      nowMs = targetMs;
    },
  };
}

export type FakeClock = ReturnType<typeof createFakeClock>;

/** Lets promises already settled run their callbacks (one macrotask). */
export const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
