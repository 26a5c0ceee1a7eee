import { useEffect, useState } from 'react';
import type { Product } from '../../../shared/api/market';
import { marketStatusAt, type MarketStatus } from '../../../shared/market/market-hours';

/** The market status by the product's hours, re-checked every 30 s. */
export function useMarketStatus(product: Product | undefined): MarketStatus {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  if (!product) return 'closed';
  return marketStatusAt({ marketStartTime: product.marketStartTime, marketCloseTime: product.marketCloseTime }, now);
}
