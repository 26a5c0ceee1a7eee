import { useSignals } from '@preact/signals-react/runtime';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TradeOrder } from '../../../shared/api/trading';
import { ProfitLossSummary, PagedListFooter } from './history-parts';
import { MarketHistoryDrawer } from './market-history-drawer';
import { MarketHistoryRow, marketHistoryRowHeight } from './market-history-row';
import { useMarketHistory } from './market-history';

/** Rows rendered beyond the screen on each side; the next page loads once the last of them exists. */
const overscanRows = 4;

/**
 * Phones: the profit and loss, then closed market orders as a virtualized list that
 * loads the next page as its end comes into view, and the details drawer.
 */
export function MarketHistoryList() {
  useSignals();
  const { t } = useTranslation();
  const { state, list } = useMarketHistory();
  const [openId, setOpenId] = useState<string | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const { items, status } = state;
  const openOrder = useCallback((order: TradeOrder) => setOpenId(order.uid), []);
  // Looked up in the list, so the drawer closes when the list starts over for another account.
  const open = openId === null ? undefined : items.find((order) => order.uid === openId);
  // The app does not use the React Compiler, so the unmemoizable API is fine here.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => marketHistoryRowHeight,
    overscan: overscanRows,
    getItemKey: (index) => items[index]?.uid ?? index,
  });
  const rows = virtualizer.getVirtualItems();
  const lastIndex = rows.at(-1)?.index ?? -1;
  // Also after each load (status): a short page may leave the end in view, so the next one follows.
  useEffect(() => {
    if (items.length > 0 && lastIndex >= items.length - 1) list.loadMore();
  }, [lastIndex, items.length, status, list]);

  return (
    <>
      <ProfitLossSummary today={state.lastPage?.profitLossToday ?? null} total={state.lastPage?.profitLossTotal ?? null} />
      <div className="history-scroller" ref={scrollRef}>
        {items.length > 0 ? (
          <ul className="history-rows" aria-label={t('history.closed_orders')} style={{ height: virtualizer.getTotalSize() }}>
            {rows.map((row) => {
              const order = items[row.index];
              if (!order) return null;
              return (
                <MarketHistoryRow
                  key={row.key}
                  order={order}
                  onOpen={openOrder}
                  style={{ position: 'absolute', top: 0, left: 0, right: 0, height: marketHistoryRowHeight, transform: `translateY(${row.start}px)` }}
                />
              );
            })}
          </ul>
        ) : null}
        <PagedListFooter status={status} count={items.length} emptyText={t('history.empty')} endText={t('history.end')} onRetry={list.retry} />
      </div>
      {open ? <MarketHistoryDrawer order={open} onClose={() => setOpenId(null)} /> : null}
    </>
  );
}
