import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { noticesSignal } from '../../engine/signals';

/**
 * A verification level's data (`user/auth/get` or `user/firstAuth/get`), read again after a
 * submission (`reload`) and whenever a notice arrives (a decision tells the customer at once).
 * `onStatusMoved` fills the form from the server only when the status moved: a notice about
 * something else keeps what is being typed. Call it under `useSignals()`.
 */
export function useVerificationData<Data extends { verifiedStatus: number }>(
  load: () => Promise<Data>,
  onStatusMoved: (data: Data) => void,
): { data: Data | null; reload: () => void } {
  useSignals();
  const [data, setData] = useState<Data | null>(null);
  const [version, setVersion] = useState(0);
  const { arrivals } = noticesSignal.value;
  const shownStatus = useRef<number | null>(null);
  // The latest callbacks, so that a render's new closures do not start another read.
  const latest = useRef({ load, onStatusMoved });
  // Before the effect below: a read it starts uses this render's callbacks.
  useLayoutEffect(() => {
    latest.current = { load, onStatusMoved };
  });
  useEffect(() => {
    let stopped = false;
    latest.current
      .load()
      .then((next) => {
        if (stopped) return;
        setData(next);
        if (shownStatus.current === next.verifiedStatus) return;
        shownStatus.current = next.verifiedStatus;
        latest.current.onStatusMoved(next);
      })
      .catch(() => undefined);
    return () => {
      stopped = true;
    };
  }, [version, arrivals]);
  return { data, reload: () => setVersion((current) => current + 1) };
}
