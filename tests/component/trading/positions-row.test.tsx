import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PositionList } from '../../../src/app/features/trading/positions/position-list';
import { productList } from '../../../src/shared/api/market';
import { closeOrder, levelRemoved, updateOrder, type PositionsSummary, type TradeOrder } from '../../../src/shared/api/trading';
import { Direction } from '../../../src/shared/trading/order-rules';
import { loadCatalogue, pushPositions, pushPrice, signIn } from '../support/engine-state';
import { createFakeServer } from '../support/fake-server';
import { t } from '../support/i18n';
import { eurusd } from '../support/products';
import { renderView } from '../support/render';

/** An open EUR/USD buy of 1.5 lots at 1.08, now closable at 1.08500, with a stop loss at 1.07. */
function position(change: Partial<TradeOrder> = {}): TradeOrder {
  return {
    id: 1,
    uid: 'ORD-501',
    orderType: Direction.buy,
    buyPoint: 2,
    status: 2,
    positionStatus: 2,
    tradePair: 'EURUSD',
    productName: 'EUR/USD',
    orderQuantity: '1.50',
    lever: 100,
    securityDepositInitial: '1620.00',
    openingPrice: '1.08',
    limitPrice: null,
    currentPrice: '1.085',
    closingPrice: null,
    stopPrice: '1.07000',
    takeProfitPrice: null,
    profitLoss: '750.00',
    feeAmount: '3.24',
    overnightFee: '0.00',
    closeReason: null,
    orderTime: Date.UTC(2026, 10, 30, 9, 15),
    orderTimeTs: Date.UTC(2026, 10, 30, 9, 15),
    transactionTime: Date.UTC(2026, 10, 30, 9, 15),
    transactionTimeTs: null,
    closingTimeTs: null,
    closableAfterTime: null,
    ...change,
  };
}

function summaryOf(...orders: TradeOrder[]): PositionsSummary {
  return { orderList: orders, profitLossSum: '750.00', netValue: '10750.00', securityDepositPrent: '663.58', securityDepositAvailableSum: '9126.76' };
}

function positionsServer() {
  const server = createFakeServer();
  server.on(productList, () => ({ list: [eurusd] }));
  server.on(closeOrder, () => null);
  server.on(updateOrder, () => null);
  return server;
}

/** The list with its rows: the virtualized list renders them once it has measured its room (support/layout.ts), a moment after mounting. */
async function openPositions(...orders: TradeOrder[]) {
  signIn();
  loadCatalogue([eurusd]);
  pushPrice('EURUSD', '1.08500', '1.08512');
  pushPositions(summaryOf(...orders));
  const view = renderView(<PositionList />, { server: positionsServer(), path: '/position' });
  for (const order of orders) await screen.findByRole('button', { name: `${order.productName} ${order.uid}` });
  return view;
}

const row = (order: TradeOrder) => screen.getByRole('button', { name: `${order.productName} ${order.uid}` });

describe('a positions row', () => {
  it('shows the product, side, volume, prices at the product\'s precision and the profit in its tone', async () => {
    const buy = position();
    const sell = position({ uid: 'ORD-502', orderType: Direction.sell, profitLoss: '-120.40' });
    await openPositions(buy, sell);
    const buyRow = row(buy);
    expect(buyRow).toHaveTextContent('EUR/USD');
    expect(within(buyRow).getByText(t('market.buy'))).toBeInTheDocument();
    expect(within(buyRow).getByText('1.50')).toBeInTheDocument();
    expect(within(buyRow).getByText('1.08000')).toBeInTheDocument();
    expect(within(buyRow).getByText('1.08500')).toBeInTheDocument();
    expect(screen.getByTestId('pnl-ORD-501')).toHaveTextContent('750.00');
    expect(screen.getByTestId('pnl-ORD-501')).toHaveClass('up');
    expect(within(row(sell)).getByText(t('market.sell'))).toBeInTheDocument();
    expect(screen.getByTestId('pnl-ORD-502')).toHaveTextContent('-120.40');
    expect(screen.getByTestId('pnl-ORD-502')).toHaveClass('down');
  });

  it('shows the prepayment ratio (the feed\'s securityDepositPrent) in the summary', async () => {
    await openPositions(position());
    expect(screen.getByText(t('position.prepayment_ratio'))).toBeInTheDocument();
    expect(screen.getByTestId('summary-prepayment-ratio')).toHaveTextContent('663.58%');
  });

  it('does not colour a loss that shows as 0.00', async () => {
    await openPositions(position({ profitLoss: '-0.004' }));
    expect(screen.getByTestId('pnl-ORD-501')).toHaveTextContent('0.00');
    expect(screen.getByTestId('pnl-ORD-501')).not.toHaveClass('down');
  });

  it('opens its details, which close on Escape and give focus back to the row', async () => {
    const order = position();
    const { user } = await openPositions(order);
    await user.click(row(order));
    const details = screen.getByRole('dialog', { name: `EUR/USD · ${t('position.details')}` });
    expect(details).toHaveFocus();
    expect(details).toHaveTextContent('ORD-501');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(row(order)).toHaveFocus();
  });

  it('closes the position after the confirmation, and not without it', async () => {
    const order = position();
    const { user, server } = await openPositions(order);
    await user.click(row(order));
    await user.click(screen.getByRole('button', { name: t('position.cover') }));
    const confirmation = await screen.findByRole('dialog', { name: t('position.cover') });
    expect(confirmation).toHaveTextContent(t('position.cover_confirm'));
    await user.click(within(confirmation).getByRole('button', { name: t('common.cancel') }));
    expect(server.callsOf(closeOrder)).toEqual([]);

    await user.click(screen.getByRole('button', { name: t('position.cover') }));
    await user.click(within(await screen.findByRole('dialog', { name: t('position.cover') })).getByRole('button', { name: t('common.confirm') }));
    await waitFor(() => expect(server.bodiesOf(closeOrder)).toEqual([{ orderId: 'ORD-501' }]));
    expect(await screen.findByRole('status')).toHaveTextContent(t('notice.operation_success'));
  });

  it('cannot be closed inside its minimum holding time, and says for how long', async () => {
    const order = position({ closableAfterTime: Date.now() + 90_000 });
    const { user } = await openPositions(order);
    await user.click(row(order));
    const button = screen.getByRole('button', { name: new RegExp(t('position.can_close_in', { time: '1:[23][0-9]' })) });
    expect(button).toBeDisabled();
  });

  it('removes an emptied stop loss when the edit is saved', async () => {
    const order = position();
    const { user, server } = await openPositions(order);
    await user.click(row(order));
    await user.click(screen.getByRole('button', { name: t('position.edit') }));
    const stopLoss = within(screen.getByRole('dialog', { name: `EUR/USD · ${t('position.edit_title')}` })).getByRole('textbox', { name: t('trade.stop_loss_price') });
    expect(stopLoss).toHaveValue('1.07000');
    await user.clear(stopLoss);
    await user.click(screen.getByRole('button', { name: t('position.save') }));
    await waitFor(() => expect(server.bodiesOf(updateOrder)).toEqual([{ orderId: 'ORD-501', stopPrice: levelRemoved }]));
  });

  it('sets a stop loss typed above the closing price to that price in the edit, saying the maximum, and saves nothing', async () => {
    const order = position();
    const { user, server } = await openPositions(order);
    await user.click(row(order));
    await user.click(screen.getByRole('button', { name: t('position.edit') }));
    const edit = screen.getByRole('dialog', { name: `EUR/USD · ${t('position.edit_title')}` });
    const stopLoss = within(edit).getByRole('textbox', { name: t('trade.stop_loss_price') });
    await user.clear(stopLoss);
    await user.type(stopLoss, '1.09');
    await user.click(screen.getByRole('button', { name: t('position.save') }));
    expect(await within(edit).findByRole('alert')).toHaveTextContent(t('trade.max_is', { value: '1.08500' }));
    expect(stopLoss).toHaveValue('1.08500');
    expect(server.bodiesOf(updateOrder)).toEqual([]);
  });

  it('keeps a stop loss typed at once while the live feed updates the position beneath the edit', async () => {
    const order = position();
    const { user } = await openPositions(order);
    await user.click(row(order));
    await user.click(screen.getByRole('button', { name: t('position.edit') }));
    const edit = screen.getByRole('dialog', { name: `EUR/USD · ${t('position.edit_title')}` });
    const stopLoss = within(edit).getByRole('textbox', { name: t('trade.stop_loss_price') });
    await user.click(stopLoss);
    await user.clear(stopLoss);
    await user.type(stopLoss, '1.075');
    // A tick re-renders the drawer and the dialog with a new order and new callbacks.
    act(() => pushPositions(summaryOf(position({ currentPrice: '1.08510', profitLoss: '765.00' }))));
    expect(stopLoss).toHaveFocus();
    expect(stopLoss).toHaveValue('1.075');
  });
});

describe('a long positions list', () => {
  it('holds only a window of rows, each telling its place in the whole list, and the keyboard reaches the last and the first', async () => {
    const orders = Array.from({ length: 200 }, (_, index) => position({ id: index + 1, uid: `ORD-${String(index + 1).padStart(3, '0')}` }));
    const { user } = await openPositions(orders[0]!);
    act(() => pushPositions(summaryOf(...orders)));
    const list = screen.getByRole('list', { name: t('position.opening') });
    const shown = () => within(list).getAllByRole('listitem');
    // A 600 px list area holds about ten 58 px rows; the overscan adds a few on each side.
    await waitFor(() => expect(shown()[0]).toHaveAttribute('aria-setsize', '200'));
    expect(shown().length).toBeLessThan(20);
    expect(shown()[0]).toHaveAttribute('aria-posinset', '1');
    expect(screen.queryByRole('button', { name: 'EUR/USD ORD-200' })).not.toBeInTheDocument();

    row(orders[0]!).focus();
    await user.keyboard('{End}');
    const last = await screen.findByRole('button', { name: 'EUR/USD ORD-200' });
    await waitFor(() => expect(last).toHaveFocus());
    expect(last.closest('li')).toHaveAttribute('aria-posinset', '200');
    expect(shown().length).toBeLessThan(20);

    await user.keyboard('{ArrowUp}');
    await waitFor(() => expect(row(orders[198]!)).toHaveFocus());
    await user.keyboard('{Home}');
    await waitFor(() => expect(row(orders[0]!)).toHaveFocus());
    expect(shown().length).toBeLessThan(20);
  });
});
