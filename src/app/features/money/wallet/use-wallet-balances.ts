import { useCallback, useEffect, useState } from 'react';
import { walletBalance, type WalletBalanceData } from '../../../../shared/api/wallet';
import { useApp } from '../../../app-context';

/** The spec's wallet balance refresh. */
export const walletRefreshMs = 8_000;

/**
 * The signed-in account's wallets (`wallet/balance`): loaded at once, then every 8 s while
 * the page is visible (a hidden tab asks nothing, and asks at once when it shows again).
 * `reload` after a transfer.
 */
export function useWalletBalances(): { data: WalletBalanceData | null; reload: () => void } {
  const { http } = useApp();
  const [data, setData] = useState<WalletBalanceData | null>(null);
  const [version, setVersion] = useState(0);
  const reload = useCallback(() => setVersion((value) => value + 1), []);

  useEffect(() => {
    let stopped = false;
    let timer: number | null = null;
    const load = () => {
      http
        .call(walletBalance, {}, { silent: true })
        .then((next) => !stopped && setData(next))
        .catch(() => undefined);
    };
    const schedule = () => {
      if (timer !== null) window.clearInterval(timer);
      timer = document.visibilityState === 'visible' ? window.setInterval(load, walletRefreshMs) : null;
    };
    const onVisibility = () => {
      if (document.visibilityState === 'visible') load();
      schedule();
    };
    load();
    schedule();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      stopped = true;
      if (timer !== null) window.clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [http, version]);

  return { data, reload };
}
