/**
 * Work a request starts but does not wait for (so its answer and timing cannot depend
 * on it): failures are logged, never surfaced; `settled()` waits for all of it (server
 * close, tests).
 */
export function createBackgroundWork(log: (message: string, error: unknown) => void) {
  const inFlight = new Set<Promise<void>>();
  return {
    /** Runs `task` after the current I/O turn, so the caller's answer goes out first. */
    run(task: () => Promise<void>, failure: string) {
      const work = new Promise<void>((resolve) => setImmediate(resolve))
        .then(task)
        .catch((error: unknown) => log(failure, error))
        .finally(() => inFlight.delete(work));
      inFlight.add(work);
    },
    async settled() {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
  };
}
