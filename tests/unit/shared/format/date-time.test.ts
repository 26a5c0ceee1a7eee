import { describe, expect, it } from 'vitest';
import { formatDateTime, formatPriceTime } from '../../../../src/shared/format/date-time';

describe('time formats', () => {
  const at = Date.parse('2026-03-09T13:04:05.678Z');

  it('writes quote times as MM-DD HH:mm:ss in the brand time zone', () => {
    expect(formatPriceTime(at, 'Africa/Abidjan')).toBe('03-09 13:04:05');
    expect(formatPriceTime(at, 'Europe/London')).toBe('03-09 13:04:05');
    // New York is on daylight time from 8 March 2026.
    expect(formatPriceTime(at, 'America/New_York')).toBe('03-09 09:04:05');
    expect(formatPriceTime(at + 1000, 'Africa/Abidjan')).toBe('03-09 13:04:06');
  });

  it('writes full dates as YYYY-MM-DD HH:mm:ss, midnight as 00', () => {
    expect(formatDateTime(Date.parse('2026-01-02T00:00:09Z'), 'Africa/Abidjan')).toBe('2026-01-02 00:00:09');
  });
});
