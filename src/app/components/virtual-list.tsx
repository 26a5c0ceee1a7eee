import { defaultRangeExtractor, useVirtualizer, type Range, type Virtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState, type CSSProperties, type FocusEvent, type KeyboardEvent, type ReactNode, type RefObject } from 'react';

/**
 * The app's one virtualizer setup, shared by every list and grid that can grow (quotes,
 * positions, histories, records, notices): only the rows in view and a few beyond exist,
 * while screen readers still hear the full size and the keyboard still walks every row.
 */

/** Rows of one height per layout (positioned by it), or of measured height (an estimate until each is measured). */
export type RowSizing = { fixedPx: number } | { estimatePx: number };

/**
 * How rows tell their place: list items carry `aria-setsize`/`aria-posinset`; table rows
 * `aria-rowindex` counted from `firstRowIndex` (the header row is 1).
 */
export type RowSemantics = { kind: 'list' } | { kind: 'table'; firstRowIndex: number };

/** What a rendered row spreads on its element: place, size, screen-reader position and keyboard. */
export interface VirtualRowProps {
  'data-index': number;
  ref?: (element: HTMLElement | null) => void;
  style: CSSProperties;
  'aria-setsize'?: number;
  'aria-posinset'?: number;
  'aria-rowindex'?: number;
  onKeyDown: (event: KeyboardEvent<HTMLElement>) => void;
  onFocus: (event: FocusEvent<HTMLElement>) => void;
  onBlur: (event: FocusEvent<HTMLElement>) => void;
}

export interface VirtualRow<Item> {
  item: Item;
  index: number;
  key: string;
  props: VirtualRowProps;
}

export interface VirtualRowsOptions<Item> {
  items: readonly Item[];
  itemKey: (item: Item) => string;
  sizing: RowSizing;
  semantics: RowSemantics;
  /** Rows rendered beyond the screen on each side. */
  overscan?: number;
  /** Asked for when the last row (less `endThresholdRows`) comes into view, or the list is empty: the next page of a paged list. */
  onEndReached?: () => void;
  endThresholdRows?: number;
  /** A value whose change asks again whether the end is in view (a load's status: a short page may leave it there). */
  endCheckKey?: unknown;
  /** Space above the rows inside the scroller (a sticky header), in px: the rows start below it and keyboard moves keep them clear of it. */
  scrollMarginPx?: number;
  /**
   * absolute (the default): each row is placed at its offset in a box of the full height.
   * flow: rows stay in the document's flow between two spacers (`spaceBeforePx`,
   * `spaceAfterPx`), as a `<table>` needs to keep its columns.
   */
  placement?: 'absolute' | 'flow';
}

/** The control of a row that takes focus: the row itself when it is focusable, else its first button or link. */
function focusTargetOf(row: Element): HTMLElement | null {
  if (row instanceof HTMLElement && row.tabIndex >= 0 && row.hasAttribute('tabindex')) return row;
  return row.querySelector<HTMLElement>('button, a[href], [tabindex="0"]');
}

/** How many rows a key moves the focus by, or where to: the first or the last. */
function keyMove(key: string, pageRows: number): number | 'first' | 'last' | null {
  switch (key) {
    case 'ArrowDown':
      return 1;
    case 'ArrowUp':
      return -1;
    case 'PageDown':
      return pageRows;
    case 'PageUp':
      return -pageRows;
    case 'Home':
      return 'first';
    case 'End':
      return 'last';
    default:
      return null;
  }
}

/**
 * The virtualizer with what every list needs around it. Arrow keys, Page Up/Down, Home and
 * End move the focus from row to row, scrolling the next one into view (it is rendered
 * first if it was not); the focused row stays rendered while it is scrolled away, so focus
 * is never dropped to the page. Tab still goes through the rendered rows in order.
 */
export function useVirtualRows<Item>(options: VirtualRowsOptions<Item>): {
  scrollRef: RefObject<HTMLDivElement | null>;
  virtualizer: Virtualizer<HTMLDivElement, HTMLElement>;
  rows: VirtualRow<Item>[];
  totalSizePx: number;
  spaceBeforePx: number;
  spaceAfterPx: number;
} {
  const { items, itemKey, sizing, semantics, onEndReached } = options;
  const scrollRef = useRef<HTMLDivElement>(null);
  const focusedIndex = useRef<number | null>(null);
  const pendingFocus = useRef<number | null>(null);
  // Bumped when the keyboard asks for a row that is not rendered: the next render includes it.
  const [, setFocusRequests] = useState(0);
  const scrollMargin = options.scrollMarginPx ?? 0;
  const fixedPx = 'fixedPx' in sizing ? sizing.fixedPx : null;
  const flow = options.placement === 'flow';
  // The app does not use the React Compiler, so the unmemoizable API is fine here.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer<HTMLDivElement, HTMLElement>({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ('fixedPx' in sizing ? sizing.fixedPx : sizing.estimatePx),
    overscan: options.overscan ?? 4,
    scrollMargin,
    scrollPaddingStart: scrollMargin,
    getItemKey: (index) => {
      const item = items[index];
      return item === undefined ? index : itemKey(item);
    },
    // The focused row (and one asked for by the keyboard) is kept among the rendered ones; rows
    // in flow cannot be apart from the window, so there only the window is rendered.
    rangeExtractor: (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      if (flow) return indexes;
      for (const kept of [focusedIndex.current, pendingFocus.current]) {
        if (kept !== null && kept < range.count && !indexes.includes(kept)) indexes.push(kept);
      }
      return indexes.sort((a, b) => a - b);
    },
  });

  const virtualItems = virtualizer.getVirtualItems();
  const lastInView = virtualizer.range?.endIndex ?? -1;
  const threshold = options.endThresholdRows ?? 0;
  const { endCheckKey } = options;
  useEffect(() => {
    // An empty list's end is in view too: a paged list whose filter changed asks for its first page.
    if (onEndReached && (items.length === 0 || lastInView >= items.length - 1 - threshold)) onEndReached();
  }, [lastInView, items.length, threshold, onEndReached, endCheckKey]);

  // A row the keyboard moved to gets the focus once it is rendered.
  useLayoutEffect(() => {
    const wanted = pendingFocus.current;
    const scroller = scrollRef.current;
    if (wanted === null || !scroller) return;
    const row = scroller.querySelector(`[data-index="${wanted}"]`);
    const target = row ? focusTargetOf(row) : null;
    if (!target) return;
    pendingFocus.current = null;
    target.focus({ preventScroll: true });
  });

  function moveFocus(from: number, move: number | 'first' | 'last') {
    const last = items.length - 1;
    if (last < 0) return;
    const to = move === 'first' ? 0 : move === 'last' ? last : Math.min(Math.max(from + move, 0), last);
    pendingFocus.current = to;
    virtualizer.scrollToIndex(to, { align: 'auto' });
    // Rendered already: focus now; otherwise the scroll renders it and the layout effect focuses it.
    const row = scrollRef.current?.querySelector(`[data-index="${to}"]`);
    const target = row ? focusTargetOf(row) : null;
    if (target) {
      pendingFocus.current = null;
      target.focus({ preventScroll: true });
    } else {
      setFocusRequests((count) => count + 1);
    }
  }

  /** Rows a screenful holds, less one, for Page Up and Page Down. */
  function pageRows(): number {
    const rowPx = 'fixedPx' in sizing ? sizing.fixedPx : sizing.estimatePx;
    return Math.max(1, Math.floor(((scrollRef.current?.clientHeight ?? rowPx) - scrollMargin) / rowPx) - 1);
  }

  const rows: VirtualRow<Item>[] = [];
  for (const virtualItem of virtualItems) {
    const item = items[virtualItem.index];
    if (item === undefined) continue;
    const index = virtualItem.index;
    const place: Pick<VirtualRowProps, 'aria-setsize' | 'aria-posinset' | 'aria-rowindex'> =
      semantics.kind === 'list' ? { 'aria-setsize': items.length, 'aria-posinset': index + 1 } : { 'aria-rowindex': index + semantics.firstRowIndex };
    rows.push({
      item,
      index,
      key: String(virtualItem.key),
      props: {
        'data-index': index,
        ...(fixedPx === null ? { ref: virtualizer.measureElement } : {}),
        style: flow
          ? fixedPx === null
            ? {}
            : { height: fixedPx }
          : {
              position: 'absolute',
              top: 0,
              left: 0,
              right: 0,
              ...(fixedPx === null ? {} : { height: fixedPx }),
              transform: `translateY(${virtualItem.start - scrollMargin}px)`,
            },
        ...place,
        onKeyDown: (event) => {
          // Only the row's own control moves between rows; keys inside another control (a row's close button) are that control's.
          const target = focusTargetOf(event.currentTarget);
          if (event.target !== target) return;
          const move = keyMove(event.key, pageRows());
          if (move === null || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
          event.preventDefault();
          moveFocus(index, move);
        },
        onFocus: () => {
          focusedIndex.current = index;
        },
        onBlur: (event) => {
          // Focus moving to another control of the same row keeps the row.
          if (event.relatedTarget instanceof Node && event.currentTarget.contains(event.relatedTarget)) return;
          if (focusedIndex.current === index) focusedIndex.current = null;
        },
      },
    });
  }
  const totalSizePx = virtualizer.getTotalSize();
  const first = virtualItems[0];
  const last = virtualItems.at(-1);
  const spaceBeforePx = first ? first.start - scrollMargin : 0;
  const spaceAfterPx = last ? Math.max(totalSizePx - (last.end - scrollMargin), 0) : 0;
  return { scrollRef, virtualizer, rows, totalSizePx, spaceBeforePx, spaceAfterPx };
}

/**
 * A virtualized `<ul>` in its own scroller: the scroller fills what its parent gives it
 * (a `fill` page), rows are `<li>`s placed by the virtualizer that `renderRow` draws (its
 * element takes `row.props`), and `footer` (loading, the end, a retry) follows the rows
 * inside the scroller.
 */
export function VirtualList<Item>(props: {
  label: string;
  items: readonly Item[];
  itemKey: (item: Item) => string;
  sizing: RowSizing;
  renderRow: (row: VirtualRow<Item>) => ReactNode;
  scrollerClassName: string;
  listClassName: string;
  overscan?: number;
  onEndReached?: () => void;
  endCheckKey?: unknown;
  footer?: ReactNode;
  testId?: string;
}) {
  const { scrollRef, rows, totalSizePx } = useVirtualRows({
    items: props.items,
    itemKey: props.itemKey,
    sizing: props.sizing,
    semantics: { kind: 'list' },
    overscan: props.overscan,
    onEndReached: props.onEndReached,
    endCheckKey: props.endCheckKey,
  });
  return (
    <div className={`virtual-list-scroller ${props.scrollerClassName}`} ref={scrollRef} data-testid={props.testId}>
      {props.items.length > 0 ? (
        <ul className={`virtual-list ${props.listClassName}`} aria-label={props.label} style={{ height: totalSizePx }}>
          {rows.map((row) => props.renderRow(row))}
        </ul>
      ) : null}
      {props.footer}
    </div>
  );
}
