import { useSignals } from '@preact/signals-react/runtime';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import { historyKey, useHistorySource, type HistoryItem, type HistoryKind } from './history-kind';
import { HistoryRow, PagedListFooter, ProfitLossSummary, useHistoryDrawer } from './history-parts';
import type { PageOf } from './use-paged-list';

/** Row height in px; the virtualizer positions rows by it and the stylesheet sizes them to it. */
const historyRowHeight = 72;
/** Rows rendered beyond the screen on each side; the next page loads once the last of them exists. */
const overscanRows = 4;

/**
 * Phones: the period's result, then the items as a virtualized list that loads the next
 * page as its end comes into view, and the details drawer of the tapped item.
 */
export function HistoryList<Item extends HistoryItem, Page extends PageOf<Item>>(props: { kind: HistoryKind<Item, Page>; onOpen?: (item: Item) => void }) {
  useSignals();
  const source = useHistorySource(props.kind);
  const { state, list } = source.paged;
  const scrollRef = useRef<HTMLDivElement>(null);
  const { items, status } = state;
  const own = useHistoryDrawer(props.kind, items);
  // A page that shows details itself (a side panel, a detail asked for in the address) takes the taps.
  const openItem = props.onOpen ?? own.openItem;
  const drawer = props.onOpen ? null : own.drawer;
  // The app does not use the React Compiler, so the unmemoizable API is fine here.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => historyRowHeight,
    overscan: overscanRows,
    getItemKey: (index) => {
      const item = items[index];
      return item === undefined ? index : historyKey(item);
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
      {source.hasTotals ? <ProfitLossSummary today={source.today} total={source.total} /> : null}
      <div className="history-scroller" ref={scrollRef}>
        {items.length > 0 ? (
          <ul className="history-rows" aria-label={source.label} style={{ height: virtualizer.getTotalSize() }}>
            {rows.map((row) => {
              const item = items[row.index];
              if (item === undefined) return null;
              return (
                <li key={row.key} className="history-row" style={{ position: 'absolute', top: 0, left: 0, right: 0, height: historyRowHeight, transform: `translateY(${row.start}px)` }}>
                  <HistoryRow kind={props.kind} item={item} onOpen={openItem} />
                </li>
              );
            })}
          </ul>
        ) : null}
        <PagedListFooter status={status} count={items.length} emptyText={source.emptyText} endText={source.endText} onRetry={list.retry} />
      </div>
      {drawer}
    </>
  );
}
