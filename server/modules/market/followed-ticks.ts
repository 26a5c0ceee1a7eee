import { z } from 'zod';
import type { RawTick } from './sources/market-data-source';

const rawTicks = z.array(
  z.object({
    symbol: z.string().min(1).max(32),
    timeMs: z.number().int().nonnegative(),
    bid: z.number().int(),
    ask: z.number().int(),
    volume: z.number().nonnegative(),
  }),
);

/** A batch of the market leader's ticks as another process received it; null when it is not of that shape. */
export function followedTicks(data: unknown): RawTick[] | null {
  const parsed = rawTicks.safeParse(data);
  return parsed.success ? parsed.data : null;
}
