import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, type ReactNode } from 'react';

export interface GridColumn<Item> {
  key: string;
  label: string;
  /** CSS grid track, e.g. `minmax(90px, 1fr)`. */
  width: string;
  cell: (item: Item) => ReactNode;
  numeric?: boolean;
}

/** Row height in px; the virtualizer positions rows by it. */
const gridRowHeight = 40;

/**
 * A table whose body is virtualized: only the rows in view are in the DOM, so a grid of
 * thousands of orders costs what a screenful does. Rows are buttons-in-rows for the
 * keyboard; `onEndReached` lets a paged source load more as the end comes into view.
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
  // The component is not memoized, so the virtualizer's unstable functions are fine here.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => gridRowHeight,
    overscan: 8,
  });
  const template = props.columns.map((column) => column.width).join(' ');
  // Narrow panels scroll sideways instead of squeezing columns below their minimum.
  const minWidth = props.columns.reduce((sum, column) => sum + Number(/(\d+)px/.exec(column.width)?.[1] ?? 0), 0) + 8 * props.columns.length + 8;
  const virtualRows = virtualizer.getVirtualItems();
  const lastIndex = virtualRows.length > 0 ? virtualRows[virtualRows.length - 1]!.index : -1;
  useEffect(() => {
    if (onEndReached && (items.length === 0 || lastIndex >= items.length - 3)) onEndReached();
  }, [lastIndex, items.length, onEndReached]);

  return (
    <div className="virtual-grid" role="table" aria-label={props.label} aria-rowcount={items.length + 1}>
      <div className="virtual-grid-inner" style={{ minWidth }}>
        <div role="rowgroup" className="virtual-grid-head">
          <div role="row" className="virtual-grid-row" style={{ gridTemplateColumns: template }} aria-rowindex={1}>
            {props.columns.map((column) => (
              <span key={column.key} role="columnheader" className={column.numeric ? 'numeric' : undefined}>
                {column.label}
              </span>
            ))}
          </div>
        </div>
        <div ref={scroller} role="rowgroup" className="virtual-grid-body">
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
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
                  style={{ gridTemplateColumns: template, height: gridRowHeight, transform: `translateY(${virtualRow.start}px)` }}
                  onClick={props.onOpen ? () => props.onOpen?.(item) : undefined}
                  onKeyDown={
                    props.onOpen
                      ? (event) => {
                          if (event.key === 'Enter' || event.key === ' ') {
                            event.preventDefault();
                            props.onOpen?.(item);
                          }
                        }
                      : undefined
                  }
                >
                  {props.columns.map((column) => (
                    <span key={column.key} role="cell" className={column.numeric ? 'numeric' : undefined}>
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
