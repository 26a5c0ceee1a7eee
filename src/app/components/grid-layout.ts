/**
 * How the virtualized grid fits a panel, as trading terminals do it: the columns that
 * name a row (the symbol) stay at the start and the ones a trader acts on (profit and
 * loss, close) at the end; lesser columns give way by priority as the panel narrows, and
 * what still does not fit scrolls sideways between the pinned ones. Pinned cells are CSS
 * `position: sticky`; this module says which columns show and where each pinned one sticks.
 */

export type PinSide = 'start' | 'end';

/** Space between two cells of a row and at each end of it, in px; the grid's rows are laid out with them. */
export const gridColumnGapPx = 8;
export const gridRowPaddingPx = 8;

export interface PinnableColumn {
  key: string;
  /** CSS grid track: `96px` or `minmax(90px, 1fr)`. */
  width: string;
  pin?: PinSide;
  /** Lesser columns hide when the panel is too narrow, lowest first; columns without one always show. */
  hidePriority?: number;
}

export interface PinnedPlace {
  side: PinSide;
  /** Distance from its side of the scroll area: the pinned columns outside it, with their gaps. */
  offsetPx: number;
  /** The innermost pinned column of its side, which draws the divider to the scrolling ones. */
  edge: boolean;
}

/** A track's fixed width in px (`96px`), or null when it stretches. */
export function fixedTrackPx(track: string): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)px\s*$/.exec(track);
  return match ? Number(match[1]) : null;
}

/** The least width a track takes: its fixed width or the minimum of its `minmax()`; 0 when it has none. */
export function trackMinPx(track: string): number {
  const fixed = fixedTrackPx(track);
  if (fixed !== null) return fixed;
  const minimum = /^\s*minmax\(\s*(\d+(?:\.\d+)?)px\s*,/.exec(track);
  return minimum ? Number(minimum[1]) : 0;
}

/** The width under which the grid scrolls sideways rather than squeezing columns below their minimum. */
export function gridMinWidthPx(columns: readonly PinnableColumn[]): number {
  const gaps = Math.max(columns.length - 1, 0) * gridColumnGapPx;
  return columns.reduce((sum, column) => sum + trackMinPx(column.width), gaps + 2 * gridRowPaddingPx);
}

/**
 * The columns that show in a panel `widthPx` wide: lesser columns (by `hidePriority`,
 * lowest first) leave until the rest fit at their minimum widths or none is left to go.
 * The order of the columns is kept.
 */
export function columnsThatFit<Column extends PinnableColumn>(columns: readonly Column[], widthPx: number): Column[] {
  const hideOrder = columns.filter((column) => column.hidePriority !== undefined).sort((a, b) => a.hidePriority! - b.hidePriority!);
  const hidden = new Set<string>();
  let width = gridMinWidthPx(columns);
  for (const column of hideOrder) {
    if (width <= widthPx) break;
    hidden.add(column.key);
    width -= trackMinPx(column.width) + gridColumnGapPx;
  }
  return columns.filter((column) => !hidden.has(column.key));
}

/**
 * Where each pinned column sticks. Start-pinned columns must lead and end-pinned ones
 * close the list; a pinned column with another pinned column outside it needs that one
 * to have a fixed width, since a sticky offset cannot follow a stretching track. A
 * breach is a programming error, so it throws.
 */
export function pinnedPlaces(columns: readonly PinnableColumn[]): Map<string, PinnedPlace> {
  const places = new Map<string, PinnedPlace>();
  const leading = columns.findIndex((column) => column.pin !== 'start');
  const startCount = leading === -1 ? columns.length : leading;
  let endCount = 0;
  while (endCount < columns.length - startCount && columns[columns.length - 1 - endCount]!.pin === 'end') endCount += 1;
  columns.forEach((column, index) => {
    const inStart = index < startCount;
    const inEnd = index >= columns.length - endCount;
    if (column.pin === 'start' && !inStart) throw new Error(`Grid column ${column.key} is pinned to the start but does not lead`);
    if (column.pin === 'end' && !inEnd) throw new Error(`Grid column ${column.key} is pinned to the end but does not close the row`);
  });
  const outsideWidth = (outside: readonly PinnableColumn[], pinned: PinnableColumn) =>
    outside.reduce((sum, column) => {
      const fixed = fixedTrackPx(column.width);
      if (fixed === null) throw new Error(`Grid column ${column.key} needs a fixed width: ${pinned.key} is pinned inside it`);
      return sum + fixed + gridColumnGapPx;
    }, 0);
  for (let index = 0; index < startCount; index += 1) {
    const column = columns[index]!;
    places.set(column.key, { side: 'start', offsetPx: outsideWidth(columns.slice(0, index), column), edge: index === startCount - 1 });
  }
  for (let index = columns.length - endCount; index < columns.length; index += 1) {
    const column = columns[index]!;
    places.set(column.key, { side: 'end', offsetPx: outsideWidth(columns.slice(index + 1), column), edge: index === columns.length - endCount });
  }
  return places;
}
