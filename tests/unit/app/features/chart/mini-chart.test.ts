import { describe, expect, it } from 'vitest';
import { miniChartWindow, sparklinePoints } from '../../../../../src/app/features/chart/mini-chart';

describe('mini chart line', () => {
  it('scales closes into the box, highest at the top', () => {
    expect(sparklinePoints([1, 3, 2], 100, 10)).toBe('0.0,10.0 50.0,0.0 100.0,5.0');
  });
  it('draws a flat market in the middle and nothing without data', () => {
    expect(sparklinePoints([5, 5], 10, 10)).toBe('0.0,5.0 10.0,5.0');
    expect(sparklinePoints([], 10, 10)).toBe('');
  });

  it('asks for the last 30 whole minutes and the forming one, ending now', () => {
    const now = Date.parse('2026-01-12T10:30:15Z');
    expect(miniChartWindow(now)).toEqual({ fromMs: Date.parse('2026-01-12T10:00:00Z'), toMs: now });
    expect(miniChartWindow(Date.parse('2026-01-12T10:30:00Z')).fromMs).toBe(Date.parse('2026-01-12T10:00:00Z'));
  });
});
