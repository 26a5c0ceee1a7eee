import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useSignals } from '@preact/signals-react/runtime';
import { useChartLines } from '../../../src/app/features/chart/use-chart-lines';
import type { Product } from '../../../src/shared/api/market';
import { updateOrder, type PositionsSummary, type TradeOrder } from '../../../src/shared/api/trading';
import { Direction, OrderStatus } from '../../../src/shared/trading/order-rules';
import { pushPositions, pushPrice, signIn } from '../support/engine-state';
import { createFakeServer } from '../support/fake-server';
import { t } from '../support/i18n';
import { eurusd } from '../support/products';
import { renderView } from '../support/render';

/** An open EUR/USD buy of 1.5 lots at 1.08000 with a stop loss at 1.07000 and a take profit at 1.09000. */
function position(change: Partial<TradeOrder> = {}): TradeOrder {
  return {
    id: 1,
    uid: 'ORD-501',
    orderType: Direction.buy,
    buyPoint: 2,
    status: OrderStatus.position,
    positionStatus: OrderStatus.position,
    tradePair: 'EURUSD',
    productName: 'EUR/USD',
    orderQuantity: '1.50',
    lever: 100,
    securityDepositInitial: '1620.00',
    openingPrice: '1.08000',
    limitPrice: null,
    currentPrice: '1.08500',
    closingPrice: null,
    stopPrice: '1.07000',
    takeProfitPrice: '1.09000',
    profitLoss: '750.00',
    feeAmount: '3.24',
    overnightFee: '0.00',
    closeReason: null,
    orderTime: 0,
    orderTimeTs: 0,
    transactionTime: 0,
    transactionTimeTs: null,
    closingTimeTs: null,
    closableAfterTime: null,
    ...change,
  };
}

const summaryOf = (...orders: TradeOrder[]): PositionsSummary => ({ orderList: orders, profitLossSum: '0', netValue: '0', securityDepositPrent: '0', securityDepositAvailableSum: '0' });

/**
 * The chart's lines as its accessible list shows them, and a stand-in for the canvas's drag:
 * a button per line that drops it at the typed chart value (the chart hands over its number).
 */
function ChartLinesHarness(props: { product: Product; dropAt: number }) {
  useSignals();
  const { lines, onLineDrop } = useChartLines(props.product, 'light');
  return (
    <ul aria-label="lines">
      {lines.map((line) => (
        <li key={line.id} data-kind={line.kind} data-price={line.price}>
          {line.look.label}
          <button type="button" onClick={() => void onLineDrop(line.id, props.dropAt)}>
            drop {line.id}
          </button>
        </li>
      ))}
    </ul>
  );
}

function openChart(dropAt: number, ...orders: TradeOrder[]) {
  signIn();
  pushPrice('EURUSD', '1.08500', '1.08512');
  pushPositions(summaryOf(...orders));
  const server = createFakeServer();
  server.on(updateOrder, () => null);
  return renderView(<ChartLinesHarness product={eurusd} dropAt={dropAt} />, { server });
}

const lineLabels = () => within(screen.getByRole('list', { name: 'lines' })).queryAllByRole('listitem').map((item) => item.firstChild?.textContent);

describe('the chart’s lines of what the trader holds', () => {
  it('labels the entry with side, volume and live profit, and the levels with their prices; follows the feed', async () => {
    openChart(1.07, position());
    expect(lineLabels()).toEqual([
      t('chart.line_entry', { side: t('market.buy'), volume: '1.50', profit: '+750.00' }),
      t('chart.line_stop_loss', { price: '1.07000' }),
      t('chart.line_take_profit', { price: '1.09000' }),
    ]);
    act(() => pushPositions(summaryOf(position({ profitLoss: '-12.50', takeProfitPrice: null }))));
    expect(lineLabels()).toEqual([t('chart.line_entry', { side: t('market.buy'), volume: '1.50', profit: '-12.50' }), t('chart.line_stop_loss', { price: '1.07000' })]);
    act(() => pushPositions(summaryOf()));
    expect(lineLabels()).toEqual([]);
  });

  it('snaps a stop loss dropped above the bid back with the form’s reason, asking nothing and sending nothing', async () => {
    const { user, server } = openChart(1.086, position());
    await user.click(screen.getByRole('button', { name: 'drop ORD-501:stopLoss' }));
    expect(await screen.findByText(t('trade.stoploss_below_buy', { price: '1.08500' }))).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(server.callsOf(updateOrder)).toEqual([]);
  });

  it('asks before it moves a stop loss, sends nothing on cancel, and the modify request on save', async () => {
    const { user, server } = openChart(1.0712345, position());
    await user.click(screen.getByRole('button', { name: 'drop ORD-501:stopLoss' }));
    const title = `EUR/USD · ${t('position.edit_title')}`;
    const confirmation = await screen.findByRole('dialog', { name: title });
    expect(confirmation).toHaveTextContent(t('chart.move_stop_loss', { from: '1.07000', to: '1.07123' }));
    await user.click(within(confirmation).getByRole('button', { name: t('common.cancel') }));
    expect(server.callsOf(updateOrder)).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'drop ORD-501:stopLoss' }));
    await user.click(within(await screen.findByRole('dialog', { name: title })).getByRole('button', { name: t('position.save') }));
    await waitFor(() => expect(server.bodiesOf(updateOrder)).toEqual([{ orderId: 'ORD-501', stopPrice: '1.07123' }]));
    expect(await screen.findByText(t('position.updated'))).toBeInTheDocument();
    // Until the feed says so, the line stays where it was dropped.
    await waitFor(() => expect(screen.getByRole('button', { name: 'drop ORD-501:stopLoss' }).closest('li')).toHaveAttribute('data-price', '1.07123'));
  });

  it('moves a pending order’s price only within the form’s band', async () => {
    const pending = position({ uid: 'ORD-9', status: OrderStatus.pending, openingPrice: null, limitPrice: '1.08000', currentPrice: null, stopPrice: null, takeProfitPrice: null, profitLoss: null });
    const { user, server } = openChart(0.5, pending);
    await user.click(screen.getByRole('button', { name: 'drop ORD-9:pending' }));
    expect(await screen.findByText(t('trade.pending_price_band', { percent: '50' }))).toBeInTheDocument();
    expect(server.callsOf(updateOrder)).toEqual([]);
  });
});
