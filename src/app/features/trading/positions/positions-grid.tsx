import { useSignals } from '@preact/signals-react/runtime';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { TradeOrder } from '../../../../shared/api/trading';
import { useBrandFormat } from '../../../format/use-brand-format';
import { VirtualGrid, type GridColumn } from '../../../components/virtual-grid';
import { changeTone } from '../../catalogue/price-tone';
import { pricePrecisionOf } from '../../catalogue/products';
import { useTradeMode } from '../trade-mode';
import { OptionPositionsBoard } from '../options/option-positions';
import { PositionOrders, PositionTabs, PositionsSummaryBar, ResetDemoButton, useMarketPositions, type PositionTab } from './position-parts';
import { Direction, PriceType } from '../../../../shared/trading/order-rules';

/** The specification's desktop columns for open positions and pending orders. */
function usePositionColumns(tab: PositionTab): GridColumn<TradeOrder>[] {
  const { t } = useTranslation();
  const format = useBrandFormat();
  return useMemo(
    () => [
      { key: 'symbol', label: t('position.symbol'), width: 'minmax(90px, 1.2fr)', cell: (order) => <strong>{order.productName}</strong> },
      { key: 'uid', label: t('position.order_id'), width: 'minmax(150px, 1.3fr)', numeric: true, cell: (order) => order.uid },
      {
        key: 'direction',
        label: t('position.direction'),
        width: 'minmax(64px, 0.6fr)',
        cell: (order) => <span className={order.orderType === Direction.buy ? 'up' : 'down'}>{t(order.orderType === Direction.buy ? 'market.buy' : 'market.sell')}</span>,
      },
      { key: 'priceType', label: t('position.price_type'), width: 'minmax(100px, 0.8fr)', cell: (order) => t(order.buyPoint === PriceType.pending ? 'trade.pending_order' : 'trade.market_price') },
      { key: 'volume', label: t('position.volume'), width: 'minmax(60px, 0.7fr)', numeric: true, cell: (order) => order.orderQuantity },
      { key: 'placePrice', label: t(tab === 'opening' ? 'position.open_price' : 'position.limit_price'), width: 'minmax(80px, 1fr)', numeric: true, cell: (order) => format.price(order.openingPrice ?? order.limitPrice, pricePrecisionOf(order.tradePair)) },
      { key: 'current', label: t('position.current_price'), width: 'minmax(80px, 1fr)', numeric: true, cell: (order) => format.price(order.currentPrice, pricePrecisionOf(order.tradePair)) },
      { key: 'stop', label: t('trade.stop_loss'), width: 'minmax(70px, 0.9fr)', numeric: true, cell: (order) => format.price(order.stopPrice, pricePrecisionOf(order.tradePair)) },
      { key: 'take', label: t('trade.take_profit'), width: 'minmax(70px, 0.9fr)', numeric: true, cell: (order) => format.price(order.takeProfitPrice, pricePrecisionOf(order.tradePair)) },
      {
        key: 'pnl',
        label: t(tab === 'opening' ? 'position.interest' : 'position.expected_profit_loss'),
        width: 'minmax(80px, 1fr)',
        numeric: true,
        cell: (order) => (
          <span className={changeTone(order.profitLoss ?? '0')} data-testid={`grid-pnl-${order.uid}`}>
            {order.profitLoss === null ? '—' : format.amount(order.profitLoss)}
          </span>
        ),
      },
      { key: 'fee', label: t('position.fee'), width: 'minmax(60px, 0.7fr)', numeric: true, cell: (order) => format.amount(order.feeAmount) },
      { key: 'time', label: t('position.order_time'), width: 'minmax(130px, 1.3fr)', numeric: true, cell: (order) => format.time(order.orderTime) },
    ],
    [t, tab, format],
  );
}

/**
 * Desktop positions by trade mode: the market board, or the running options with the
 * option columns. The `/position` page on desktop and the workspace's order-list panel.
 */
export function PositionsBoard() {
  useSignals();
  const { mode } = useTradeMode();
  return mode === 'option' ? <OptionPositionsBoard /> : <MarketPositionsBoard />;
}

/**
 * Desktop market positions: the opening/pending tabs, the summary (profit and loss, net
 * worth, available prepayment), the live grid and the demo reset.
 */
function MarketPositionsBoard() {
  useSignals();
  const { t } = useTranslation();
  const { tab, setTab, summary, orders, openOrder, drawer } = useMarketPositions();
  const columns = usePositionColumns(tab);
  return (
    <div className="positions-board">
      <div className="positions-board-bar">
        <PositionTabs tab={tab} onTab={setTab} />
        <PositionsSummaryBar summary={summary} tab={tab} />
        <ResetDemoButton />
      </div>
      <PositionOrders summary={summary} tab={tab}>
        <VirtualGrid
          label={t(`position.${tab}`)}
          columns={columns}
          items={orders}
          rowKey={(order) => order.uid}
          rowLabel={(order) => `${order.productName} ${order.uid}`}
          onOpen={openOrder}
        />
      </PositionOrders>
      {drawer}
    </div>
  );
}
