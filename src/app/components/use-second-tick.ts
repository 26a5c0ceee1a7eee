import { useEffect, useState } from 'react';

/**
 * The device's time, re-rendered at each whole second while `active` (a clock, a countdown),
 * so that a second shown never lags by up to a second behind the one before.
 */
export function useSecondTick(active = true): number {
  const [nowMs, setNowMs] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    let timer: ReturnType<typeof setTimeout>;
    const next = () => {
      const now = Date.now();
      setNowMs(now);
      timer = setTimeout(next, 1000 - (now % 1000));
    };
    next();
    return () => clearTimeout(timer);
  }, [active]);
  return nowMs;
}
