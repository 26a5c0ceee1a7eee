import { z } from 'zod';
import type { RawTick } from './sources/market-data-source';

/**
 * The market leader's ticks on the cluster link: `e` the epoch of the lease it published
 * them under (consumers drop an older one's: server/cluster/fencing.ts), `t` the ticks
 * exactly as its source gave them, `a` when it published them and `s` when its term (that
 * epoch) began, wall clock in ms: a consumer counts with them what it took from a lease
 * already taken over (fencing.ts `createSupersededTally`). `a` and `s` are absent from a
 * leader of an earlier version. Short keys: a batch crosses the broker ten times a second.
 */
const stampedTicks = z.object({
  e: z.number().int().nonnegative(),
  a: z.number().int().nonnegative().optional(),
  s: z.number().int().nonnegative().optional(),
  t: z.array(
    z.object({
      symbol: z.string().min(1).max(32),
      timeMs: z.number().int().nonnegative(),
      bid: z.number().int(),
      ask: z.number().int(),
      volume: z.number().nonnegative(),
    }),
  ),
});

export interface FollowedTicks {
  epoch: number;
  ticks: RawTick[];
  /** When the leader published the batch; null from a leader that does not say. */
  publishedAtMs: number | null;
  /** When the leader's term (the epoch) began; null from a leader that does not say. */
  termStartedAtMs: number | null;
}

/** When a batch was published and its leader's term began (wall clock, ms). */
export interface BatchTimes {
  publishedAtMs: number;
  termStartedAtMs: number | null;
}

/** What the market leader publishes for a batch of its ticks under `epoch`, published and begun at `times`. */
export function stampTicks(epoch: number, ticks: readonly RawTick[], times?: BatchTimes): z.input<typeof stampedTicks> {
  return {
    e: epoch,
    ...(times ? { a: times.publishedAtMs } : {}),
    ...(times && times.termStartedAtMs !== null ? { s: times.termStartedAtMs } : {}),
    t: [...ticks],
  };
}

/** A batch of the market leader's ticks as another process received it, with its epoch; null when it is not of that shape. */
export function followedTicks(data: unknown): FollowedTicks | null {
  const parsed = stampedTicks.safeParse(data);
  if (!parsed.success) return null;
  const { e, a, s, t } = parsed.data;
  return { epoch: e, ticks: t, publishedAtMs: a ?? null, termStartedAtMs: s ?? null };
}
