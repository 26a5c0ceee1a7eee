import { historyLimitMax, marketHistory, marketHistoryRange } from '../../shared/api/market';
import { successCode } from '../../shared/errors/success-code';
import type { KlinePeriod, WireBar } from '../../shared/market/kline';

/**
 * One history call. The spec swallows every failure of it and leaves the chart empty: a
 * non-zero code, an answer that is not the bars, an HTTP error page and no network alike
 * answer no bars (no toast, no retry).
 */
async function postForBars(url: string, body: unknown, read: (data: unknown) => { success: boolean; data?: WireBar[] }): Promise<WireBar[]> {
  try {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!response.ok) return [];
    const envelope = (await response.json()) as { code?: number; data?: unknown };
    if (envelope.code !== successCode) return [];
    const bars = read(envelope.data);
    return bars.success && bars.data ? bars.data : [];
  } catch {
    return [];
  }
}

/** Fetches up to historyLimitMax (300) bars of history; a failure answers none. */
export function fetchMarketHistory(marketRoot: string, symbol: string, period: KlinePeriod): Promise<WireBar[]> {
  return postForBars(`${marketRoot}${marketHistory.path}`, { symbol, period, limit: historyLimitMax }, (data) => marketHistory.data.safeParse(data));
}

/** Fetches the bars between two times (ms) from `/market/history/limit`; a failure answers none, as above. */
export function fetchMarketHistoryRange(marketRoot: string, symbol: string, period: KlinePeriod, from: number, to: number): Promise<WireBar[]> {
  return postForBars(`${marketRoot}${marketHistoryRange.path}`, { symbol, period, from, to }, (data) => marketHistoryRange.data.safeParse(data));
}
