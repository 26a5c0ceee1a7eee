import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AccountStrip } from '../../../src/app/features/account/account-strip';
import type { PositionsSummary, TradeOrder } from '../../../src/shared/api/trading';
import { OrderStatus } from '../../../src/shared/trading/order-rules';
import { pushBalance, pushPositions, resetEngineSignals, signIn } from '../support/engine-state';
import { t } from '../support/i18n';
import { renderView } from '../support/render';

/** An open BTCUSDT position with this margin and open profit (the other fields as the feed sends them). */
function position(uid: string, margin: string, profitLoss: string): TradeOrder {
  return {
    id: 1, uid, orderType: 0, buyPoint: 2, status: OrderStatus.position, positionStatus: OrderStatus.position, tradePair: 'BTCUSDT', productName: 'Bitcoin', orderQuantity: '0.10', lever: 20,
    securityDepositInitial: margin, openingPrice: '67000.00', limitPrice: null, currentPrice: '67000.00', closingPrice: null, stopPrice: null, takeProfitPrice: null,
    profitLoss, feeAmount: '0.34', overnightFee: '0.00', closeReason: null, orderTime: 1_790_000_000_000, orderTimeTs: 1_790_000_000_000, transactionTime: 1_790_000_000_000, transactionTimeTs: null, closingTimeTs: null, closableAfterTime: null,
  };
}

/** The feed's summary around these orders (the strip computes its own figures from the orders). */
const summaryOf = (orders: TradeOrder[]): PositionsSummary => ({ orderList: orders, profitLossSum: '0', netValue: '0', securityDepositPrent: '0', securityDepositAvailableSum: '0' });
const empty = summaryOf([]);

const strip = () => screen.getByRole('region', { name: t('strip.label') });
const figure = (testId: string) => within(strip()).getByTestId(testId);
const marginCallNotices = () => screen.queryAllByRole('alert').filter((alert) => alert.textContent === t('strip.margin_call_notice', { level: 100 }));

afterEach(() => {
  vi.useRealTimers();
  resetEngineSignals();
});

/** Lets every toast shown so far time out, so that a count of notices counts only new ones. */
const toastsTimeOut = () => act(() => vi.advanceTimersByTime(30_000));

describe('the account strip', () => {
  it('shows balance, equity, used and free margin, the margin level and open P/L in the account currency, live', () => {
    signIn('demo');
    pushBalance('1000.00');
    pushPositions(summaryOf([position('P-1', '200.00', '-50.00')]), empty);
    renderView(<AccountStrip withConnection />);
    expect(within(strip()).getByText('USD')).toBeInTheDocument();
    expect(figure('strip-balance')).toHaveTextContent('1,200.00');
    expect(figure('strip-equity')).toHaveTextContent('1,150.00');
    expect(figure('strip-used-margin')).toHaveTextContent('200.00');
    expect(figure('strip-free-margin')).toHaveTextContent('950.00');
    expect(figure('strip-margin-level')).toHaveTextContent('575.00 %');
    expect(figure('strip-open-profit-loss')).toHaveTextContent('-50.00');
    expect(within(strip()).getByText(t('position.free_margin'))).toBeInTheDocument();
    expect(within(strip()).getByRole('img', { name: t('market.link_label', { state: t('market.link_connecting') }) })).toBeInTheDocument();
    expect(figure('strip-server-time')).toHaveTextContent(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    // The price moves: the positions feed pushes the new profit, the strip follows.
    act(() => pushPositions(summaryOf([position('P-1', '200.00', '25.00')]), empty));
    expect(figure('strip-equity')).toHaveTextContent('1,225.00');
    expect(figure('strip-margin-level')).toHaveTextContent('612.50 %');
  });

  it('shows "—" as the margin level while no margin is used', () => {
    signIn('demo');
    pushBalance('1000.00');
    pushPositions(empty, empty);
    renderView(<AccountStrip withConnection={false} />);
    expect(figure('strip-margin-level')).toHaveTextContent('—');
    expect(within(strip()).queryByRole('img')).toBeNull();
  });

  it('warns of a margin call in the strip below the brand\'s level, and tells it once per crossing, not at every price', () => {
    vi.useFakeTimers();
    signIn('real');
    pushBalance('0.00');
    // Equity 150 on 100 margin: 150 %, above the call.
    pushPositions(summaryOf([position('P-2', '100.00', '50.00')]), empty);
    const view = renderView(<AccountStrip withConnection={false} />);
    expect(strip()).not.toHaveAttribute('data-margin-call');
    expect(marginCallNotices()).toHaveLength(0);

    // 90 %: below the default level of 100 %.
    act(() => pushPositions(summaryOf([position('P-2', '100.00', '-10.00')]), empty));
    expect(strip()).toHaveAttribute('data-margin-call', 'true');
    expect(within(strip()).getByText(t('strip.margin_call', { level: 100 }))).toBeInTheDocument();
    expect(marginCallNotices()).toHaveLength(1);
    toastsTimeOut();
    expect(marginCallNotices()).toHaveLength(0);

    // Still below at the next prices: no second notice.
    act(() => pushPositions(summaryOf([position('P-2', '100.00', '-12.00')]), empty));
    act(() => pushPositions(summaryOf([position('P-2', '100.00', '-11.00')]), empty));
    expect(marginCallNotices()).toHaveLength(0);

    // A strip shown again on another screen does not tell the same call again.
    view.unmount();
    renderView(<AccountStrip withConnection={false} />);
    expect(marginCallNotices()).toHaveLength(0);

    // Back above, then below again: a new crossing, a new notice.
    act(() => pushPositions(summaryOf([position('P-2', '100.00', '5.00')]), empty));
    expect(strip()).not.toHaveAttribute('data-margin-call');
    act(() => pushPositions(summaryOf([position('P-2', '100.00', '-20.00')]), empty));
    expect(marginCallNotices()).toHaveLength(1);
  });

  it('takes the margin-call level from the brand\'s config', () => {
    signIn('real');
    pushBalance('0.00');
    // 120 %: a call at a level of 150 %, not at 100 %.
    pushPositions(summaryOf([position('P-3', '100.00', '20.00')]), empty);
    renderView(<AccountStrip withConnection={false} />, { config: { marginCallLevelPercent: 150 } });
    expect(within(strip()).getByText(t('strip.margin_call', { level: 150 }))).toBeInTheDocument();
  });
});
