import { signal } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useState } from 'react';
import { userInfo, type UserInfo } from '../../../shared/api/account';
import { useApp } from '../../app-context';
import { sessionSignal } from '../../engine/signals';

const profileVersion = signal(0, { name: 'profileVersion' });

/** Says the profile changed on the server (a nickname, an avatar, a bound e-mail): every reader reads it again. */
export function profileChanged(): void {
  profileVersion.value += 1;
}

/**
 * The signed-in account's profile (`user/info`), read again when the session changes (the
 * real/demo switch gives the other account's token) and when `profileChanged` says so. Null
 * until the first answer arrives.
 */
export function useUserInfo(): UserInfo | null {
  useSignals();
  const { http } = useApp();
  const session = sessionSignal.value;
  const version = profileVersion.value;
  const [info, setInfo] = useState<UserInfo | null>(null);
  useEffect(() => {
    if (!session.signedIn) return;
    const controller = new AbortController();
    http
      .call(userInfo, {}, { signal: controller.signal, silent: true })
      .then(setInfo)
      .catch(() => undefined);
    return () => controller.abort();
  }, [http, session.signedIn, session.version, version]);
  return info;
}
