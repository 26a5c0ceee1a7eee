/**
 * How far the device's clock is from the server's, estimated from the server's `Date`
 * response header, so that countdowns to a server time (a position's minimum holding time)
 * do not run early or late on a device whose clock is off.
 *
 * The header has whole seconds: the server wrote it at some time in [date, date + 1 s),
 * and that moment lies between sending the request and receiving the answer (local clock).
 * Each answer therefore bounds the offset (local − server) to
 * [sentAt − date − 1000, receivedAt − date]; the bounds of several answers intersect, so
 * the estimate tightens to well under a second after a few calls. When a new bound does
 * not meet the old ones (either clock was set meanwhile), the estimate starts again from it.
 */
export interface ServerDateSample {
  /** The `Date` header, in ms (a whole second). */
  serverDateMs: number;
  /** The local clock when the request went out and when its answer came. */
  sentAtMs: number;
  receivedAtMs: number;
}

/** The offset's bounds (local − server, ms); none before the first answer. */
export interface OffsetBounds {
  low: number;
  high: number;
}

const headerResolutionMs = 1_000;

/** The bounds one answer puts on the offset (null for a sample that cannot be right: received before sent). */
export function offsetBoundsOf(sample: ServerDateSample): OffsetBounds | null {
  if (!Number.isFinite(sample.serverDateMs) || sample.receivedAtMs < sample.sentAtMs) return null;
  return { low: sample.sentAtMs - sample.serverDateMs - headerResolutionMs, high: sample.receivedAtMs - sample.serverDateMs };
}

/** The bounds after one more answer: the overlap, or the new answer's own bounds when they do not meet. */
export function narrowOffset(current: OffsetBounds | null, sample: ServerDateSample): OffsetBounds | null {
  const next = offsetBoundsOf(sample);
  if (next === null) return current;
  if (current === null) return next;
  const low = Math.max(current.low, next.low);
  const high = Math.min(current.high, next.high);
  return low <= high ? { low, high } : next;
}

/** The best single value: the middle of the bounds; 0 (trust the device) before any answer. */
export function offsetEstimateMs(bounds: OffsetBounds | null): number {
  return bounds === null ? 0 : Math.round((bounds.low + bounds.high) / 2);
}

/** A running estimate fed by every answer: `serverNowMs` is the device's clock corrected by it. */
export function createServerClock(localNowMs: () => number = Date.now) {
  let bounds: OffsetBounds | null = null;
  return {
    observe(sample: ServerDateSample) {
      bounds = narrowOffset(bounds, sample);
    },
    offsetMs: () => offsetEstimateMs(bounds),
    serverNowMs: () => localNowMs() - offsetEstimateMs(bounds),
  };
}

export type ServerClock = ReturnType<typeof createServerClock>;
