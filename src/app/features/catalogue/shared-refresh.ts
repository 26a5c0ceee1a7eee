import { useEffect } from 'react';
import type { HttpClient } from '../../api/http-client';
import { useApp } from '../../app-context';

/**
 * A catalogue a tab loads once and refreshes while any view shows it: concurrent callers
 * share one request, and one timer runs while at least one view is mounted. `load`
 * answers whether it succeeded (a failure keeps what was there and retries at the next tick).
 */
export function createSharedRefresh(load: (http: HttpClient) => Promise<boolean>, options: { refreshMs: number; isReady: () => boolean }) {
  let inFlight: Promise<void> | null = null;
  let loadedAtMs = 0;
  let users = 0;
  let refreshTimer: ReturnType<typeof setInterval> | null = null;

  function refresh(http: HttpClient): Promise<void> {
    inFlight ??= load(http)
      .then((ok) => {
        if (ok) loadedAtMs = Date.now();
      })
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  }

  /** Loads when a view needs it (unless fresh) and keeps it fresh while any such view is shown; `enabled` false: this view does not need it now. */
  function useRefreshed(enabled = true): void {
    const { http } = useApp();
    useEffect(() => {
      if (!enabled) return;
      users += 1;
      if (Date.now() - loadedAtMs >= options.refreshMs || !options.isReady()) void refresh(http);
      refreshTimer ??= setInterval(() => void refresh(http), options.refreshMs);
      return () => {
        users -= 1;
        if (users === 0 && refreshTimer) {
          clearInterval(refreshTimer);
          refreshTimer = null;
        }
      };
    }, [http, enabled]);
  }

  return { refresh, useRefreshed };
}
