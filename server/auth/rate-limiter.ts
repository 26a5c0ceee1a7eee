/**
 * Fixed-window counters per key, in memory (one server process; a shared store would be
 * needed behind a load balancer). `hit` counts an attempt and says whether it may go
 * ahead, or how many seconds until it may.
 */
export function createRateLimiter(options: { limit: number; windowMs: number; nowMs?: () => number }) {
  const nowMs = options.nowMs ?? Date.now;
  const windows = new Map<string, { startMs: number; count: number }>();

  function current(key: string) {
    const now = nowMs();
    let window = windows.get(key);
    if (!window || now - window.startMs >= options.windowMs) {
      window = { startMs: now, count: 0 };
      windows.set(key, window);
    }
    if (windows.size > 50_000) {
      for (const [other, value] of windows) if (now - value.startMs >= options.windowMs) windows.delete(other);
    }
    return window;
  }

  function retryAfterSeconds(window: { startMs: number }) {
    return Math.max(1, Math.ceil((window.startMs + options.windowMs - nowMs()) / 1000));
  }

  return {
    /** Counts one attempt. */
    hit(key: string): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
      const window = current(key);
      if (window.count >= options.limit) return { allowed: false, retryAfterSeconds: retryAfterSeconds(window) };
      window.count += 1;
      return { allowed: true };
    },
    /** Whether a further attempt would be refused, without counting one. */
    check(key: string): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
      const window = current(key);
      return window.count >= options.limit ? { allowed: false, retryAfterSeconds: retryAfterSeconds(window) } : { allowed: true };
    },
    reset(key: string) {
      windows.delete(key);
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
