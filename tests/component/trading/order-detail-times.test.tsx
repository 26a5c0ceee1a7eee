import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { HistoryDetails } from '../../../src/app/features/trading/history/history-parts';
import { transactionOrdersOf } from '../../../src/app/features/trading/history/market-history';
import { transactionOptionsOf } from '../../../src/app/features/trading/history/option-history';
import type { OptionOrder } from '../../../src/shared/api/options';
import type { TradeOrder } from '../../../src/shared/api/trading';
import { OptionDirection, OptionStatus } from '../../../src/shared/options/option-rules';
import { Direction, OrderStatus } from '../../../src/shared/trading/order-rules';
import { loadCatalogue, signIn } from '../support/engine-state';
import { t } from '../support/i18n';
import { eurusd } from '../support/products';
import { renderView } from '../support/render';

const placed = Date.UTC(2026, 11, 4, 9, 0);

/** An EUR/USD buy of 1.5 lots in the given status, with every time the book may hold for it. */
function order(status: number): TradeOrder {
  return {
    id: status,
    uid: `ORD-${status}`,
    orderType: Direction.buy,
    buyPoint: 1,
    status,
    positionStatus: status,
    tradePair: 'EURUSD',
    productName: 'EUR/USD',
    orderQuantity: '1.50',
    lever: 100,
    securityDepositInitial: '1620.00',
    openingPrice: status === OrderStatus.position || status === OrderStatus.deal ? '1.08000' : null,
    limitPrice: '1.08000',
    currentPrice: null,
    closingPrice: status === OrderStatus.deal ? '1.08500' : null,
    stopPrice: null,
    takeProfitPrice: null,
    profitLoss: '0.00',
    feeAmount: '3.24',
    overnightFee: '0.00',
    closeReason: null,
    orderTime: placed,
    orderTimeTs: placed,
    transactionTime: placed + 60_000,
    transactionTimeTs: placed + 60_000,
    // A canceled order keeps the time it was canceled at here.
    closingTimeTs: status === OrderStatus.deal || status === OrderStatus.canceled ? placed + 120_000 : null,
    closableAfterTime: null,
  };
}

function option(status: OptionOrder['status']): OptionOrder {
  return {
    id: 1,
    uid: `OPT-${status}`,
    orderType: OptionDirection.up,
    tradePair: 'EURUSD',
    productName: 'EUR/USD',
    optionsProductId: 4,
    price: '1.084',
    priceTime: placed,
    priceEnd: status === OptionStatus.settled ? '1.08412' : null,
    priceEndTime: status === OptionStatus.settled ? placed + 60_000 : null,
    feeAmount: '2.5',
    timeLong: 60,
    beginTime: placed,
    endTime: placed + 60_000,
    completeTime: status === OptionStatus.settled ? placed + 60_000 : null,
    amount: '100',
    rate: '0.8',
    winLost: status === OptionStatus.settled ? '80' : null,
    status,
    positionStatus: status,
    result: status === OptionStatus.settled ? 'win' : null,
    voidReason: null,
  };
}

const labels = () => screen.getAllByRole('term').map((term) => term.textContent);

describe("an order's details", () => {
  it.each([
    [OrderStatus.pending, false, false],
    [OrderStatus.position, true, false],
    [OrderStatus.deal, true, true],
    [OrderStatus.canceled, false, false],
  ])('of a market order in status %i show the place time: %s, the cover time: %s', (status, placeTime, coverTime) => {
    signIn();
    loadCatalogue([eurusd]);
    renderView(<HistoryDetails kind={transactionOrdersOf(null)} item={order(status)} />);
    expect(labels()).toContain(t('position.order_time'));
    expect(labels().includes(t('history.open_time'))).toBe(placeTime);
    expect(labels().includes(t('history.close_time'))).toBe(coverTime);
  });

  it.each([
    [OptionStatus.running, false],
    [OptionStatus.settled, true],
  ])('of an option in status %i show the settlement time: %s', (status, settlementTime) => {
    signIn();
    loadCatalogue([eurusd]);
    renderView(<HistoryDetails kind={transactionOptionsOf(status)} item={option(status)} />);
    expect(labels()).toContain(t('history.execution_time'));
    expect(labels().includes(t('option.settlement_time'))).toBe(settlementTime);
  });
});
