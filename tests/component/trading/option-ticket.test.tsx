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
import type { KlineWatches } from '../../../src/app/engine/engine-client';
import type { WireBar } from '../../../src/shared/market/kline';

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

/** The engine's 1-minute bars of EUR/USD, as the mini chart asks for them: 12 closes. */
function fakeKlines() {
  const asked: string[] = [];
  const bars: WireBar[] = Array.from({ length: 12 }, (_, index) => {
    const close = `1.08${String(400 + index * 3)}`;
    return { time: Date.UTC(2026, 11, 4, 9, index), openPrice: close, highestPrice: close, lowestPrice: close, closePrice: close, volume: '0', turnover: '0' };
  });
  const klines: KlineWatches = {
    watch: async (symbol, period) => {
      asked.push(`watch ${symbol} ${period}`);
      return [];
    },
    unwatch: () => undefined,
    range: async (symbol, period) => {
      asked.push(`range ${symbol} ${period}`);
      return bars;
    },
  };
  return { klines, asked, bars };
}

async function openOptionTicket(options: { balance?: string; book?: 'real' | 'demo'; status?: 'open' | 'closed' } = {}) {
  signIn(options.book ?? 'real');
  pushPrice('EURUSD', '1.08500', '1.08512');
  pushBalance(options.balance ?? '1000.00');
  const server = createFakeServer();
  server.on(addOptionOrder, () => ({ uid: 'OPT-77', beginTime: Date.now() }));
  server.on(addOptionOrderMock, () => ({ uid: 'OPT-DEMO', beginTime: Date.now() }));
  const chart = fakeKlines();
  const view = renderView(<OptionPlaceForm product={eurusd} optionProduct={optionProduct} status={options.status ?? 'open'} direction={OptionDirection.up} />, { server, klines: chart.klines });
  return { ...view, chart, submit: () => screen.getByRole('button', { name: t('option.buy_up') }), amount: screen.getByRole('textbox', { name: t('option.amount') }) };
}

const delivery = (seconds: number) => screen.getByRole('radio', { name: new RegExp(`^${t('option.seconds', { seconds })}`) });

describe('the option ticket', () => {
  it('starts with the first delivery time and its minimum amount chosen, ready to place as shown', async () => {
    const { user, server, submit, amount } = await openOptionTicket();
    expect(delivery(30)).toBeChecked();
    expect(delivery(60)).not.toBeChecked();
    expect(amount).toHaveValue('10');
    // 10 at 80 %: 8.00 profit, 0.10 fee.
    expect(screen.getByTestId('option-expected-profit')).toHaveTextContent('8.00');
    expect(screen.getByTestId('option-fee')).toHaveTextContent('0.10');
    await user.click(submit());
    await waitFor(() => expect(server.bodiesOf(addOptionOrder)).toHaveLength(1));
    expect(server.bodiesOf(addOptionOrder)[0]).toMatchObject({ timeLong: 30, amount: '10', rate: '0.8' });
  });

  it('takes another delivery time’s minimum while the amount is not typed, and keeps a typed one', async () => {
    const { user, amount } = await openOptionTicket();
    await user.click(delivery(60));
    expect(amount).toHaveValue('20');
    await user.clear(amount);
    await user.type(amount, '75');
    await user.click(delivery(30));
    expect(amount).toHaveValue('75');
  });

  it('draws a small line of the symbol’s last 1-minute closes from the engine’s bars', async () => {
    const { chart, container } = await openOptionTicket();
    await waitFor(() => expect(container.querySelector('svg.mini-chart')).toHaveAttribute('data-points', String(chart.bars.length)));
    expect(chart.asked).toEqual(expect.arrayContaining(['range EURUSD 1min', 'watch EURUSD 1min']));
    expect(container.querySelector('svg.mini-chart polyline')?.getAttribute('points')?.split(' ')).toHaveLength(chart.bars.length);
  });

  it('shows the live price at the product’s digits, its trailing zeros kept', async () => {
    await openOptionTicket();
    pushPrice('EURUSD', '1.084', '1.08412');
    expect(await screen.findByTestId('option-current')).toHaveTextContent('1.08400');
  });

  it('refuses an amount that is not a whole number, or outside the delivery time\'s bounds', async () => {
    const { user, server, submit, amount } = await openOptionTicket();
    await user.click(delivery(30));
    await user.clear(amount);
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
    await user.clear(amount);
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
    await user.clear(amount);
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
