import { describe, expect, it } from 'vitest';
import { isUsDaylightSavingTime, marketStatusAt, nextOpeningAt, nextStatusChangeAt, type TradingHours } from '../../../../src/shared/market/market-hours';

const utc = (iso: string) => Date.parse(`${iso}Z`);
const allWeek = (start: number, close: number): TradingHours => ({
  marketStartTime: Array.from({ length: 7 }, () => start),
  marketCloseTime: Array.from({ length: 7 }, () => close),
});

// A US stock: 14:30–21:00 UTC in standard time (09:30–16:00 New York), Monday to Friday.
const usStock: TradingHours = {
  marketStartTime: [0, 52200, 52200, 52200, 52200, 52200, 0],
  marketCloseTime: [0, 75600, 75600, 75600, 75600, 75600, 0],
};
// Forex: Sunday 22:00 UTC to Friday 22:00 UTC.
const forex: TradingHours = {
  marketStartTime: [79200, 0, 0, 0, 0, 0, 0],
  marketCloseTime: [86399, 86399, 86399, 86399, 86399, 79200, 0],
};

describe('US daylight saving time', () => {
  it('starts on the second Sunday of March and ends on the first Sunday of November', () => {
    expect(isUsDaylightSavingTime(utc('2026-03-08T06:59:59'))).toBe(false);
    expect(isUsDaylightSavingTime(utc('2026-03-08T07:00:00'))).toBe(true);
    expect(isUsDaylightSavingTime(utc('2026-11-01T05:59:59'))).toBe(true);
    expect(isUsDaylightSavingTime(utc('2026-11-01T06:00:00'))).toBe(false);
    expect(isUsDaylightSavingTime(utc('2027-03-14T08:00:00'))).toBe(true);
  });
});

describe('market status', () => {
  it('opens a US stock at 14:30 UTC in winter and 13:30 UTC in summer', () => {
    // Monday 2026-01-12 (standard time)
    expect(marketStatusAt(usStock, utc('2026-01-12T14:29:59'))).toBe('early_trading');
    expect(marketStatusAt(usStock, utc('2026-01-12T14:30:00'))).toBe('open');
    expect(marketStatusAt(usStock, utc('2026-01-12T20:59:59'))).toBe('open');
    expect(marketStatusAt(usStock, utc('2026-01-12T21:00:00'))).toBe('closed');
    expect(marketStatusAt(usStock, utc('2026-01-12T13:59:59'))).toBe('closed');
    // Monday 2026-07-13 (daylight saving time): one hour earlier
    expect(marketStatusAt(usStock, utc('2026-07-13T13:30:00'))).toBe('open');
    expect(marketStatusAt(usStock, utc('2026-07-13T13:00:00'))).toBe('early_trading');
    expect(marketStatusAt(usStock, utc('2026-07-13T20:00:00'))).toBe('closed');
  });

  it('keeps a US stock closed at the weekend', () => {
    expect(marketStatusAt(usStock, utc('2026-01-10T15:00:00'))).toBe('closed');
    expect(marketStatusAt(usStock, utc('2026-01-11T15:00:00'))).toBe('closed');
  });

  it('opens forex from Sunday evening to Friday evening, with early trading before the open', () => {
    expect(marketStatusAt(forex, utc('2026-01-11T21:45:00'))).toBe('early_trading');
    expect(marketStatusAt(forex, utc('2026-01-11T22:00:00'))).toBe('open');
    expect(marketStatusAt(forex, utc('2026-01-13T03:00:00'))).toBe('open');
    expect(marketStatusAt(forex, utc('2026-01-16T21:59:59'))).toBe('open');
    expect(marketStatusAt(forex, utc('2026-01-16T22:00:00'))).toBe('closed');
    expect(marketStatusAt(forex, utc('2026-01-17T12:00:00'))).toBe('closed');
  });

  it('treats a span of 86399 seconds as open all day (crypto)', () => {
    const crypto = allWeek(0, 86399);
    for (const instant of ['2026-01-10T00:00:00', '2026-07-04T23:59:59', '2026-03-08T07:30:00']) {
      expect(marketStatusAt(crypto, utc(instant)), instant).toBe('open');
    }
  });
});

describe('next opening', () => {
  it('names when a closed US stock opens next: after the weekend, the same morning, in winter and summer', () => {
    // Saturday 2026-01-10 → Monday 14:30 UTC.
    expect(nextOpeningAt(usStock, utc('2026-01-10T12:00:00'))).toBe(utc('2026-01-12T14:30:00'));
    // Friday evening after the close → Monday.
    expect(nextOpeningAt(usStock, utc('2026-01-09T21:00:00'))).toBe(utc('2026-01-12T14:30:00'));
    // Tuesday before the bell (early trading) → today.
    expect(nextOpeningAt(usStock, utc('2026-01-13T14:10:00'))).toBe(utc('2026-01-13T14:30:00'));
    // Summer: one hour earlier, 13:30 UTC.
    expect(nextOpeningAt(usStock, utc('2026-07-11T12:00:00'))).toBe(utc('2026-07-13T13:30:00'));
    expect(marketStatusAt(usStock, utc('2026-07-13T13:30:00'))).toBe('open');
  });

  it('opens forex on Sunday 22:00 UTC in winter; a product without sessions never opens', () => {
    expect(nextOpeningAt(forex, utc('2026-01-10T09:00:00'))).toBe(utc('2026-01-11T22:00:00'));
    expect(nextOpeningAt(allWeek(0, 0), utc('2026-01-10T09:00:00'))).toBeNull();
  });
});

describe('next status change', () => {
  it('a US stock changes at early trading, the open and the close, an hour earlier in summer', () => {
    // Monday 2026-01-12 (standard time)
    expect(nextStatusChangeAt(usStock, utc('2026-01-12T10:00:00'))).toBe(utc('2026-01-12T14:00:00'));
    expect(nextStatusChangeAt(usStock, utc('2026-01-12T14:00:00'))).toBe(utc('2026-01-12T14:30:00'));
    expect(nextStatusChangeAt(usStock, utc('2026-01-12T15:00:00'))).toBe(utc('2026-01-12T21:00:00'));
    // Friday evening: nothing until Monday's early trading.
    expect(nextStatusChangeAt(usStock, utc('2026-01-16T21:00:00'))).toBe(utc('2026-01-19T14:00:00'));
    expect(nextStatusChangeAt(usStock, utc('2026-07-13T14:00:00'))).toBe(utc('2026-07-13T20:00:00'));
  });

  it('forex stays open across midnights and closes on Friday; a product that never changes has none', () => {
    expect(nextStatusChangeAt(forex, utc('2026-01-13T09:00:00'))).toBe(utc('2026-01-16T22:00:00'));
    expect(nextStatusChangeAt(forex, utc('2026-01-17T09:00:00'))).toBe(utc('2026-01-18T21:30:00'));
    expect(nextStatusChangeAt(allWeek(0, 86399), utc('2026-01-13T09:00:00'))).toBeNull();
    expect(nextStatusChangeAt(allWeek(0, 0), utc('2026-01-13T09:00:00'))).toBeNull();
  });
});

describe('the status by arithmetic agrees with the calendar', () => {
  /** The calendar's answer, with Date methods, as the status was first written. */
  function calendarStatus(hours: TradingHours, utcMs: number): string {
    const year = new Date(utcMs).getUTCFullYear();
    const nthSunday = (month: number, nth: number) => 1 + ((7 - new Date(Date.UTC(year, month, 1)).getUTCDay()) % 7) + (nth - 1) * 7;
    const dst = utcMs >= Date.UTC(year, 2, nthSunday(2, 2), 7) && utcMs < Date.UTC(year, 10, nthSunday(10, 1), 6);
    const clock = new Date(utcMs + (dst ? 3_600_000 : 0));
    const weekday = clock.getUTCDay();
    const second = clock.getUTCHours() * 3600 + clock.getUTCMinutes() * 60 + clock.getUTCSeconds();
    const start = hours.marketStartTime[weekday] ?? 0;
    const close = hours.marketCloseTime[weekday] ?? 0;
    if (close - start >= 86399) return 'open';
    if (close > start && second >= start && second < close) return 'open';
    if (close > start && second < start && second >= start - 1800) return 'early_trading';
    const nextStart = hours.marketStartTime[(weekday + 1) % 7] ?? 0;
    const nextClose = hours.marketCloseTime[(weekday + 1) % 7] ?? 0;
    if (nextClose > nextStart && nextStart < 1800 && second >= 86400 + nextStart - 1800) return 'early_trading';
    return 'closed';
  }

  it('for forex and a US stock at 20,000 seeded instants from 1965 to 2095, both sides of every daylight-saving change', () => {
    let seed = 7;
    const next = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648);
    const from = Date.UTC(1965, 0, 1);
    const span = Date.UTC(2095, 0, 1) - from;
    for (let index = 0; index < 20_000; index += 1) {
      // Every other instant lands within an hour of a boundary: a whole second, a minute, a DST change.
      const utcMs = index % 2 === 0 ? from + Math.floor(next() * span) : Date.UTC(1965 + Math.floor(next() * 130), 2 + 8 * Math.floor(next() * 2), 1 + Math.floor(next() * 14), Math.floor(next() * 24), Math.floor(next() * 60), Math.floor(next() * 60), Math.floor(next() * 1000));
      for (const hours of [forex, usStock]) expect(marketStatusAt(hours, utcMs), new Date(utcMs).toISOString()).toBe(calendarStatus(hours, utcMs));
    }
  });
});
