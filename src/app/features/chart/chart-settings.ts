import { signal } from '@preact/signals-react';
import {
  candleTypes,
  defaultChartPeriod,
  defaultIndicators,
  indicatorsPerKindMax,
  mainIndicators,
  subIndicators,
  toggleIndicator,
  type CandleType,
  type ChartIndicators,
  type IndicatorKind,
  type IndicatorToggle,
} from '../../../shared/market/chart-rules';
import { klinePeriods, type KlinePeriod } from '../../../shared/market/kline';
import { preferences, savePreferences } from '../../preferences/preferences';

export interface ChartSettings {
  period: KlinePeriod;
  candleType: CandleType;
  indicators: ChartIndicators;
}

function pick<T extends string>(allowed: readonly T[], value: unknown, fallback: T): T {
  return typeof value === 'string' && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
}

function pickIndicators(allowed: readonly string[], value: unknown, fallback: readonly string[]): string[] {
  if (!Array.isArray(value)) return [...fallback];
  return [...new Set(value.filter((name): name is string => typeof name === 'string' && allowed.includes(name)))].slice(0, indicatorsPerKindMax);
}

/** The stored choice, each field checked (an old or edited store cannot break the chart). */
export function readChartSettings(): ChartSettings {
  const stored = preferences().chart ?? {};
  return {
    period: pick(klinePeriods, stored.period, defaultChartPeriod),
    candleType: pick(candleTypes, stored.candleType, 'candle_solid'),
    indicators: {
      main: pickIndicators(mainIndicators, stored.indicators?.main, defaultIndicators.main),
      sub: pickIndicators(subIndicators, stored.indicators?.sub, defaultIndicators.sub),
    },
  };
}

/** Period, candle type and indicators, shared by the chart page and the desktop top bar. */
export const chartSettingsSignal = signal<ChartSettings>(
  { period: defaultChartPeriod, candleType: 'candle_solid', indicators: defaultIndicators },
  { name: 'chartSettings' },
);

/** Called once preferences are loaded. */
export function restoreChartSettings() {
  chartSettingsSignal.value = readChartSettings();
}

export function updateChartSettings(change: Partial<ChartSettings>) {
  const next = { ...chartSettingsSignal.peek(), ...change };
  chartSettingsSignal.value = next;
  void savePreferences({ chart: { period: next.period, candleType: next.candleType, indicators: { main: [...next.indicators.main], sub: [...next.indicators.sub] } } });
}

/** Turns an indicator on or off; a fourth of a kind is refused and nothing changes. */
export function toggleChartIndicator(kind: IndicatorKind, name: string): IndicatorToggle {
  const result = toggleIndicator(chartSettingsSignal.peek().indicators, kind, name);
  if (result.ok) updateChartSettings({ indicators: result.indicators });
  return result;
}

