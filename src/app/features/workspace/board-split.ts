/**
 * The desktop workspace's split between the chart (above) and the order board (below), as
 * the chart's share of the column's height in percent: the value of the separator between
 * them (a window splitter whose primary pane is the chart). Unset, the board takes the
 * height of its rows up to 36% (the CSS); once the trader moves the separator, the share is
 * theirs and is remembered.
 */
export const chartShareBounds = { min: 30, max: 85 } as const;
/** One arrow key press moves the separator by this many percent of the column. */
export const chartShareStep = 5;

export function clampChartShare(percent: number): number {
  if (!Number.isFinite(percent)) return chartShareBounds.max;
  return Math.min(chartShareBounds.max, Math.max(chartShareBounds.min, Math.round(percent)));
}

/** A stored share, if it is one (preferences are read back from storage as they were written). */
export function storedChartShare(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? clampChartShare(value) : null;
}

/** The share after a key on the separator (Up and Down move it, Home and End to its ends); null for any other key. */
export function chartShareAfterKey(current: number, key: string): number | null {
  switch (key) {
    case 'ArrowUp':
      return clampChartShare(current - chartShareStep);
    case 'ArrowDown':
      return clampChartShare(current + chartShareStep);
    case 'Home':
      return chartShareBounds.min;
    case 'End':
      return chartShareBounds.max;
    default:
      return null;
  }
}

/** The share while dragging: where it started plus the pointer's move as a share of the column's height. */
export function chartShareAfterDrag(startShare: number, movedPx: number, columnPx: number): number {
  if (columnPx <= 0) return clampChartShare(startShare);
  return clampChartShare(startShare + (movedPx / columnPx) * 100);
}

/** The share the layout shows now, from the chart's and the column's measured heights (the separator's value before any move). */
export function measuredChartShare(chartPx: number, columnPx: number): number {
  return columnPx <= 0 ? chartShareBounds.max : clampChartShare((chartPx / columnPx) * 100);
}
