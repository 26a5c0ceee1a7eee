import { historyLimitMax, marketHistory, marketHistoryRange } from '../../shared/api/market';
import { successCode } from '../../shared/errors/success-code';
import type { KlinePeriod, WireBar } from '../../shared/market/kline';

/** Fetches up to historyLimitMax (300) bars of history; errors leave the chart empty (the spec swallows them). */
export async function fetchMarketHistory(marketRoot: string, symbol: string, period: KlinePeriod): Promise<WireBar[]> {
  const response = await fetch(`${marketRoot}${marketHistory.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ symbol, period, limit: historyLimitMax }),
  });
  const envelope = (await response.json()) as { code?: number; data?: unknown };
  if (envelope.code !== successCode) return [];
  const bars = marketHistory.data.safeParse(envelope.data);
  return bars.success ? bars.data : [];
}

/** Fetches the bars between two times (ms) from `/market/history/limit`; errors answer no bars, as above. */
export async function fetchMarketHistoryRange(marketRoot: string, symbol: string, period: KlinePeriod, from: number, to: number): Promise<WireBar[]> {
  const response = await fetch(`${marketRoot}${marketHistoryRange.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ symbol, period, from, to }),
  });
  const envelope = (await response.json()) as { code?: number; data?: unknown };
  if (envelope.code !== successCode) return [];
  const bars = marketHistoryRange.data.safeParse(envelope.data);
  return bars.success ? bars.data : [];
}
