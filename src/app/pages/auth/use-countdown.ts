import { useCallback, useEffect, useState } from 'react';

/** How often the remaining seconds are recomputed; the deadline is wall-clock, so late timers do not drift. */
const tickMs = 250;

/**
 * A countdown in whole seconds (resend links, the captcha cooldown). `start(n)` restarts
 * it; `secondsLeft` is 0 when it is not running.
 */
export function useCountdown() {
  const [deadlineMs, setDeadlineMs] = useState<number | null>(null);
  const [secondsLeft, setSecondsLeft] = useState(0);

  useEffect(() => {
    if (deadlineMs === null) return;
    const timer = setInterval(() => {
      const left = Math.max(0, Math.ceil((deadlineMs - Date.now()) / 1000));
      setSecondsLeft(left);
      if (left === 0) setDeadlineMs(null);
    }, tickMs);
    return () => clearInterval(timer);
  }, [deadlineMs]);

  const start = useCallback((seconds: number) => {
    setSecondsLeft(seconds);
    setDeadlineMs(Date.now() + seconds * 1000);
  }, []);
  const stop = useCallback(() => {
    setSecondsLeft(0);
    setDeadlineMs(null);
  }, []);

  return { secondsLeft, running: secondsLeft > 0, start, stop };
}
