import { useEffect, useMemo, useRef, useState, type CSSProperties, type ReactNode, type RefObject } from 'react';
import { columnsThatFit, gridColumnGapPx, gridMinWidthPx, gridRowPaddingPx, pinnedPlaces, type PinnedPlace, type PinSide } from './grid-layout';
import { useVirtualRows } from './virtual-list';

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

/** Row height in px; the virtualizer positions rows by it (cells hold one line, cut with an ellipsis and named in full by the row's label). */
/** A row's height before it is measured, and the least one is (`.virtual-grid-body .virtual-grid-row`). */
const gridRowHeight = 40;
/** The header and the body rows: the first body row is the table's row 2. */
const firstBodyRowIndex = 2;

function cellLook(numeric: boolean | undefined, place: PinnedPlace | undefined): { className: string | undefined; style: CSSProperties | undefined } {
  const classes = [numeric ? 'numeric' : '', place ? `pinned pinned-${place.side}` : '', place?.edge ? 'pinned-edge' : ''].filter(Boolean);
  const style = place ? (place.side === 'start' ? { left: place.offsetPx } : { right: place.offsetPx }) : undefined;
  return { className: classes.length > 0 ? classes.join(' ') : undefined, style };
}

/** The element's inner width or outer height, kept up to date as it resizes; null before the first layout. */
function useObservedPx(element: RefObject<HTMLElement | null>, measure: (target: HTMLElement) => number): number | null {
  const [size, setSize] = useState<number | null>(null);
  const measureRef = useRef(measure);
  useEffect(() => {
    const target = element.current;
    if (!target) return;
    const observer = new ResizeObserver(() => setSize(measureRef.current(target)));
    observer.observe(target);
    return () => observer.disconnect();
  }, [element]);
  return size;
}

/**
 * A table whose body is virtualized: only the rows in view are in the DOM, so a grid of
 * thousands of orders costs what a screenful does. Rows are focusable for the keyboard
 * (Enter or Space opens one, the arrow keys, Page Up/Down, Home and End move between them,
 * `virtual-list.tsx`), and carry their place in the whole table (`aria-rowindex` of
 * `aria-rowcount`); `onEndReached` lets a paged source load more as the end comes into view.
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
  const { items } = props;
  const head = useRef<HTMLDivElement>(null);
  const headHeightPx = useObservedPx(head, (target) => target.offsetHeight) ?? 0;
  const { scrollRef, rows, totalSizePx } = useVirtualRows({
    items,
    itemKey: props.rowKey,
    // Measured: a cell wraps rather than clip (a long product name, a void's refund, Japanese), and its row grows.
    sizing: { estimatePx: gridRowHeight },
    semantics: { kind: 'table', firstRowIndex: firstBodyRowIndex },
    overscan: 8,
    onEndReached: props.onEndReached,
    endThresholdRows: 2,
    scrollMarginPx: headHeightPx,
  });
  const widthPx = useObservedPx(scrollRef, (target) => target.clientWidth);
  const columns = useMemo(() => (widthPx === null ? props.columns : columnsThatFit(props.columns, widthPx)), [props.columns, widthPx]);
  const rowLayout: CSSProperties = { gridTemplateColumns: columns.map((column) => column.width).join(' '), columnGap: gridColumnGapPx, paddingInline: gridRowPaddingPx };
  const minWidth = gridMinWidthPx(columns);
  const looks = useMemo(() => {
    const places = pinnedPlaces(columns);
    return new Map(columns.map((column) => [column.key, cellLook(column.numeric, places.get(column.key))]));
  }, [columns]);

  return (
    <div className="virtual-grid" role="table" aria-label={props.label} aria-rowcount={items.length + 1}>
      <div ref={scrollRef} className="virtual-grid-scroller">
        <div className="virtual-grid-inner" style={{ minWidth }}>
          <div role="rowgroup" className="virtual-grid-head" ref={head}>
            <div role="row" className="virtual-grid-row" style={rowLayout} aria-rowindex={1}>
              {columns.map((column) => (
                // The title spells out a label its column's width cuts (German "Eröffnungskurs" at 1280 px).
                <span key={column.key} role="columnheader" title={column.labelHidden ? undefined : column.label} {...looks.get(column.key)}>
                  {column.labelHidden ? <span className="visually-hidden">{column.label}</span> : column.label}
                </span>
              ))}
            </div>
          </div>
          <div role="rowgroup" className="virtual-grid-body" style={{ height: totalSizePx }}>
            {rows.map(({ item, key, props: row }) => {
              return (
                <div
                  key={key}
                  role="row"
                  {...row}
                  aria-label={props.rowLabel(item)}
                  // Focusable even without a way to open it: the keyboard walks the rows and hears each one's label.
                  tabIndex={0}
                  className="virtual-grid-row"
                  style={{ ...row.style, ...rowLayout }}
                  onClick={props.onOpen ? () => props.onOpen?.(item) : undefined}
                  onKeyDown={(event) => {
                    row.onKeyDown(event);
                    // Keys on a control inside the row (its close button) are that control's.
                    if (event.defaultPrevented || !props.onOpen || event.target !== event.currentTarget) return;
                    if (event.key === 'Enter' || event.key === ' ') {
                      event.preventDefault();
                      props.onOpen(item);
                    }
                  }}
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
