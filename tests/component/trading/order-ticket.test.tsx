import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PlaceForm } from '../../../src/app/features/trading/place-form';
import { productOrderInfo } from '../../../src/shared/api/market';
import { addOrder, addOrderMock } from '../../../src/shared/api/trading';
import { Direction } from '../../../src/shared/trading/order-rules';
import { pushBalance, pushPrice, signIn } from '../support/engine-state';
import { createFakeServer } from '../support/fake-server';
import { t } from '../support/i18n';
import { eurusd, orderInfoOf } from '../support/products';
import { renderView } from '../support/render';

/** EUR/USD quoted at 1.08500 / 1.08512: a buy fills at the ask, a sell at the bid. */
const bid = '1.08500';
const ask = '1.08512';

function ticketServer() {
  const server = createFakeServer();
  server.on(productOrderInfo, () => orderInfoOf(eurusd));
  server.on(addOrder, () => 'ORD-1001');
  server.on(addOrderMock, () => 'MOCK-1001');
  return server;
}

async function openTicket(direction: Direction, book: 'real' | 'demo' = 'real') {
  signIn(book);
  pushPrice('EURUSD', bid, ask);
  pushBalance('10000.00');
  const view = renderView(<PlaceForm product={eurusd} status="open" direction={direction} />, { server: ticketServer() });
  const submit = screen.getByRole('button', { name: t(direction === Direction.buy ? 'market.buy' : 'market.sell') });
  // The form does not submit until the signed-in terms have answered.
  await waitFor(() => expect(submit).toBeEnabled());
  return { ...view, submit };
}

const field = (key: string) => screen.getByRole('textbox', { name: t(key) });

describe('the order ticket at the market price', () => {

  it('places a buy at the ask with the volume, leverage and a stop loss below the ask', async () => {
    const { user, server, submit } = await openTicket(Direction.buy);
    expect(screen.getByTestId('place-current')).toHaveTextContent('1.08512');

    await user.clear(field('trade.volume'));
    await user.type(field('trade.volume'), '1.5');
    await user.click(screen.getByRole('checkbox', { name: t('trade.stop_loss') }));
    await user.type(field('trade.stop_loss_price'), '1.08');
    await user.click(submit);

    await waitFor(() => expect(server.bodiesOf(addOrder)).toHaveLength(1));
    expect(server.bodiesOf(addOrder)[0]).toMatchObject({ tradePair: 'EURUSD', price: '0', orderQuantity: '1.50', stopPrice: '1.08000', multiple: 100, orderType: Direction.buy, buyPoint: 2 });
    expect(await screen.findByRole('region', { name: t('trade.placed_title') })).toHaveTextContent('ORD-1001');
    expect(server.unanswered).toEqual([]);
  });

  it('sets a buy\'s stop loss above the ask to the ask, saying the maximum; the submit that left the field sends nothing, the next sends the ask', async () => {
    const { user, server, submit } = await openTicket(Direction.buy);
    await user.click(screen.getByRole('checkbox', { name: t('trade.stop_loss') }));
    await user.type(field('trade.stop_loss_price'), '1.09');
    // Straight from the field to the button: the blur sets the field, the click that came with it is held.
    await user.click(submit);

    expect(await screen.findByRole('alert')).toHaveTextContent(t('trade.max_is', { value: ask }));
    expect(field('trade.stop_loss_price')).toHaveValue(ask);
    expect(field('trade.stop_loss_price')).toHaveAttribute('aria-invalid', 'true');
    expect(server.bodiesOf(addOrder)).toEqual([]);

    // Seen, and submitted again: at the value shown.
    await user.click(submit);
    await waitFor(() => expect(server.bodiesOf(addOrder)).toHaveLength(1));
    expect(server.bodiesOf(addOrder)[0]).toMatchObject({ orderType: Direction.buy, stopPrice: ask });
  });

  it('measures a sell\'s stop loss and take profit from the bid, each on its own side', async () => {
    const { user, server, submit } = await openTicket(Direction.sell);
    await user.click(screen.getByRole('checkbox', { name: t('trade.stop_loss') }));
    await user.click(screen.getByRole('checkbox', { name: t('trade.take_profit') }));
    await user.type(field('trade.stop_loss_price'), '1.08');
    await user.type(field('trade.take_profit_price'), '1.09');
    await user.click(submit);

    const alerts = await screen.findAllByRole('alert');
    expect(alerts.map((alert) => alert.textContent)).toEqual([t('trade.min_is', { value: bid }), t('trade.max_is', { value: bid })]);
    expect(field('trade.stop_loss_price')).toHaveValue(bid);
    expect(field('trade.take_profit_price')).toHaveValue(bid);
    expect(server.bodiesOf(addOrder)).toEqual([]);

    await user.clear(field('trade.stop_loss_price'));
    await user.type(field('trade.stop_loss_price'), '1.09');
    await user.clear(field('trade.take_profit_price'));
    await user.type(field('trade.take_profit_price'), '1.08');
    await user.click(submit);
    await waitFor(() => expect(server.bodiesOf(addOrder)).toHaveLength(1));
    expect(server.bodiesOf(addOrder)[0]).toMatchObject({ orderType: Direction.sell, stopPrice: '1.09000', takeProfitPrice: '1.08000' });
  });

  it('sets a volume above the maximum to the maximum and says so; below the minimum to the minimum', async () => {
    const { user } = await openTicket(Direction.buy);
    await user.clear(field('trade.volume'));
    await user.type(field('trade.volume'), '80');
    await user.tab();
    expect(field('trade.volume')).toHaveValue('50.00');
    expect(screen.getByRole('alert')).toHaveTextContent(t('trade.volume_max', { max: '50.00' }));

    await user.clear(field('trade.volume'));
    await user.type(field('trade.volume'), '0.001');
    await user.tab();
    // Two decimals are all a volume takes: "0.001" is typed as "0.00", below the minimum.
    expect(field('trade.volume')).toHaveValue('0.01');
    expect(screen.getByRole('alert')).toHaveTextContent(t('trade.volume_min', { min: '0.01' }));
  });

  it('places a demo session\'s order on the demo book', async () => {
    const { user, server, submit } = await openTicket(Direction.buy, 'demo');
    await user.click(submit);
    await waitFor(() => expect(server.bodiesOf(addOrderMock)).toHaveLength(1));
    expect(server.bodiesOf(addOrder)).toEqual([]);
  });

  it('shows the closed market on the button and places nothing', async () => {
    signIn();
    pushPrice('EURUSD', bid, ask);
    renderView(<PlaceForm product={eurusd} status="closed" direction={Direction.buy} />, { server: ticketServer() });
    expect(screen.getByRole('button', { name: t('chart.market_closed') })).toBeDisabled();
  });
});

describe('the order ticket for a pending order', () => {
  async function openPending(direction: Direction) {
    const view = await openTicket(direction);
    await view.user.click(within(screen.getByRole('group', { name: t('trade.price_type') })).getByRole('button', { name: t('trade.pending_order') }));
    return view;
  }

  it('sets a buy limit above the ask to the ask, saying the maximum', async () => {
    const { user } = await openPending(Direction.buy);
    await user.type(field('trade.limit_price'), '1.09');
    await user.tab();
    expect(field('trade.limit_price')).toHaveValue(ask);
    expect(screen.getByRole('alert')).toHaveTextContent(t('trade.max_is', { value: ask }));
  });

  it('sets a sell limit below the bid to the bid, saying the minimum', async () => {
    const { user } = await openPending(Direction.sell);
    await user.type(field('trade.limit_price'), '1.08');
    await user.tab();
    expect(field('trade.limit_price')).toHaveValue(bid);
    expect(screen.getByRole('alert')).toHaveTextContent(t('trade.min_is', { value: bid }));
  });

  it('sets a limit beyond the 50% band to the band\'s edge, saying the band', async () => {
    const { user } = await openPending(Direction.buy);
    await user.type(field('trade.limit_price'), '0.1');
    await user.tab();
    expect(field('trade.limit_price')).toHaveValue('0.54256');
    expect(screen.getByRole('alert')).toHaveTextContent(t('trade.pending_price_band', { percent: '50' }));
  });

  it('measures the stop loss from the limit, not the market, and places at the limit', async () => {
    const { user, server, submit } = await openPending(Direction.buy);
    await user.type(field('trade.limit_price'), '1.07');
    await user.click(screen.getByRole('checkbox', { name: t('trade.stop_loss') }));
    // Below the ask but above the limit: wrong for a buy that will fill at 1.07.
    await user.type(field('trade.stop_loss_price'), '1.075');
    await user.tab();
    expect(screen.getByRole('alert')).toHaveTextContent(t('trade.max_is', { value: '1.07000' }));
    expect(field('trade.stop_loss_price')).toHaveValue('1.07000');
    expect(server.bodiesOf(addOrder)).toEqual([]);

    await user.clear(field('trade.stop_loss_price'));
    await user.type(field('trade.stop_loss_price'), '1.06');
    await user.click(submit);
    await waitFor(() => expect(server.bodiesOf(addOrder)).toHaveLength(1));
    expect(server.bodiesOf(addOrder)[0]).toMatchObject({ price: '1.07000', buyPoint: 1, stopPrice: '1.06000' });
  });
});
