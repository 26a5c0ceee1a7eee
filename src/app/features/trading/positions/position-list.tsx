import { useSignals } from '@preact/signals-react/runtime';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TradeOrder } from '../../../../shared/api/trading';
import { Direction } from '../../../../shared/trading/order-rules';
import { changeTone } from '../../catalogue/price-tone';
import { pricePrecisionOf } from '../../catalogue/products';
import { useBrandFormat } from '../../../format/use-brand-format';
import { VirtualList, type VirtualRowProps } from '../../../components/virtual-list';
import { StatusBadge } from '../../../components/status-badge';
import { tradeStatusTone } from '../../../../shared/trading/status-tones';
import { PositionOrders, PositionTabs, PositionsSummaryBar, useMarketPositions, type PositionTab } from './position-parts';

/** A row's height before it is measured: name, direction and volume on one line (a long name wraps), the two prices stacked beside them. */
const orderRowEstimatePx = 58;

function OrderRow(props: { order: TradeOrder; onOpen: (order: TradeOrder) => void; row: VirtualRowProps }) {
  const { t } = useTranslation();
  const format = useBrandFormat();
  const { order } = props;
  const precision = pricePrecisionOf(order.tradePair);
  const buy = order.orderType === Direction.buy;
  // The tone follows the amount shown, so a loss rounding to 0.00 is not coloured.
  const pnl = format.amount(order.profitLoss ?? '0');
  return (
    <li {...props.row} className="order-row">
      <button type="button" className="order-row-button" onClick={() => props.onOpen(order)} aria-label={`${order.productName} ${order.uid}`}>
        <span className="order-name">
          <strong>{order.productName}</strong>
          <span className={`order-direction ${buy ? 'up' : 'down'}`}>{t(buy ? 'market.buy' : 'market.sell')}</span>
          <span className="numeric">{order.orderQuantity}</span>
          <StatusBadge text={t(`history.status_${order.status}`)} tone={tradeStatusTone(order.status)} />
        </span>
        <span className="order-prices numeric">
          <span>{format.price(order.openingPrice ?? order.limitPrice, precision)}</span>
          <span>{format.price(order.currentPrice, precision)}</span>
        </span>
        <span className={`order-pnl numeric ${changeTone(pnl)}`} data-testid={`pnl-${order.uid}`}>
          {pnl}
        </span>
      </button>
    </li>
  );
}

/** The phone list: tabs, summary and the orders as a virtualized list (a busy account holds hundreds). */
export function PositionList() {
  useSignals();
  const { t } = useTranslation();
  const [tab, setTab] = useState<PositionTab>('opening');
  const { summary, orders, openOrder, drawer } = useMarketPositions(tab);
  return (
    <>
      <PositionTabs tab={tab} onTab={setTab} />
      <PositionsSummaryBar summary={summary} tab={tab} />
      <PositionOrders summary={summary} tab={tab}>
        <VirtualList
          label={t(`position.${tab}`)}
          items={orders}
          itemKey={(order) => order.uid}
          sizing={{ estimatePx: orderRowEstimatePx }}
          scrollerClassName="order-scroller"
          listClassName="order-rows"
          renderRow={(row) => <OrderRow key={row.key} order={row.item} onOpen={openOrder} row={row.props} />}
        />
      </PositionOrders>
      {drawer}
    </>
  );
}
