import { useEffect } from 'react';
import { userBalance, type AccountBalance } from '../../../shared/api/account';
import { totalBalance } from '../../../shared/money/balance';
import { sessionAccount } from '../../../shared/protocol/engine';
import { useApp } from '../../app-context';
import { balanceSignal, sessionSignal } from '../../engine/signals';

/** The balance as views show it: available, locked (margin and running options) and their total. */
export interface ShownBalance extends AccountBalance {
  /** Balance plus locked. */
  total: string;
}

/** The account a first load is under way for: views that mount meanwhile share it. */
let loadingFor: string | null = null;

/**
 * The signed-in account's balance, live from the engine's pushes (the exchange socket
 * sends it on joining and after every change to the account's money). Until the first
 * push for this account arrives, `user/balance` is loaded once so that a view never shows
 * nothing while the socket joins; nothing polls. Call it under `useSignals()`.
 */
export function useAccountBalance(): ShownBalance | null {
  const { http } = useApp();
  const account = sessionAccount(sessionSignal.value);
  const balance = balanceSignal.value;
  const waiting = account !== null && balance === null;

  useEffect(() => {
    if (!waiting || loadingFor === account) return;
    loadingFor = account;
    http
      .call(userBalance, {}, { silent: true })
      .then((loaded) => {
        // A push, sign-out or switch that came first wins.
        if (balanceSignal.peek() === null && sessionAccount(sessionSignal.peek()) === account) balanceSignal.value = loaded;
      })
      .catch(() => undefined)
      .finally(() => {
        if (loadingFor === account) loadingFor = null;
      });
  }, [http, waiting, account]);

  return balance ? { ...balance, total: totalBalance(balance) } : null;
}
