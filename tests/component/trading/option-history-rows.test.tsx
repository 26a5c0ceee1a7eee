import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { OptionHistoryGrid, OptionHistoryList } from '../../../src/app/features/trading/history/option-history';
import { optionOrderList, type OptionOrder } from '../../../src/shared/api/options';
import { OptionDirection } from '../../../src/shared/options/option-rules';
import { loadCatalogue, signIn } from '../support/engine-state';
import { createFakeServer } from '../support/fake-server';
import { t } from '../support/i18n';
import { eurusd } from '../support/products';
import { renderView } from '../support/render';

/** A settled EUR/USD up option of 100 with a 2.50 fee. */
function settled(change: Partial<OptionOrder>): OptionOrder {
  return {
    id: 1,
    uid: 'OPT-1',
    orderType: OptionDirection.up,
    tradePair: 'EURUSD',
    productName: 'EUR/USD',
    optionsProductId: 4,
    price: '1.084',
    priceTime: Date.UTC(2026, 11, 4, 9, 0),
    priceEnd: '1.08412',
    priceEndTime: Date.UTC(2026, 11, 4, 9, 1),
    feeAmount: '2.5',
    timeLong: 60,
    beginTime: Date.UTC(2026, 11, 4, 9, 0),
    endTime: Date.UTC(2026, 11, 4, 9, 1),
    completeTime: Date.UTC(2026, 11, 4, 9, 1),
    amount: '100',
    rate: '0.8',
    winLost: '80',
    status: 1,
    positionStatus: 1,
    result: 'win',
    voidReason: null,
    ...change,
  };
}

const win = settled({ uid: 'OPT-WIN' });
const voided = settled({ uid: 'OPT-VOID', result: 'void', voidReason: 'no-price', winLost: '0', priceEnd: null, priceEndTime: null });
const draw = settled({ uid: 'OPT-DRAW', result: 'equal', winLost: '0', priceEnd: '1.084' });
const demoReset = settled({ uid: 'OPT-RESET', result: 'void', voidReason: 'demo-reset', winLost: '0', priceEnd: null, priceEndTime: null });

async function openHistory(view: 'list' | 'grid') {
  signIn();
  loadCatalogue([eurusd]);
  const server = createFakeServer();
  server.on(optionOrderList, () => ({ items: [win, voided, draw, demoReset], pages: 1, todayWinLoss: '80', totalWinLoss: '80' }));
  const rendered = renderView(view === 'list' ? <OptionHistoryList /> : <OptionHistoryGrid />, { server, path: '/history' });
  await screen.findByTestId('option-history-result-OPT-RESET');
  return rendered;
}

const result = (uid: string) => screen.getByTestId(`option-history-result-${uid}`);

describe('settled option rows', () => {
  it.each(['list', 'grid'] as const)('say a void refunded the amount and the fee, and show that refund, never a 0.00 result (%s)', async (view) => {
    await openHistory(view);
    expect(result('OPT-VOID')).toHaveTextContent(t('option.result_void'));
    expect(within(result('OPT-VOID')).getByText('102.50')).toBeInTheDocument();
    expect(result('OPT-VOID')).not.toHaveTextContent('0.00 ');
    expect(result('OPT-VOID')).not.toHaveClass('up');
    // A draw gives the amount back (the fee is kept).
    expect(result('OPT-DRAW')).toHaveTextContent(t('option.result_equal'));
    expect(within(result('OPT-DRAW')).getByText('100.00')).toBeInTheDocument();
    // A win keeps its result, toned.
    expect(result('OPT-WIN')).toHaveTextContent(`${t('option.result_win')}80.00`);
    expect(result('OPT-WIN')).toHaveClass('up');
    // A demo reset moved no money: its words, no figure.
    expect(result('OPT-RESET').textContent).toBe(t('option.result_void'));
  });

  it('carry the settled status in words and the specification’s blue', async () => {
    await openHistory('list');
    const row = screen.getByRole('button', { name: 'EUR/USD OPT-VOID' });
    const badge = within(row).getByText(t('option.settled'));
    expect(badge).toHaveAttribute('data-tone', 'blue');
  });

  it('show a void’s refund in its details, under its own label', async () => {
    const { user } = await openHistory('list');
    await user.click(screen.getByRole('button', { name: 'EUR/USD OPT-VOID' }));
    const details = screen.getByRole('dialog');
    const refundTerm = within(details).getByText(t('history.refunded'));
    expect(refundTerm.nextElementSibling).toHaveTextContent('102.50');
    expect(within(details).queryByText(t('history.win_loss'))).toBeNull();
  });
});
