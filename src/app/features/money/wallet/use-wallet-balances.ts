import { useCallback, useEffect, useRef, useState } from 'react';
import { walletBalance, type WalletBalanceData } from '../../../../shared/api/wallet';
import { useApp } from '../../../app-context';

/** The spec's wallet balance refresh. */
export const walletRefreshMs = 8_000;

/**
 * The signed-in account's wallets (`wallet/balance`): loaded at once, then every 8 s while
 * the page is visible and `refreshing` (the wallet's my_wallet tab, not its records tab: the
 * spec's rule), a hidden page asking nothing and asking at once when it shows again; turned
 * on again, it asks at once. `reload` after a transfer.
 */
export function useWalletBalances(options: { refreshing?: boolean } = {}): { data: WalletBalanceData | null; reload: () => void } {
  const refreshing = options.refreshing ?? true;
  const { http } = useApp();
  const [data, setData] = useState<WalletBalanceData | null>(null);
  const [version, setVersion] = useState(0);
  const reload = useCallback(() => setVersion((value) => value + 1), []);
  // Whether the refresh was off since the last answer: turned on again, it asks at once.
  const pausedSinceLoad = useRef(false);

  const load = useCallback(
    (isStopped: () => boolean) => {
      http
        .call(walletBalance, {}, { silent: true })
        .then((next) => {
          if (isStopped()) return;
          pausedSinceLoad.current = false;
          setData(next);
        })
        .catch(() => undefined);
    },
    [http],
  );

  // At once, and again on every reload.
  useEffect(() => {
    let stopped = false;
    load(() => stopped);
    return () => {
      stopped = true;
    };
  }, [load, version]);

  // Every 8 s while refreshing and the page is visible.
  useEffect(() => {
    if (!refreshing) {
      pausedSinceLoad.current = true;
      return;
    }
    let stopped = false;
    let timer: number | null = null;
    const isStopped = () => stopped;
    const schedule = () => {
      if (timer !== null) window.clearInterval(timer);
      timer = document.visibilityState === 'visible' ? window.setInterval(() => load(isStopped), walletRefreshMs) : null;
    };
    const onVisibility = () => {
      if (document.visibilityState === 'visible') load(isStopped);
      schedule();
    };
    if (pausedSinceLoad.current) load(isStopped);
    schedule();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      stopped = true;
      if (timer !== null) window.clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [load, refreshing]);

  return { data, reload };
}
