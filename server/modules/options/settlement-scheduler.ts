/**
 * When settlement runs: one timer per second in which options end (every option ending
 * in that second settles in one run, just after the second closes plus a grace for
 * ticks still in flight), a catch-up run at start for options that ended while the
 * server was down, and a periodic sweep as a safety net (options placed by another
 * instance, a timer that fired early). Runs never overlap: a run asked for while one is
 * under way follows it.
 */
export function createSettlementScheduler(deps: {
  /** Settles every option due now; answers how many it settled. */
  settle: () => Promise<number>;
  graceMs: number;
  sweepMs: number;
  nowMs: () => number;
  log?: (message: string, error?: unknown) => void;
}) {
  const buckets = new Map<number, ReturnType<typeof setTimeout>>();
  let current: Promise<number> | null = null;
  let next: Promise<number> | null = null;
  let stopped = false;

  function run(): Promise<number> {
    if (stopped) return Promise.resolve(0);
    if (!current) {
      current = deps
        .settle()
        .catch((error: unknown) => {
          deps.log?.('option settlement failed', error);
          return 0;
        })
        .finally(() => {
          current = null;
        });
      return current;
    }
    // Options that became due during the run are settled by one follow-up run.
    next ??= current.then(() => {
      next = null;
      return run();
    });
    return next;
  }

  function arm(second: number) {
    const dueAt = second * 1000 + deps.graceMs;
    const timer = setTimeout(() => {
      buckets.delete(second);
      void run().then(() => {
        // A timer may fire a little early: what is not due yet gets its bucket back.
        if (!stopped && deps.nowMs() < dueAt) schedule(second * 1000);
      });
    }, Math.max(0, dueAt - deps.nowMs()));
    timer.unref();
    buckets.set(second, timer);
  }

  function schedule(endMs: number) {
    if (stopped) return;
    const second = Math.ceil(endMs / 1000);
    if (!buckets.has(second)) arm(second);
  }

  const sweep = setInterval(() => void run(), deps.sweepMs);
  sweep.unref();

  return {
    /** An option ends at `endMs`: its second's run is armed. */
    schedule,
    /** Settles what is due now (the catch-up at start, tests, the bench). */
    run,
    bucketCount(): number {
      return buckets.size;
    },
    /** No more runs; waits for the one under way. */
    async stop() {
      stopped = true;
      clearInterval(sweep);
      for (const timer of buckets.values()) clearTimeout(timer);
      buckets.clear();
      while (current || next) await (next ?? current);
    },
  };
}

export type SettlementScheduler = ReturnType<typeof createSettlementScheduler>;
