import type { timeZones } from '../config/brand-config';

type TimeZoneSetting = (typeof timeZones)[number];

const formatters = new Map<string, Intl.DateTimeFormat>();

function partsOf(ms: number, timeZone: TimeZoneSetting): Record<string, string> {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      ...(timeZone === 'device' ? {} : { timeZone }),
      year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23',
    });
    formatters.set(timeZone, formatter);
  }
  const parts: Record<string, string> = {};
  for (const part of formatter.formatToParts(ms)) parts[part.type] = part.value;
  return parts;
}

let lastPriceTime = { second: Number.NaN, timeZone: '', text: '' };

/**
 * A quote's time as the specification writes it: MM-DD HH:mm:ss, in the brand's time
 * zone (also a records list's dates). Quote rows call this on every tick and most ticks share a second, so the last
 * answer is kept.
 */
export function formatPriceTime(ms: number, timeZone: TimeZoneSetting): string {
  const second = Math.floor(ms / 1000);
  if (second === lastPriceTime.second && timeZone === lastPriceTime.timeZone) return lastPriceTime.text;
  const p = partsOf(ms, timeZone);
  lastPriceTime = { second, timeZone, text: `${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}` };
  return lastPriceTime.text;
}

/** YYYY-MM-DD HH:mm:ss in the brand's time zone. */
export function formatDateTime(ms: number, timeZone: TimeZoneSetting): string {
  const p = partsOf(ms, timeZone);
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}
