import { useSignals } from '@preact/signals-react/runtime';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TradeOrder } from '../../../../shared/api/trading';
import { useBrandFormat } from '../../../format/use-brand-format';
import { VirtualGrid, type GridColumn } from '../../../components/virtual-grid';
import { changeTone } from '../../catalogue/price-tone';
import { pricePrecisionOf } from '../../catalogue/products';
import { useTradeMode } from '../trade-mode';
import { RunningOptionsGrid } from '../options/option-positions';
import { OptionStatusTabs, type OptionStatusTab } from '../options/option-status-tabs';
import { OptionHistoryGrid } from '../history/option-history';
import { OptionStatus } from '../../../../shared/options/option-rules';
import type { TradeMode } from '../../../../shared/config/trade-mode';
import { CloseOrderButton, PositionOrders, PositionsSummaryBar, ResetDemoButton, useMarketPositions, type PositionTab } from './position-parts';
import { Direction, PriceType } from '../../../../shared/trading/order-rules';

/** The specification's desktop columns for open positions and pending orders. */
function usePositionColumns(tab: PositionTab): GridColumn<TradeOrder>[] {
  const { t } = useTranslation();
  const format = useBrandFormat();
  return useMemo(
    () => [
      { key: 'symbol', label: t('position.symbol'), width: 'minmax(90px, 1.2fr)', pin: 'start', cell: (order) => <strong>{order.productName}</strong> },
      { key: 'uid', label: t('position.order_id'), width: 'minmax(150px, 1.3fr)', numeric: true, hidePriority: 1, cell: (order) => order.uid },
      {
        key: 'direction',
        label: t('position.direction'),
        width: 'minmax(76px, 0.6fr)',
        cell: (order) => <span className={order.orderType === Direction.buy ? 'up' : 'down'}>{t(order.orderType === Direction.buy ? 'market.buy' : 'market.sell')}</span>,
      },
      { key: 'priceType', label: t('position.price_type'), width: 'minmax(100px, 0.8fr)', hidePriority: 2, cell: (order) => t(order.buyPoint === PriceType.pending ? 'trade.pending_order' : 'trade.market_price') },
      { key: 'volume', label: t('position.volume'), width: 'minmax(60px, 0.7fr)', numeric: true, cell: (order) => order.orderQuantity },
      { key: 'placePrice', label: t(tab === 'opening' ? 'position.open_price' : 'position.limit_price'), width: 'minmax(80px, 1fr)', numeric: true, cell: (order) => format.price(order.openingPrice ?? order.limitPrice, pricePrecisionOf(order.tradePair)) },
      { key: 'current', label: t('position.current_price'), width: 'minmax(80px, 1fr)', numeric: true, cell: (order) => format.price(order.currentPrice, pricePrecisionOf(order.tradePair)) },
      { key: 'stop', label: t('trade.stop_loss'), width: 'minmax(70px, 0.9fr)', numeric: true, hidePriority: 6, cell: (order) => format.price(order.stopPrice, pricePrecisionOf(order.tradePair)) },
      { key: 'take', label: t('trade.take_profit'), width: 'minmax(70px, 0.9fr)', numeric: true, hidePriority: 5, cell: (order) => format.price(order.takeProfitPrice, pricePrecisionOf(order.tradePair)) },
      { key: 'fee', label: t('position.fee'), width: 'minmax(60px, 0.7fr)', numeric: true, hidePriority: 4, cell: (order) => format.amount(order.feeAmount) },
      { key: 'time', label: t('position.order_time'), width: 'minmax(148px, 1.3fr)', numeric: true, hidePriority: 3, cell: (order) => format.time(order.orderTime) },
      // What a trader watches and acts on stays in view at the end: profit and loss, then the row's close button.
      {
        key: 'pnl',
        label: t(tab === 'opening' ? 'position.interest' : 'position.expected_profit_loss'),
        // Wide enough for the longest one-word header (German "Gewinn/Verlust") on one line.
        width: '116px',
        pin: 'end',
        numeric: true,
        cell: (order) => (
          <span className={changeTone(order.profitLoss ?? '0')} data-testid={`grid-pnl-${order.uid}`}>
            {order.profitLoss === null ? '—' : format.amount(order.profitLoss)}
          </span>
        ),
      },
      { key: 'action', label: t(tab === 'opening' ? 'common.close' : 'common.cancel'), labelHidden: true, width: '44px', pin: 'end', cell: (order) => <CloseOrderButton order={order} tab={tab} /> },
    ] satisfies GridColumn<TradeOrder>[],
    [t, tab, format],
  );
}

/** The desktop board's tabs: market positions and pending orders, then running options. */
type BoardTab = PositionTab | 'options';

/** The tabs the brand's trade modes call for, market ones first. */
function boardTabsOf(modes: readonly TradeMode[]): BoardTab[] {
  return [...(modes.includes('market') ? (['opening', 'pending'] as const) : []), ...(modes.includes('option') ? (['options'] as const) : [])];
}

function BoardTabs(props: { tabs: readonly BoardTab[]; tab: BoardTab; onTab: (tab: BoardTab) => void }) {
  const { t } = useTranslation();
  if (props.tabs.length < 2) return null;
  return (
    <div className="segmented position-tabs" role="group" aria-label={t('position.tabs')}>
      {props.tabs.map((each) => (
        <button key={each} type="button" aria-pressed={each === props.tab} onClick={() => props.onTab(each)}>
          {t(each === 'options' ? 'option.board_tab' : `position.${each}`)}
        </button>
      ))}
    </div>
  );
}

/**
 * Desktop positions: open positions, pending orders and running options as tabs of one
 * board, whatever the trade mode, so choosing option mode never hides open market
 * positions. The `/position` page on desktop and the workspace's order-list panel.
 */
export function PositionsBoard() {
  useSignals();
  const { modes } = useTradeMode();
  const tabs = boardTabsOf(modes);
  const [chosen, setChosen] = useState<BoardTab>('opening');
  // A tab the brand stops offering falls back to the first one offered.
  const tab = tabs.includes(chosen) ? chosen : (tabs[0] ?? 'opening');
  const tabBar = <BoardTabs tabs={tabs} tab={tab} onTab={setChosen} />;
  return tab === 'options' ? <RunningOptionsBoard tabBar={tabBar} /> : <MarketPositionsBoard tab={tab} tabBar={tabBar} />;
}

/** Desktop market positions: the summary (profit and loss, net worth, available prepayment), the live grid and the demo reset. */
function MarketPositionsBoard(props: { tab: PositionTab; tabBar: ReactNode }) {
  useSignals();
  const { t } = useTranslation();
  const { summary, orders, openOrder, drawer } = useMarketPositions(props.tab);
  const columns = usePositionColumns(props.tab);
  return (
    <div className="positions-board">
      <div className="positions-board-bar">
        {props.tabBar}
        <PositionsSummaryBar summary={summary} tab={props.tab} />
        <ResetDemoButton />
      </div>
      <PositionOrders summary={summary} tab={props.tab}>
        <VirtualGrid
          label={t(`position.${props.tab}`)}
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

/** Desktop options: the running ones with their countdowns (unsettled), or the last settled ones, as on phones. */
function RunningOptionsBoard(props: { tabBar: ReactNode }) {
  const [optionTab, setOptionTab] = useState<OptionStatusTab>(OptionStatus.running);
  return (
    <div className="positions-board">
      <div className="positions-board-bar">
        {props.tabBar}
        <span className="top-bar-spacer" />
        <ResetDemoButton />
      </div>
      <OptionStatusTabs selected={optionTab} onSelect={setOptionTab} />
      {optionTab === OptionStatus.running ? <RunningOptionsGrid /> : <OptionHistoryGrid />}
    </div>
  );
}
