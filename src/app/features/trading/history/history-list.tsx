import { useSignals } from '@preact/signals-react/runtime';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { ProfitLossSummary, PagedListFooter } from './history-parts';
import { MarketHistoryDrawer } from './market-history-drawer';
import { MarketHistoryRow, marketHistoryRowHeight } from './market-history-row';
import { useMarketHistorySource } from './market-history';
import type { PagedList, PagedListState, PageOf } from './use-paged-list';

/** Rows rendered beyond the screen on each side; the next page loads once the last of them exists. */
const overscanRows = 4;

/** What a history list shows: its pages, totals, texts, and how one item looks in a row and a drawer. */
export interface HistorySource<Item, Page extends PageOf<Item>> {
  paged: { state: PagedListState<Item, Page>; list: PagedList<Item, Page> };
  today: string | null;
  total: string | null;
  label: string;
  emptyText: string;
  endText: string;
  keyOf: (item: Item) => string;
}

/**
 * Phones: the period's result, then the items as a virtualized list that loads the next
 * page as its end comes into view, and the details drawer of the tapped item.
 */
export function PagedHistoryList<Item, Page extends PageOf<Item>>(props: {
  source: HistorySource<Item, Page>;
  rowHeight: number;
  row: (item: Item, onOpen: (item: Item) => void) => ReactNode;
  drawer: (item: Item, onClose: () => void) => ReactNode;
}) {
  const { source } = props;
  const { state, list } = source.paged;
  const [openKey, setOpenKey] = useState<string | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const { items, status } = state;
  const { keyOf } = source;
  const openItem = useCallback((item: Item) => setOpenKey(keyOf(item)), [keyOf]);
  // Looked up in the list, so the drawer closes when the list starts over for another account.
  const open = openKey === null ? undefined : items.find((item) => keyOf(item) === openKey);
  // The app does not use the React Compiler, so the unmemoizable API is fine here.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => props.rowHeight,
    overscan: overscanRows,
    getItemKey: (index) => {
      const item = items[index];
      return item === undefined ? index : keyOf(item);
    },
  });
  const rows = virtualizer.getVirtualItems();
  const lastIndex = rows.at(-1)?.index ?? -1;
  // Also after each load (status): a short page may leave the end in view, so the next one follows.
  useEffect(() => {
    if (items.length > 0 && lastIndex >= items.length - 1) list.loadMore();
  }, [lastIndex, items.length, status, list]);

  return (
    <>
      <ProfitLossSummary today={source.today} total={source.total} />
      <div className="history-scroller" ref={scrollRef}>
        {items.length > 0 ? (
          <ul className="history-rows" aria-label={source.label} style={{ height: virtualizer.getTotalSize() }}>
            {rows.map((row) => {
              const item = items[row.index];
              if (item === undefined) return null;
              return (
                <li key={row.key} className="history-row" style={{ position: 'absolute', top: 0, left: 0, right: 0, height: props.rowHeight, transform: `translateY(${row.start}px)` }}>
                  {props.row(item, openItem)}
                </li>
              );
            })}
          </ul>
        ) : null}
        <PagedListFooter status={status} count={items.length} emptyText={source.emptyText} endText={source.endText} onRetry={list.retry} />
      </div>
      {open !== undefined ? props.drawer(open, () => setOpenKey(null)) : null}
    </>
  );
}

/** Phones: closed market orders. */
export function MarketHistoryList() {
  useSignals();
  const source = useMarketHistorySource();
  return (
    <PagedHistoryList
      source={source}
      rowHeight={marketHistoryRowHeight}
      row={(order, onOpen) => <MarketHistoryRow order={order} onOpen={onOpen} />}
      drawer={(order, onClose) => <MarketHistoryDrawer order={order} onClose={onClose} />}
    />
  );
}
