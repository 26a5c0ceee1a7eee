/**
 * When a product trades. Each product has a start and a close time per weekday
 * (index 0 = Sunday), in seconds after midnight UTC as they stand in US standard time;
 * during US daylight saving time every session starts and ends one hour earlier. A span
 * of 86399 s (0 to 86399) means open all day; start = close means closed that day. The
 * `earlyTradingSeconds` before the start of a session are early trading (pre-market):
 * quotes may move but the product is not tradable and charts show history only.
 */
export type MarketStatus = 'open' | 'closed' | 'early_trading';

export interface TradingHours {
  marketStartTime: readonly number[];
  marketCloseTime: readonly number[];
}

export const allDaySpanSeconds = 86399;
export const earlyTradingSeconds = 30 * 60;
const secondsPerDay = 86400;
const hourMs = 3_600_000;

const dayMs = secondsPerDay * 1000;

/** One year's daylight-saving span, kept: charts and the server's bar backfill ask about the same year thousands of times in a row. */
let cachedDstYear: { fromMs: number; toMs: number; dstStartMs: number; dstEndMs: number } | null = null;

function dstYearOf(utcMs: number) {
  if (cachedDstYear && utcMs >= cachedDstYear.fromMs && utcMs < cachedDstYear.toMs) return cachedDstYear;
  const year = new Date(utcMs).getUTCFullYear();
  const nthSunday = (month: number, nth: number) => {
    const first = new Date(Date.UTC(year, month, 1));
    const firstSunday = 1 + ((7 - first.getUTCDay()) % 7);
    return firstSunday + (nth - 1) * 7;
  };
  // 2:00 EST is 07:00 UTC; 2:00 EDT is 06:00 UTC.
  cachedDstYear = {
    fromMs: Date.UTC(year, 0, 1),
    toMs: Date.UTC(year + 1, 0, 1),
    dstStartMs: Date.UTC(year, 2, nthSunday(2, 2), 7),
    dstEndMs: Date.UTC(year, 10, nthSunday(10, 1), 6),
  };
  return cachedDstYear;
}

/** The second Sunday of March and the first Sunday of November, 2:00 local (07:00/06:00 UTC). */
export function isUsDaylightSavingTime(utcMs: number): boolean {
  const { dstStartMs, dstEndMs } = dstYearOf(utcMs);
  return utcMs >= dstStartMs && utcMs < dstEndMs;
}

/** The market status of a product at an instant. */
export function marketStatusAt(hours: TradingHours, utcMs: number): MarketStatus {
  // Moving the clock forward one hour in DST is the same as moving every session back one.
  const clockMs = utcMs + (isUsDaylightSavingTime(utcMs) ? hourMs : 0);
  // Day and second by arithmetic, not a Date: 1 January 1970 was a Thursday (4).
  const day = Math.floor(clockMs / dayMs);
  const weekday = (((day + 4) % 7) + 7) % 7;
  const second = Math.floor((clockMs - day * dayMs) / 1000);
  const start = hours.marketStartTime[weekday] ?? 0;
  const close = hours.marketCloseTime[weekday] ?? 0;

  if (close - start >= allDaySpanSeconds) return 'open';
  if (close > start && second >= start && second < close) return 'open';
  // Early trading before today's session, or before tomorrow's when it starts at midnight.
  if (close > start && second < start && second >= start - earlyTradingSeconds) return 'early_trading';
  const nextWeekday = (weekday + 1) % 7;
  const nextStart = hours.marketStartTime[nextWeekday] ?? 0;
  const nextClose = hours.marketCloseTime[nextWeekday] ?? 0;
  if (nextClose > nextStart && nextStart < earlyTradingSeconds && second >= secondsPerDay + nextStart - earlyTradingSeconds) {
    return 'early_trading';
  }
  return 'closed';
}

export function isMarketOpen(hours: TradingHours, utcMs: number): boolean {
  return marketStatusAt(hours, utcMs) === 'open';
}

/**
 * When the product's next session starts after `utcMs` (ms since epoch), what a closed
 * product shows ("opens Mon 13:30"); null when no day of its week has a session.
 */
export function nextOpeningAt(hours: TradingHours, utcMs: number): number | null {
  const clockMs = utcMs + (isUsDaylightSavingTime(utcMs) ? hourMs : 0);
  const dayStartMs = clockMs - (clockMs % (secondsPerDay * 1000));
  const weekday = new Date(clockMs).getUTCDay();
  for (let offset = 0; offset <= 7; offset += 1) {
    const day = (weekday + offset) % 7;
    const start = hours.marketStartTime[day] ?? 0;
    const close = hours.marketCloseTime[day] ?? 0;
    if (close <= start) continue;
    const startClockMs = dayStartMs + offset * secondsPerDay * 1000 + start * 1000;
    if (startClockMs <= clockMs) continue;
    // Back from the sessions' clock to real time: an hour earlier while DST is on.
    return startClockMs - (isUsDaylightSavingTime(startClockMs - hourMs) ? hourMs : 0);
  }
  return null;
}

/**
 * When the product's market status next changes after `utcMs` (early trading starts, the
 * session opens or closes), by its hours; null when it never changes (open all week, or no
 * session). The app asks the server again at that instant.
 */
export function nextStatusChangeAt(hours: TradingHours, utcMs: number): number | null {
  const current = marketStatusAt(hours, utcMs);
  const clockMs = utcMs + (isUsDaylightSavingTime(utcMs) ? hourMs : 0);
  const dayStartMs = clockMs - (clockMs % (secondsPerDay * 1000));
  const weekday = new Date(clockMs).getUTCDay();
  const candidates: number[] = [];
  // Eight days: a week's sessions and tomorrow's early trading, which may begin today.
  for (let offset = 0; offset <= 8; offset += 1) {
    const day = (weekday + offset) % 7;
    const start = hours.marketStartTime[day] ?? 0;
    const close = hours.marketCloseTime[day] ?? 0;
    if (close <= start) continue;
    const dayMs = dayStartMs + offset * secondsPerDay * 1000;
    for (const second of [start - earlyTradingSeconds, start, close]) {
      const candidateClockMs = dayMs + second * 1000;
      // Back from the sessions' clock to real time, as in nextOpeningAt.
      candidates.push(candidateClockMs - (isUsDaylightSavingTime(candidateClockMs - hourMs) ? hourMs : 0));
    }
  }
  // A boundary that does not change the status (midnight inside a multi-day session) is skipped.
  const changes = candidates.filter((at) => at > utcMs && marketStatusAt(hours, at) !== current).sort((a, b) => a - b);
  return changes[0] ?? null;
}
