import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState, type CSSProperties, type ReactNode, type RefObject } from 'react';
import { columnsThatFit, gridColumnGapPx, gridMinWidthPx, gridRowPaddingPx, pinnedPlaces, type PinnedPlace, type PinSide } from './grid-layout';

export interface GridColumn<Item> {
  key: string;
  label: string;
  /** CSS grid track, e.g. `minmax(90px, 1fr)`; a fixed `96px` for a pinned column with another outside it. */
  width: string;
  cell: (item: Item) => ReactNode;
  numeric?: boolean;
  /** Stays in view while the columns between scroll sideways (see `grid-layout.ts`). */
  pin?: PinSide;
  /** A lesser column: hides when the panel is too narrow, lowest priority first (the details drawer still shows it). */
  hidePriority?: number;
  /** The header names the column for screen readers only (a column of row buttons speaks for itself). */
  labelHidden?: boolean;
}

/** Row height in px; the virtualizer positions rows by it. */
const gridRowHeight = 40;

function cellLook(numeric: boolean | undefined, place: PinnedPlace | undefined): { className: string | undefined; style: CSSProperties | undefined } {
  const classes = [numeric ? 'numeric' : '', place ? `pinned pinned-${place.side}` : '', place?.edge ? 'pinned-edge' : ''].filter(Boolean);
  const style = place ? (place.side === 'start' ? { left: place.offsetPx } : { right: place.offsetPx }) : undefined;
  return { className: classes.length > 0 ? classes.join(' ') : undefined, style };
}

/** The element's inner width, kept up to date as its panel resizes; null before the first layout. */
function useClientWidthPx(element: RefObject<HTMLElement | null>): number | null {
  const [width, setWidth] = useState<number | null>(null);
  useEffect(() => {
    const target = element.current;
    if (!target) return;
    const observer = new ResizeObserver(() => setWidth(target.clientWidth));
    observer.observe(target);
    return () => observer.disconnect();
  }, [element]);
  return width;
}

/**
 * A table whose body is virtualized: only the rows in view are in the DOM, so a grid of
 * thousands of orders costs what a screenful does. Rows are buttons-in-rows for the
 * keyboard; `onEndReached` lets a paged source load more as the end comes into view.
 * In a narrow panel lesser columns give way; what still does not fit scrolls sideways in
 * the one scroll area of header and rows while pinned columns (the symbol; profit and loss
 * and the close button) stay put, and the header stays on top.
 */
export function VirtualGrid<Item>(props: {
  label: string;
  columns: readonly GridColumn<Item>[];
  items: readonly Item[];
  rowKey: (item: Item) => string;
  rowLabel: (item: Item) => string;
  onOpen?: (item: Item) => void;
  onEndReached?: () => void;
  footer?: ReactNode;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const { items, onEndReached } = props;
  const widthPx = useClientWidthPx(scroller);
  const columns = useMemo(() => (widthPx === null ? props.columns : columnsThatFit(props.columns, widthPx)), [props.columns, widthPx]);
  // The component is not memoized, so the virtualizer's unstable functions are fine here.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => gridRowHeight,
    overscan: 8,
  });
  const rowLayout: CSSProperties = { gridTemplateColumns: columns.map((column) => column.width).join(' '), columnGap: gridColumnGapPx, paddingInline: gridRowPaddingPx };
  const minWidth = gridMinWidthPx(columns);
  const looks = useMemo(() => {
    const places = pinnedPlaces(columns);
    return new Map(columns.map((column) => [column.key, cellLook(column.numeric, places.get(column.key))]));
  }, [columns]);
  const virtualRows = virtualizer.getVirtualItems();
  const lastIndex = virtualRows.length > 0 ? virtualRows[virtualRows.length - 1]!.index : -1;
  useEffect(() => {
    if (onEndReached && (items.length === 0 || lastIndex >= items.length - 3)) onEndReached();
  }, [lastIndex, items.length, onEndReached]);

  return (
    <div className="virtual-grid" role="table" aria-label={props.label} aria-rowcount={items.length + 1}>
      <div ref={scroller} className="virtual-grid-scroller">
        <div className="virtual-grid-inner" style={{ minWidth }}>
          <div role="rowgroup" className="virtual-grid-head">
            <div role="row" className="virtual-grid-row" style={rowLayout} aria-rowindex={1}>
              {columns.map((column) => (
                // The title spells out a label its column's width cuts (German "Eröffnungskurs" at 1280 px).
                <span key={column.key} role="columnheader" title={column.labelHidden ? undefined : column.label} {...looks.get(column.key)}>
                  {column.labelHidden ? <span className="visually-hidden">{column.label}</span> : column.label}
                </span>
              ))}
            </div>
          </div>
          <div role="rowgroup" className="virtual-grid-body" style={{ height: virtualizer.getTotalSize() }}>
            {virtualRows.map((virtualRow) => {
              const item = items[virtualRow.index]!;
              return (
                <div
                  key={props.rowKey(item)}
                  role="row"
                  aria-rowindex={virtualRow.index + 2}
                  aria-label={props.rowLabel(item)}
                  tabIndex={props.onOpen ? 0 : undefined}
                  className="virtual-grid-row"
                  style={{ ...rowLayout, height: gridRowHeight, transform: `translateY(${virtualRow.start}px)` }}
                  onClick={props.onOpen ? () => props.onOpen?.(item) : undefined}
                  onKeyDown={
                    props.onOpen
                      ? (event) => {
                          // Keys on a control inside the row (its close button) are that control's.
                          if (event.target !== event.currentTarget) return;
                          if (event.key === 'Enter' || event.key === ' ') {
                            event.preventDefault();
                            props.onOpen?.(item);
                          }
                        }
                      : undefined
                  }
                >
                  {columns.map((column) => (
                    <span key={column.key} role="cell" {...looks.get(column.key)}>
                      {column.cell(item)}
                    </span>
                  ))}
                </div>
              );
            })}
          </div>
          {props.footer}
        </div>
      </div>
    </div>
  );
}
