import { describe, expect, it } from 'vitest';
import { barStartMs, foldTick, formatFixed, toWireBar, type Bar } from '../../../../src/shared/market/kline';

describe('kline bars', () => {
  it('aligns bars to their period in UTC', () => {
    const instant = Date.parse('2026-01-12T14:37:42.500Z');
    expect(new Date(barStartMs(instant, '1min')).toISOString()).toBe('2026-01-12T14:37:00.000Z');
    expect(new Date(barStartMs(instant, '5min')).toISOString()).toBe('2026-01-12T14:35:00.000Z');
    expect(new Date(barStartMs(instant, '15min')).toISOString()).toBe('2026-01-12T14:30:00.000Z');
    expect(new Date(barStartMs(instant, '30min')).toISOString()).toBe('2026-01-12T14:30:00.000Z');
    expect(new Date(barStartMs(instant, '1h')).toISOString()).toBe('2026-01-12T14:00:00.000Z');
    expect(new Date(barStartMs(instant, '1d')).toISOString()).toBe('2026-01-12T00:00:00.000Z');
  });

  it('folds ticks into open, high, low, close and volume, and starts a new bar at the boundary', () => {
    const t0 = Date.parse('2026-01-12T14:37:00Z');
    let bar: Bar | null = null;
    for (const [offset, price, volume] of [[1000, 10850, 2], [5000, 10870, 1], [20000, 10830, 3], [59999, 10840, 1]] as const) {
      bar = foldTick(bar, '1min', t0 + offset, price, volume);
    }
    expect(bar).toEqual({ time: t0, open: 10850, high: 10870, low: 10830, close: 10840, volume: 7, turnover: 2 * 10850 + 10870 + 3 * 10830 + 10840 });
    const next = foldTick(bar, '1min', t0 + 60_000, 10845, 1);
    expect(next).toMatchObject({ time: t0 + 60_000, open: 10845, high: 10845, low: 10845, close: 10845, volume: 1 });
    // A late tick for a finished bar does not reopen it.
    expect(foldTick(next, '1min', t0 + 30_000, 1, 1)).toBe(next);
  });

  it('writes exact decimal strings', () => {
    expect(formatFixed(108405, 2)).toBe('1084.05');
    expect(formatFixed(5, 3)).toBe('0.005');
    expect(formatFixed(-1205, 2)).toBe('-12.05');
    expect(formatFixed(42, 0)).toBe('42');
    expect(toWireBar({ time: 1, open: 110001, high: 110250, low: 109990, close: 110100, volume: 3, turnover: 330300 }, 5)).toEqual({
      time: 1,
      openPrice: '1.10001',
      highestPrice: '1.10250',
      lowestPrice: '1.09990',
      closePrice: '1.10100',
      volume: '3',
      turnover: '3',
    });
  });
});
