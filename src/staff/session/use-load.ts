import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * A call's answer for a view: loaded again whenever `keys` (plain values: ids, filters, a page)
 * change or `reload` is called. While a reload runs, the previous answer stays on screen; while
 * other keys load (a new filter, another page), nothing is shown but the loading state, so
 * rows of the previous filter never pass for rows of the new one. After a failure (which the
 * request client has already told) the data is null.
 */
export function useLoad<T>(load: () => Promise<T>, keys: readonly unknown[]) {
  const [generation, setGeneration] = useState(0);
  const keysKey = JSON.stringify(keys);
  const requestKey = `${keysKey}#${generation}`;
  const [settled, setSettled] = useState<{ key: string; keysKey: string; data: T | null } | null>(null);
  const latestLoad = useRef(load);
  useEffect(() => {
    latestLoad.current = load;
  });
  useEffect(() => {
    let current = true;
    latestLoad.current().then(
      (data) => current && setSettled({ key: requestKey, keysKey, data }),
      () => current && setSettled({ key: requestKey, keysKey, data: null }),
    );
    return () => {
      current = false;
    };
  }, [requestKey, keysKey]);
  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  const shown = settled?.keysKey === keysKey ? settled.data : null;
  return { data: shown, loading: settled?.key !== requestKey, reload };
}
