import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TradeButtons } from '../../../src/app/features/trading/trade-buttons';
import { productOrderInfo } from '../../../src/shared/api/market';
import { addOrder, addOrderMock } from '../../../src/shared/api/trading';
import { Direction } from '../../../src/shared/trading/order-rules';
import { pushPrice, signIn } from '../support/engine-state';
import { createFakeServer } from '../support/fake-server';
import { t } from '../support/i18n';
import { eurusd, orderInfoOf } from '../support/products';
import { renderView } from '../support/render';

function tradingServer() {
  const server = createFakeServer();
  server.on(productOrderInfo, () => orderInfoOf(eurusd));
  server.on(addOrder, () => 'ORD-2001');
  server.on(addOrderMock, () => 'MOCK-2001');
  return server;
}

const oneClickSwitch = () => screen.getByRole('switch', { name: t('trade.one_click') });

/** The buttons, signed in on the real account; one-click off (it is one setting for the whole tab, and an earlier test may have left it on). */
async function showButtons(onTrade?: (direction: Direction) => void) {
  signIn('real');
  pushPrice('EURUSD', '1.08500', '1.08512');
  const view = renderView(<TradeButtons product={eurusd} status="open" {...(onTrade ? { onTrade } : {})} />, { server: tradingServer() });
  if (oneClickSwitch().getAttribute('aria-checked') === 'true') await view.user.click(oneClickSwitch());
  return view;
}
const buyButton = () => screen.getByRole('button', { name: t('market.buy') });

describe('one-click trading on the Buy and Sell buttons', () => {
  it('is off at first: Buy opens the ticket and sends nothing', async () => {
    const opened: Direction[] = [];
    const { user, server } = await showButtons((direction) => opened.push(direction));
    expect(oneClickSwitch()).toHaveAttribute('aria-checked', 'false');
    expect(screen.queryByRole('textbox', { name: t('trade.one_click_lots') })).toBeNull();
    await user.click(buyButton());
    expect(opened).toEqual([Direction.buy]);
    expect(server.bodiesOf(addOrder)).toEqual([]);
  });

  it('turns on only after its confirmation; declined, it stays off', async () => {
    const { user } = await showButtons(() => undefined);
    await user.click(oneClickSwitch());
    const question = await screen.findByRole('dialog', { name: t('trade.one_click_confirm_title') });
    expect(question).toHaveTextContent(t('trade.one_click_confirm'));
    await user.click(within(question).getByRole('button', { name: t('common.cancel') }));
    expect(oneClickSwitch()).toHaveAttribute('aria-checked', 'false');

    await user.click(oneClickSwitch());
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: t('trade.one_click_turn_on') }));
    expect(oneClickSwitch()).toHaveAttribute('aria-checked', 'true');
    // Switched off again at once, without a question.
    await user.click(oneClickSwitch());
    expect(oneClickSwitch()).toHaveAttribute('aria-checked', 'false');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('with it on, Buy places a market order of the lots between the buttons at once, and says so', async () => {
    const opened: Direction[] = [];
    const { user, server } = await showButtons((direction) => opened.push(direction));
    await user.click(oneClickSwitch());
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: t('trade.one_click_turn_on') }));
    const lots = screen.getByRole('textbox', { name: t('trade.one_click_lots') });
    await user.clear(lots);
    await user.type(lots, '0.5');
    await user.click(screen.getByRole('button', { name: t('market.sell') }));
    await waitFor(() => expect(server.bodiesOf(addOrder)).toHaveLength(1));
    expect(server.bodiesOf(addOrder)[0]).toMatchObject({ tradePair: 'EURUSD', price: '0', orderQuantity: '0.50', multiple: 100, orderType: Direction.sell, buyPoint: 2 });
    expect(await screen.findByText(t('trade.one_click_placed', { side: t('market.sell'), volume: '0.50', product: 'EUR/USD' }))).toBeInTheDocument();
    expect(opened).toEqual([]);
    expect(lots).toHaveValue('0.50');
  });

  it('sends nothing for lots above the product’s maximum: the field is set to it with the ticket’s message', async () => {
    const { user, server } = await showButtons(() => undefined);
    await user.click(oneClickSwitch());
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: t('trade.one_click_turn_on') }));
    const lots = screen.getByRole('textbox', { name: t('trade.one_click_lots') });
    await user.clear(lots);
    await user.type(lots, '80');
    await user.click(buyButton());
    expect(await screen.findByText(t('trade.volume_max', { max: '50.00' }))).toBeInTheDocument();
    expect(lots).toHaveValue('50.00');
    expect(server.bodiesOf(addOrder)).toEqual([]);
  });
});
