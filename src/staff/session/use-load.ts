import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * A call's answer for a view: loaded again whenever `keys` (plain values: ids, filters, a page)
 * change or `reload` is called. While loading, the previous answer stays on screen; after a
 * failure (which the request client has already told) the data is null.
 */
export function useLoad<T>(load: () => Promise<T>, keys: readonly unknown[]) {
  const [generation, setGeneration] = useState(0);
  const requestKey = `${JSON.stringify(keys)}#${generation}`;
  const [settled, setSettled] = useState<{ key: string; data: T | null } | null>(null);
  const latestLoad = useRef(load);
  useEffect(() => {
    latestLoad.current = load;
  });
  useEffect(() => {
    let current = true;
    latestLoad.current().then(
      (data) => current && setSettled({ key: requestKey, data }),
      () => current && setSettled({ key: requestKey, data: null }),
    );
    return () => {
      current = false;
    };
  }, [requestKey]);
  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  return { data: settled?.data ?? null, loading: settled?.key !== requestKey, reload };
}
