import { marketStatusAt, nextStatusChangeAt, type MarketStatus, type TradingHours } from '../../../shared/market/market-hours';

/**
 * The server's `market/status/{symbol}` answer, kept until the next transition the shared
 * hours predicted when it was asked (null: none predicted, it stands).
 */
export interface MarketStatusAnswer {
  symbol: string;
  status: MarketStatus;
  validUntilMs: number | null;
}

/** The server is asked again this long after a predicted transition, so that it has passed it too. */
export const statusRecheckMarginMs = 1_000;

export function marketStatusAnswer(symbol: string, status: MarketStatus, hours: TradingHours, askedAtMs: number): MarketStatusAnswer {
  return { symbol, status, validUntilMs: nextStatusChangeAt(hours, askedAtMs) };
}

/**
 * The status a product's screen shows: the server's answer for this product while it stands;
 * the shared hours' guess before it arrives, after it lapses, or when the call failed.
 */
export function shownMarketStatus(
  symbol: string,
  hours: TradingHours,
  answer: MarketStatusAnswer | null,
  nowMs: number,
): MarketStatus {
  if (answer && answer.symbol === symbol && (answer.validUntilMs === null || nowMs < answer.validUntilMs)) return answer.status;
  return marketStatusAt(hours, nowMs);
}

/** How long until the server should be asked again (null: not again while the screen stays). */
export function statusRecheckDelayMs(hours: TradingHours, nowMs: number): number | null {
  const changeAt = nextStatusChangeAt(hours, nowMs);
  return changeAt === null ? null : changeAt - nowMs + statusRecheckMarginMs;
}
