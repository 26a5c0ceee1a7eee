import { decimalToUnits } from './decimal';

/**
 * Candlestick periods and how a bar is formed from ticks, shared by the server (which
 * stores bars) and the worker (which forms the live bar a tab watches), so both agree
 * on every boundary.
 */
export const klinePeriods = ['1min', '5min', '15min', '30min', '1h', '1d'] as const;
export type KlinePeriod = (typeof klinePeriods)[number];
export const defaultKlinePeriod: KlinePeriod = '1min';

export const periodMs: Record<KlinePeriod, number> = {
  '1min': 60_000,
  '5min': 300_000,
  '15min': 900_000,
  '30min': 1_800_000,
  '1h': 3_600_000,
  '1d': 86_400_000,
};

export function isKlinePeriod(value: string): value is KlinePeriod {
  return (klinePeriods as readonly string[]).includes(value);
}

/** Start of the bar holding an instant (UTC-aligned; daily bars start at 00:00 UTC). */
export function barStartMs(timeMs: number, period: KlinePeriod): number {
  return Math.floor(timeMs / periodMs[period]) * periodMs[period];
}

/**
 * A bar in numbers, for aggregation. Prices are fixed-point integers (price × 10^precision)
 * so that highs, lows and closes are exact; `toWireBar` turns them into decimal strings.
 */
export interface Bar {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  turnover: number;
}

/** Folds a tick into the bar of its period: a new bar when the tick opens the next one. */
export function foldTick(bar: Bar | null, period: KlinePeriod, timeMs: number, price: number, volume: number): Bar {
  const time = barStartMs(timeMs, period);
  if (!bar || time > bar.time) {
    return { time, open: price, high: price, low: price, close: price, volume, turnover: volume * price };
  }
  if (time < bar.time) return bar; // a late tick of a finished bar changes nothing
  bar.high = Math.max(bar.high, price);
  bar.low = Math.min(bar.low, price);
  bar.close = price;
  bar.volume += volume;
  bar.turnover += volume * price;
  return bar;
}

export interface WireBar {
  time: number;
  openPrice: string;
  highestPrice: string;
  lowestPrice: string;
  closePrice: string;
  volume: string;
  turnover: string;
}

/** Formats a fixed-point integer with `precision` decimals, exactly. */
export function formatFixed(units: number, precision: number): string {
  const negative = units < 0;
  const digits = Math.abs(Math.round(units)).toString().padStart(precision + 1, '0');
  const whole = precision === 0 ? digits : digits.slice(0, -precision);
  const fraction = precision === 0 ? '' : `.${digits.slice(-precision)}`;
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

export function toWireBar(bar: Bar, precision: number): WireBar {
  return {
    time: bar.time,
    openPrice: formatFixed(bar.open, precision),
    highestPrice: formatFixed(bar.high, precision),
    lowestPrice: formatFixed(bar.low, precision),
    closePrice: formatFixed(bar.close, precision),
    volume: formatFixed(bar.volume, 0),
    turnover: formatFixed(bar.turnover / 10 ** precision, 0),
  };
}

/** The inverse of `toWireBar`: a bar from its wire form, in units of `precision` decimals. */
export function fromWireBar(wire: WireBar, precision: number): Bar {
  const units = (value: string) => decimalToUnits(value, precision) ?? 0;
  return {
    time: wire.time,
    open: units(wire.openPrice),
    high: units(wire.highestPrice),
    low: units(wire.lowestPrice),
    close: units(wire.closePrice),
    volume: decimalToUnits(wire.volume, 0) ?? 0,
    turnover: units(wire.turnover),
  };
}
