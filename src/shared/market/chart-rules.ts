import { ProductType } from './product-types';
import { klinePeriods, type KlinePeriod } from './kline';
import type { MarketStatus } from './market-hours';

/** The chart's options as the specification lists them. */
export const chartPeriods: readonly KlinePeriod[] = klinePeriods;
export const defaultChartPeriod: KlinePeriod = '1min';
export const candleTypes = ['candle_solid', 'candle_stroke', 'candle_up_stroke', 'candle_down_stroke', 'ohlc', 'area'] as const;
export type CandleType = (typeof candleTypes)[number];
export const mainIndicators = ['MA', 'EMA', 'SMA', 'BOLL', 'BBI', 'SAR'] as const;
export const subIndicators = ['MA', 'EMA', 'VOL', 'MACD', 'BOLL', 'KDJ', 'RSI'] as const;
/** At most this many main and this many sub indicators at once. */
export const indicatorsPerKindMax = 3;
export const zoomInScale = 1.1;
export const zoomOutScale = 0.9;
/** Pixels the chart moves per shift-left or shift-right press. */
export const shiftDistancePx = 100;

export type IndicatorKind = 'main' | 'sub';

export interface ChartIndicators {
  main: readonly string[];
  sub: readonly string[];
}

export const defaultIndicators: ChartIndicators = { main: ['MA'], sub: ['VOL'] };

export type IndicatorToggle =
  | { ok: true; indicators: ChartIndicators; added: boolean }
  | { ok: false; reason: 'limit' | 'unknown' };

/** Adds an indicator that is off or removes one that is on; a fourth of a kind is refused. */
export function toggleIndicator(current: ChartIndicators, kind: IndicatorKind, name: string): IndicatorToggle {
  const allowed: readonly string[] = kind === 'main' ? mainIndicators : subIndicators;
  if (!allowed.includes(name)) return { ok: false, reason: 'unknown' };
  const list = current[kind];
  if (list.includes(name)) {
    return { ok: true, added: false, indicators: { ...current, [kind]: list.filter((item) => item !== name) } };
  }
  if (list.length >= indicatorsPerKindMax) return { ok: false, reason: 'limit' };
  return { ok: true, added: true, indicators: { ...current, [kind]: [...list, name] } };
}

/** Live bars only while the market trades; closed or early trading shows history only. */
export function chartIsLive(status: MarketStatus): boolean {
  return status === 'open';
}

/** Volume is not shown for commodities and indices. */
export function showsVolume(productType: number): boolean {
  return productType !== ProductType.commodities && productType !== ProductType.indices;
}

/** The screenshot's format and encoder quality (the specification: jpeg, quality 1, i.e. the best). */
export const screenshotFormat = { mimeType: 'image/jpeg', quality: 1 } as const;

/** The screenshot's file name: symbol, period and a timestamp, JPEG. */
export function screenshotFileName(symbol: string, period: KlinePeriod, atMs: number): string {
  const stamp = new Date(atMs).toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${symbol}-${period}-${stamp}.jpeg`;
}
