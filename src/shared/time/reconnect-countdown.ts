/**
 * The whole seconds left before the engine's next reconnection attempt at `retryAtMs` (the
 * market snapshot's), as the tabs count them down ("Reconnecting in 4 s"): rounded up, so
 * that 0 shows only once the attempt is due; null when no attempt is waited for.
 */
export function reconnectCountdownSeconds(retryAtMs: number | null, nowMs: number): number | null {
  if (retryAtMs === null) return null;
  return Math.max(0, Math.ceil((retryAtMs - nowMs) / 1000));
}
