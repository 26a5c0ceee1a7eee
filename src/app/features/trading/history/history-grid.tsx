import { useSignals } from '@preact/signals-react/runtime';
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TradeOrder } from '../../../../shared/api/trading';
import { useBrandFormat } from '../../../format/use-brand-format';
import { VirtualGrid, type GridColumn } from '../../../components/virtual-grid';
import { changeTone } from '../../catalogue/price-tone';
import type { HistorySource } from './history-list';
import { PagedListFooter, ProfitLossSummary } from './history-parts';
import { MarketHistoryDrawer } from './market-history-drawer';
import { useMarketHistorySource } from './market-history';
import type { PageOf } from './use-paged-list';
import { Direction, PriceType } from '../../../../shared/trading/order-rules';

/** The specification's desktop columns for market history. */
function useHistoryColumns(): GridColumn<TradeOrder>[] {
  const { t } = useTranslation();
  const format = useBrandFormat();
  return useMemo(() => {
    const time = format.time;
    const amount = format.amount;
    return [
      { key: 'symbol', label: t('history.symbol'), width: 'minmax(70px, 1.2fr)', cell: (order) => <strong>{order.productName}</strong> },
      { key: 'uid', label: t('position.order_id'), width: 'minmax(134px, 1fr)', numeric: true, cell: (order) => order.uid },
      {
        key: 'direction',
        label: t('position.direction'),
        width: 'minmax(72px, 0.5fr)',
        cell: (order) => <span className={order.orderType === Direction.buy ? 'up' : 'down'}>{t(order.orderType === Direction.buy ? 'market.buy' : 'market.sell')}</span>,
      },
      { key: 'priceType', label: t('trade.price_type'), width: 'minmax(84px, 0.8fr)', cell: (order) => t(order.buyPoint === PriceType.pending ? 'trade.pending_order' : 'trade.market_price') },
      { key: 'volume', label: t('position.volume'), width: 'minmax(56px, 0.6fr)', numeric: true, cell: (order) => order.orderQuantity },
      { key: 'placePrice', label: t('position.open_price'), width: 'minmax(70px, 1fr)', numeric: true, cell: (order) => order.openingPrice ?? '—' },
      { key: 'coverPrice', label: t('history.close_price'), width: 'minmax(70px, 1fr)', numeric: true, cell: (order) => order.closingPrice ?? '—' },
      { key: 'stop', label: t('trade.stop_loss'), width: 'minmax(64px, 0.8fr)', numeric: true, cell: (order) => order.stopPrice ?? '—' },
      { key: 'take', label: t('trade.take_profit'), width: 'minmax(64px, 0.8fr)', numeric: true, cell: (order) => order.takeProfitPrice ?? '—' },
      {
        key: 'pnl',
        label: t('position.profit_loss'),
        width: 'minmax(72px, 1fr)',
        numeric: true,
        cell: (order) => {
          // Toned by the amount shown: a loss that rounds to 0.00 is not red.
          const shown = amount(order.profitLoss ?? '0');
          return (
            <span className={changeTone(shown)} data-testid={`history-pnl-${order.uid}`}>
              {shown}
            </span>
          );
        },
      },
      { key: 'fee', label: t('position.fee'), width: 'minmax(48px, 0.6fr)', numeric: true, cell: (order) => amount(order.feeAmount) },
      { key: 'placeTime', label: t('position.order_time'), width: 'minmax(142px, 1fr)', numeric: true, cell: (order) => time(order.orderTime) },
      { key: 'coverTime', label: t('history.close_time'), width: 'minmax(142px, 1fr)', numeric: true, cell: (order) => time(order.closingTimeTs) },
    ] satisfies GridColumn<TradeOrder>[];
  }, [t, format]);
}

/**
 * Desktop history: the period's result, the items as a virtualized grid that loads the
 * next page as its end comes into view, and the details drawer of the clicked row.
 */
export function PagedHistoryGrid<Item, Page extends PageOf<Item>>(props: {
  source: HistorySource<Item, Page>;
  columns: readonly GridColumn<Item>[];
  rowLabel: (item: Item) => string;
  drawer: (item: Item, onClose: () => void) => ReactNode;
}) {
  const { source } = props;
  const { state, list } = source.paged;
  const [openKey, setOpenKey] = useState<string | null>(null);
  const { items, status } = state;
  const { keyOf } = source;
  const openItem = useCallback((item: Item) => setOpenKey(keyOf(item)), [keyOf]);
  // Looked up in the list, so the drawer closes when the list starts over for another account.
  const open = openKey === null ? undefined : items.find((item) => keyOf(item) === openKey);
  const footer = <PagedListFooter status={status} count={items.length} emptyText={source.emptyText} endText={source.endText} onRetry={list.retry} />;
  return (
    <div className="history-board">
      <ProfitLossSummary today={source.today} total={source.total} />
      {items.length === 0 ? (
        footer
      ) : (
        <VirtualGrid label={source.label} columns={props.columns} items={items} rowKey={keyOf} rowLabel={props.rowLabel} onOpen={openItem} onEndReached={list.loadMore} footer={footer} />
      )}
      {open !== undefined ? props.drawer(open, () => setOpenKey(null)) : null}
    </div>
  );
}

/** Desktop market history: closed orders with the specification's columns. */
export function MarketHistoryGrid() {
  useSignals();
  const columns = useHistoryColumns();
  const source = useMarketHistorySource();
  return (
    <PagedHistoryGrid
      source={source}
      columns={columns}
      rowLabel={(order) => `${order.productName} ${order.uid}`}
      drawer={(order, onClose) => <MarketHistoryDrawer order={order} onClose={onClose} />}
    />
  );
}
