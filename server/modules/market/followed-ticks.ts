import { z } from 'zod';
import type { RawTick } from './sources/market-data-source';

/**
 * The market leader's ticks on the cluster link: `e` the epoch of the lease it published
 * them under (consumers drop an older one's: server/cluster/fencing.ts), `t` the ticks
 * exactly as its source gave them. Short keys: a batch crosses the broker ten times a second.
 */
const stampedTicks = z.object({
  e: z.number().int().nonnegative(),
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
}

/** What the market leader publishes for a batch of its ticks under `epoch`. */
export function stampTicks(epoch: number, ticks: readonly RawTick[]): z.input<typeof stampedTicks> {
  return { e: epoch, t: [...ticks] };
}

/** A batch of the market leader's ticks as another process received it, with its epoch; null when it is not of that shape. */
export function followedTicks(data: unknown): FollowedTicks | null {
  const parsed = stampedTicks.safeParse(data);
  return parsed.success ? { epoch: parsed.data.e, ticks: parsed.data.t } : null;
}
