import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useState } from 'react';
import { userInfo, type UserInfo } from '../../../shared/api/account';
import { useApp } from '../../app-context';
import { sessionSignal } from '../../engine/signals';

/**
 * The signed-in account's profile (`user/info`), read again when the session changes (the
 * real/demo switch gives the other account's token). Null until the answer arrives.
 */
export function useUserInfo(): UserInfo | null {
  useSignals();
  const { http } = useApp();
  const session = sessionSignal.value;
  const [info, setInfo] = useState<UserInfo | null>(null);
  useEffect(() => {
    if (!session.signedIn) return;
    const controller = new AbortController();
    http
      .call(userInfo, {}, { signal: controller.signal, silent: true })
      .then(setInfo)
      .catch(() => undefined);
    return () => controller.abort();
  }, [http, session.signedIn, session.version]);
  return info;
}
