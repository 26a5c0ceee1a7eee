import { useSignals } from '@preact/signals-react/runtime';
import { VirtualList } from '../../../components/virtual-list';
import { useProducts } from '../../catalogue/products';
import { historyKey, useHistorySource, type HistoryItem, type HistoryKind } from './history-kind';
import { HistoryRow, PagedListFooter, ProfitLossSummary, useHistoryDrawer } from './history-parts';
import type { PageOf } from './use-paged-list';

/**
 * A row's height before it is measured, and the least the stylesheet gives one (`.history-row`):
 * rows are measured, since a long name with its detail (Brent Crude Oil, a German status) wraps
 * the title to a second line that a fixed row would cut.
 */
const historyRowMinPx = 72;
/** Rows rendered beyond the screen on each side; the next page loads once the last of them exists. */
const overscanRows = 4;

/**
 * Phones: the period's result, then the items as a virtualized list that loads the next
 * page as its end comes into view, and the details drawer of the tapped item.
 */
export function HistoryList<Item extends HistoryItem, Page extends PageOf<Item>>(props: { kind: HistoryKind<Item, Page>; onOpen?: (item: Item) => void }) {
  useSignals();
  // The rows' prices are shown at their products' digits: the catalogue comes with the list (a direct load has none yet).
  useProducts();
  const source = useHistorySource(props.kind);
  const { state, list } = source.paged;
  const { items, status } = state;
  const own = useHistoryDrawer(props.kind, items);
  // A page that shows details itself (a side panel, a detail asked for in the address) takes the taps.
  const openItem = props.onOpen ?? own.openItem;
  const drawer = props.onOpen ? null : own.drawer;

  return (
    <>
      {source.hasTotals ? <ProfitLossSummary today={source.today} total={source.total} /> : null}
      <VirtualList
        label={source.label}
        items={items}
        itemKey={historyKey}
        sizing={{ estimatePx: historyRowMinPx }}
        overscan={overscanRows}
        scrollerClassName="history-scroller"
        listClassName="history-rows"
        // Also after each load (status): a short page may leave the end in view, so the next one follows.
        onEndReached={list.loadMore}
        endCheckKey={status}
        renderRow={(row) => (
          <li key={row.key} {...row.props} className="history-row">
            <HistoryRow kind={props.kind} item={row.item} onOpen={openItem} />
          </li>
        )}
        footer={<PagedListFooter status={status} count={items.length} emptyText={source.emptyText} endText={source.endText} onRetry={list.retry} />}
      />
      {drawer}
    </>
  );
}
