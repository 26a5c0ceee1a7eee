import { historyLimitMax, marketHistory, marketHistoryRange } from '../../shared/api/market';
import { successCode } from '../../shared/errors/success-code';
import type { KlinePeriod, WireBar } from '../../shared/market/kline';

/**
 * One history call under the market root. The spec swallows every failure of it and leaves
 * the chart empty: a non-zero code, an answer that is not the bars, an error page and no
 * network alike answer no bars (no toast, no retry).
 */
async function historyBars(contract: typeof marketHistory | typeof marketHistoryRange, marketRoot: string, body: object): Promise<WireBar[]> {
  try {
    const response = await fetch(`${marketRoot}${contract.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const envelope = (await response.json()) as { code?: number; data?: unknown };
    const bars = contract.data.safeParse(envelope.data);
    return envelope.code === successCode && bars.success ? bars.data : [];
  } catch {
    return [];
  }
}

/** Fetches up to historyLimitMax (300) bars of history; a failure answers none. */
export const fetchMarketHistory = (marketRoot: string, symbol: string, period: KlinePeriod) => historyBars(marketHistory, marketRoot, { symbol, period, limit: historyLimitMax });

/** Fetches the bars between two times (ms) from `/market/history/limit`; a failure answers none. */
export const fetchMarketHistoryRange = (marketRoot: string, symbol: string, period: KlinePeriod, from: number, to: number) => historyBars(marketHistoryRange, marketRoot, { symbol, period, from, to });
