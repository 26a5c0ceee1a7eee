import { wireBarSchema } from '../../shared/api/market';
import type { KlinePeriod, WireBar } from '../../shared/market/kline';

const historyBarsMax = 300;
const historyResponseSchema = wireBarSchema.array();

/** Fetches up to 300 bars of history; errors leave the chart empty (the spec swallows them). */
export async function fetchMarketHistory(marketRoot: string, symbol: string, period: KlinePeriod): Promise<WireBar[]> {
  const response = await fetch(`${marketRoot}/market/history`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ symbol, period, limit: historyBarsMax }),
  });
  const envelope = (await response.json()) as { code?: number; data?: unknown };
  if (envelope.code !== 0) return [];
  const bars = historyResponseSchema.safeParse(envelope.data);
  return bars.success ? bars.data : [];
}
