import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { LoadedOptionProduct } from '../../../src/app/features/catalogue/option-products';
import { OptionPlaceForm } from '../../../src/app/features/trading/options/option-place-form';
import { addOptionOrder, addOptionOrderMock } from '../../../src/shared/api/options';
import { OptionDirection, parseTimeRatePayload } from '../../../src/shared/options/option-rules';
import { pushBalance, pushPrice, signIn } from '../support/engine-state';
import { createFakeServer } from '../support/fake-server';
import { t } from '../support/i18n';
import { eurusd } from '../support/products';
import { renderView } from '../support/render';

/**
 * EUR/USD options with a 1 % fee: 30 s at 80 % (10 to 500, chips 10/50/100) and 60 s at
 * 87.5 % (at least 20, no maximum), as the server's payload writes them.
 */
const timeRatePayload = { a: '30;80;10|50|100;500;10', b: '60;87.5;;0;20' };
const optionProduct: LoadedOptionProduct = {
  id: 4,
  productCode: 'EURUSD',
  productName: 'EUR/USD',
  tradeStatus: 1,
  feeRate: '0.01',
  timeRatePayload,
  entries: parseTimeRatePayload(timeRatePayload).entries,
};

async function openOptionTicket(options: { balance?: string; book?: 'real' | 'demo'; status?: 'open' | 'closed' } = {}) {
  signIn(options.book ?? 'real');
  pushPrice('EURUSD', '1.08500', '1.08512');
  pushBalance(options.balance ?? '1000.00');
  const server = createFakeServer();
  server.on(addOptionOrder, () => ({ uid: 'OPT-77', beginTime: Date.now() }));
  server.on(addOptionOrderMock, () => ({ uid: 'OPT-DEMO', beginTime: Date.now() }));
  const view = renderView(<OptionPlaceForm product={eurusd} optionProduct={optionProduct} status={options.status ?? 'open'} direction={OptionDirection.up} />, { server });
  return { ...view, submit: () => screen.getByRole('button', { name: t('option.buy_up') }), amount: screen.getByRole('textbox', { name: t('option.amount') }) };
}

const delivery = (seconds: number) => screen.getByRole('radio', { name: new RegExp(`^${t('option.seconds', { seconds })}`) });

describe('the option ticket', () => {
  it('asks for a delivery time before anything is sent', async () => {
    const { user, server, submit, amount } = await openOptionTicket();
    await user.type(amount, '50');
    await user.click(submit());
    expect(await screen.findByRole('alert')).toHaveTextContent(t('option.delivery_empty_rule'));
    expect(server.bodiesOf(addOptionOrder)).toEqual([]);
  });

  it('refuses an amount that is not a whole number, or outside the delivery time\'s bounds', async () => {
    const { user, server, submit, amount } = await openOptionTicket();
    await user.click(delivery(30));
    await user.type(amount, '12.5');
    await user.click(submit());
    expect(await screen.findByRole('alert')).toHaveTextContent(t('option.amount_positive_int_rule'));

    await user.clear(amount);
    await user.type(amount, '600');
    await user.click(submit());
    expect(await screen.findByRole('alert')).toHaveTextContent(t('option.amount_range_rule', { min: '10', max: '500' }));

    // The 60 s entry has no maximum: only its minimum is said.
    await user.click(delivery(60));
    await user.clear(amount);
    await user.type(amount, '5');
    await user.click(submit());
    expect(await screen.findByRole('alert')).toHaveTextContent(t('option.amount_min_rule', { min: '20' }));
    expect(server.bodiesOf(addOptionOrder)).toEqual([]);
  });

  it('refuses an amount whose fee takes it past the available balance', async () => {
    const { user, server, submit, amount } = await openOptionTicket({ balance: '100.00' });
    await user.click(delivery(30));
    // 100 and its 1 % fee are 101: one more than there is.
    await user.type(amount, '100');
    await user.click(submit());
    expect(await screen.findByRole('alert')).toHaveTextContent(t('option.insufficient_balance'));
    expect(server.bodiesOf(addOptionOrder)).toEqual([]);
  });

  it('previews the profit and fee of the chosen entry, and places the option at the rate shown', async () => {
    const { user, server, submit } = await openOptionTicket();
    await user.click(delivery(30));
    await user.click(within(screen.getByRole('group', { name: t('option.chips') })).getByRole('button', { name: '100' }));
    expect(screen.getByTestId('option-expected-profit')).toHaveTextContent('80.00');
    expect(screen.getByTestId('option-fee')).toHaveTextContent('1.00');

    await user.click(submit());
    await waitFor(() => expect(server.bodiesOf(addOptionOrder)).toHaveLength(1));
    expect(server.bodiesOf(addOptionOrder)[0]).toMatchObject({ tradePair: 'EURUSD', optionsProductId: 4, timeLong: 30, rate: '0.8', amount: '100', orderType: OptionDirection.up, price: '1.08500' });
    expect(await screen.findByRole('dialog', { name: t('option.progress_title') })).toBeInTheDocument();
  });

  it('keeps the stepper within the entry\'s bounds', async () => {
    const { user, amount } = await openOptionTicket();
    await user.click(delivery(30));
    await user.click(screen.getByRole('button', { name: t('option.decrease') }));
    expect(amount).toHaveValue('10');
    await user.click(screen.getByRole('button', { name: t('option.decrease') }));
    expect(amount).toHaveValue('10');
    await user.clear(amount);
    await user.type(amount, '500');
    await user.click(screen.getByRole('button', { name: t('option.increase') }));
    expect(amount).toHaveValue('500');
  });

  it('places a demo session\'s option on the demo book', async () => {
    const { user, server, submit, amount } = await openOptionTicket({ book: 'demo' });
    await user.click(delivery(30));
    await user.type(amount, '10');
    await user.click(submit());
    await waitFor(() => expect(server.bodiesOf(addOptionOrderMock)).toHaveLength(1));
    expect(server.bodiesOf(addOptionOrder)).toEqual([]);
  });

  it('shows the closed market on the button', async () => {
    await openOptionTicket({ status: 'closed' });
    expect(screen.getByRole('button', { name: t('chart.market_closed') })).toBeDisabled();
  });
});
