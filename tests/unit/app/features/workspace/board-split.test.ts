import { describe, expect, it } from 'vitest';
import { chartShareAfterDrag, chartShareAfterKey, chartShareBounds, clampChartShare, measuredChartShare, storedChartShare } from '../../../../../src/app/features/workspace/board-split';

describe('the chart / order board split', () => {
  it('moves 5% per arrow key (Up gives the board more), Home and End to its ends, and ignores other keys', () => {
    expect(chartShareAfterKey(60, 'ArrowUp')).toBe(55);
    expect(chartShareAfterKey(60, 'ArrowDown')).toBe(65);
    expect(chartShareAfterKey(60, 'Home')).toBe(chartShareBounds.min);
    expect(chartShareAfterKey(60, 'End')).toBe(chartShareBounds.max);
    expect(chartShareAfterKey(60, 'ArrowLeft')).toBeNull();
    expect(chartShareAfterKey(60, 'Enter')).toBeNull();
  });

  it('keeps the chart between 30% and 85% of the column, however far it is pushed', () => {
    expect(chartShareAfterKey(32, 'ArrowUp')).toBe(30);
    expect(chartShareAfterKey(84, 'ArrowDown')).toBe(85);
    expect(clampChartShare(5)).toBe(30);
    expect(clampChartShare(99)).toBe(85);
    expect(clampChartShare(Number.NaN)).toBe(85);
  });

  it('follows a drag as a share of the column: 70 px up in a 700 px column is 10% more board', () => {
    expect(chartShareAfterDrag(64, -70, 700)).toBe(54);
    expect(chartShareAfterDrag(64, 35, 700)).toBe(69);
    expect(chartShareAfterDrag(64, -10_000, 700)).toBe(30);
    expect(chartShareAfterDrag(64, 50, 0)).toBe(64);
  });

  it('reads the share the layout shows from measured heights, and a stored share only if it is a number', () => {
    expect(measuredChartShare(448, 700)).toBe(64);
    expect(measuredChartShare(100, 0)).toBe(85);
    expect(storedChartShare(47)).toBe(47);
    expect(storedChartShare(10)).toBe(30);
    expect(storedChartShare('47')).toBeNull();
    expect(storedChartShare(undefined)).toBeNull();
  });
});
