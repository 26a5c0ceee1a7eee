import { describe, expect, it } from 'vitest';
import {
  marketStatusAnswer,
  shownMarketStatus,
  statusRecheckDelayMs,
  statusRecheckMarginMs,
} from '../../../../../src/app/features/trading/market-status-answer';
import { withPathParameters } from '../../../../../src/shared/api/contract';
import { marketStatus } from '../../../../../src/shared/api/market';
import type { TradingHours } from '../../../../../src/shared/market/market-hours';

const utc = (iso: string) => Date.parse(`${iso}Z`);
// A US stock: 14:30–21:00 UTC in standard time, Monday to Friday.
const usStock: TradingHours = {
  marketStartTime: [0, 52200, 52200, 52200, 52200, 52200, 0],
  marketCloseTime: [0, 75600, 75600, 75600, 75600, 75600, 0],
};
const allWeek: TradingHours = { marketStartTime: Array(7).fill(0), marketCloseTime: Array(7).fill(86399) };

describe('the market status a product screen shows', () => {
  it('is the shared hours guess until the server answers', () => {
    expect(shownMarketStatus('AAPL', usStock, null, utc('2026-01-10T12:00:00'))).toBe('closed');
    expect(shownMarketStatus('AAPL', usStock, null, utc('2026-01-12T15:00:00'))).toBe('open');
  });

  it('is the server answer once it arrives, even where the hours guess otherwise (a holiday)', () => {
    const askedAt = utc('2026-01-12T15:00:00');
    const holiday = marketStatusAnswer('AAPL', 'closed', usStock, askedAt);
    expect(shownMarketStatus('AAPL', usStock, holiday, askedAt + 60_000)).toBe('closed');
  });

  it('lapses at the next predicted transition: the guess stands in until the server is asked again', () => {
    const askedAt = utc('2026-01-12T15:00:00');
    const answer = marketStatusAnswer('AAPL', 'open', usStock, askedAt);
    expect(answer.validUntilMs).toBe(utc('2026-01-12T21:00:00'));
    expect(shownMarketStatus('AAPL', usStock, answer, utc('2026-01-12T20:59:59'))).toBe('open');
    expect(shownMarketStatus('AAPL', usStock, answer, utc('2026-01-12T21:00:00'))).toBe('closed');
  });

  it('ignores an answer about another product', () => {
    const answer = marketStatusAnswer('TSLA', 'open', usStock, utc('2026-01-10T12:00:00'));
    expect(shownMarketStatus('AAPL', usStock, answer, utc('2026-01-10T12:00:00'))).toBe('closed');
  });

  it('keeps the answer of a product whose status never changes', () => {
    const answer = marketStatusAnswer('BTCUSDT', 'closed', allWeek, utc('2026-01-10T12:00:00'));
    expect(answer.validUntilMs).toBeNull();
    expect(shownMarketStatus('BTCUSDT', allWeek, answer, utc('2026-01-17T12:00:00'))).toBe('closed');
  });
});

describe('when the server is asked again', () => {
  it('just after the next transition; never for a product whose status never changes', () => {
    expect(statusRecheckDelayMs(usStock, utc('2026-01-12T14:00:00'))).toBe(30 * 60_000 + statusRecheckMarginMs);
    expect(statusRecheckDelayMs(usStock, utc('2026-01-16T21:00:00'))).toBe(utc('2026-01-19T14:00:00') - utc('2026-01-16T21:00:00') + statusRecheckMarginMs);
    expect(statusRecheckDelayMs(allWeek, utc('2026-01-12T14:00:00'))).toBeNull();
  });

  it('at the product path of the market root', () => {
    const call = withPathParameters(marketStatus, { symbol: 'EUR/USD' });
    expect(call.path).toBe('/market/status/EUR%2FUSD');
    expect(call.root).toBe('market');
    expect(marketStatus.path).toBe('/market/status/:symbol');
  });
});
