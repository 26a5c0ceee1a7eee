import { useSignals } from '@preact/signals-react/runtime';
import { useMemo } from 'react';
import { VirtualGrid } from '../../../components/virtual-grid';
import { productsSignal, useProducts } from '../../catalogue/products';
import { historyKey, historyRowLabel, useHistorySource, type HistoryItem, type HistoryKind } from './history-kind';
import { historyColumns, PagedListFooter, ProfitLossSummary, useHistoryDrawer, useHistoryLook } from './history-parts';
import type { PageOf } from './use-paged-list';

/**
 * Desktop history: the period's result, the items as a virtualized grid that loads the
 * next page as its end comes into view, and the details drawer of the clicked row.
 */
export function HistoryGrid<Item extends HistoryItem, Page extends PageOf<Item>>(props: { kind: HistoryKind<Item, Page>; onOpen?: (item: Item) => void }) {
  useSignals();
  // The cells' prices are shown at their products' digits: the catalogue comes with the grid (a direct load has none yet).
  useProducts();
  const { kind } = props;
  const source = useHistorySource(kind);
  const { t, format } = useHistoryLook();
  // Made again when the catalogue arrives: the cells' prices take their digits from it.
  const catalogue = productsSignal.value;
  const columns = useMemo(() => (catalogue ? historyColumns(kind, { t, format }) : []), [kind, t, format, catalogue]);
  const { state, list } = source.paged;
  const { items, status } = state;
  const own = useHistoryDrawer(kind, items);
  // A page that shows details itself (a side panel, a detail asked for in the address) takes the taps.
  const openItem = props.onOpen ?? own.openItem;
  const drawer = props.onOpen ? null : own.drawer;
  const footer = <PagedListFooter status={status} count={items.length} emptyText={source.emptyText} endText={source.endText} onRetry={list.retry} />;
  return (
    <div className="history-board">
      {source.hasTotals ? <ProfitLossSummary today={source.today} total={source.total} /> : null}
      {items.length === 0 ? (
        footer
      ) : (
        <VirtualGrid label={source.label} columns={columns} items={items} rowKey={historyKey} rowLabel={historyRowLabel} onOpen={openItem} onEndReached={list.loadMore} footer={footer} />
      )}
      {drawer}
    </div>
  );
}
