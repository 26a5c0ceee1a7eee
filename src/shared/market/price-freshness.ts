/**
 * When a price is live: the specification's 10 s without data ("Data is flagged stale when
 * nothing arrives for 10 seconds"). One rule for the worker's stale flag and for the
 * server, which neither quotes as live, fills, triggers nor settles on an older tick
 * (STALE_PRICE_MS may tighten or loosen it per deployment; this is its default).
 */
export const staleAfterMs = 10_000;

/** Whether a tick of `tickMs` is still live at `nowMs` under `limitMs` (a tick exactly at the limit still is). */
export function isPriceFresh(tickMs: number, nowMs: number, limitMs: number = staleAfterMs): boolean {
  return nowMs - tickMs <= limitMs;
}
