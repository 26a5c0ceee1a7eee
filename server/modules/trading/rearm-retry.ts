import type { Book } from '../../../src/shared/session/token';

/**
 * Arming the triggers of an account changed on another process reads its open orders; while
 * the database cannot be read that read fails, and an account left armed as it was would
 * miss a stop loss set elsewhere. So a failed arming is tried again, backing off from 1 s to
 * 30 s, until it reads; a newer change of the same account runs at once instead of its retry.
 */
export function createRearmRetry(options: {
  rearm: (uid: number, book: Book) => Promise<void>;
  log: (message: string, error: unknown) => void;
  timers?: { setTimeout: (run: () => void, ms: number) => unknown; clearTimeout: (timer: unknown) => void };
}) {
  const timers = options.timers ?? {
    setTimeout: (run: () => void, ms: number) => setTimeout(run, ms).unref(),
    clearTimeout: (timer: unknown) => clearTimeout(timer as ReturnType<typeof setTimeout>),
  };
  const waiting = new Map<string, unknown>();
  let stopped = false;

  function attempt(uid: number, book: Book, failures: number) {
    const key = `${uid}:${book}`;
    options.rearm(uid, book).catch((error: unknown) => {
      options.log('arming the triggers of orders changed elsewhere failed; trying again', error);
      if (stopped || waiting.has(key)) return;
      const delayMs = Math.min(30_000, 1000 * 2 ** failures);
      waiting.set(
        key,
        timers.setTimeout(() => {
          waiting.delete(key);
          if (!stopped) attempt(uid, book, failures + 1);
        }, delayMs),
      );
    });
  }

  return {
    /** The account changed elsewhere: armed now (a retry waiting for it is no longer needed). */
    changed(uid: number, book: Book) {
      if (stopped) return;
      const key = `${uid}:${book}`;
      const retry = waiting.get(key);
      if (retry !== undefined) {
        timers.clearTimeout(retry);
        waiting.delete(key);
      }
      attempt(uid, book, 0);
    },
    stop() {
      stopped = true;
      for (const retry of waiting.values()) timers.clearTimeout(retry);
      waiting.clear();
    },
  };
}
