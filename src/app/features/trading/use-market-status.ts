import { useEffect, useState } from 'react';
import type { Product } from '../../../shared/api/market';
import { marketStatusAt, nextOpeningAt, type MarketStatus } from '../../../shared/market/market-hours';

/** The current time, re-read every 30 s (market status changes on the minute at most). */
function useMinuteClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** The market status by the product's hours, re-checked every 30 s. */
export function useMarketStatus(product: Product | undefined): MarketStatus {
  const now = useMinuteClock();
  if (!product) return 'closed';
  return marketStatusAt({ marketStartTime: product.marketStartTime, marketCloseTime: product.marketCloseTime }, now);
}

/** The market status and, while not open, when the next session starts (null: none in its week). */
export function useMarketSchedule(product: Product): { status: MarketStatus; opensAt: number | null } {
  const now = useMinuteClock();
  const status = marketStatusAt(product, now);
  return { status, opensAt: status === 'open' ? null : nextOpeningAt(product, now) };
}
