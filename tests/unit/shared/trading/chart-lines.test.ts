import { describe, expect, it } from 'vitest';
import type { OptionOrder } from '../../../../src/shared/api/options';
import type { TradeOrder } from '../../../../src/shared/api/trading';
import { checkLineDrop, optionLinesOf, optionStanding, priceFromDrag, tradeLinesOf, type ChartLine } from '../../../../src/shared/trading/chart-lines';
import { Direction, OrderStatus } from '../../../../src/shared/trading/order-rules';

/** An open EUR/USD buy of 1.5 lots at 1.08000, with a stop loss at 1.07000 and a take profit at 1.09000. */
function order(change: Partial<TradeOrder> = {}): TradeOrder {
  return {
    id: 1,
    uid: 'ORD-1',
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
    currentPrice: '1.08100',
    closingPrice: null,
    stopPrice: '1.07000',
    takeProfitPrice: '1.09000',
    profitLoss: '150.00',
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

/** A pending EUR/USD sell limit at 1.09000 with a stop loss at 1.10000. */
const pendingSell = order({ uid: 'ORD-2', orderType: Direction.sell, buyPoint: 1, status: OrderStatus.pending, openingPrice: null, limitPrice: '1.09000', currentPrice: null, stopPrice: '1.10000', takeProfitPrice: null, profitLoss: null });
const quote = { bid: '1.08100', ask: '1.08120' };
const line = (lines: ChartLine[], id: string) => lines.find((each) => each.id === id) as ChartLine;

describe('the lines of what the trader holds', () => {
  it('draws an open position’s entry with its live profit, its stop loss and take profit; only the levels move', () => {
    const lines = tradeLinesOf('EURUSD', [order()]);
    expect(lines.map((each) => [each.kind, each.price, each.draggable])).toEqual([
      ['entry', '1.08000', false],
      ['stopLoss', '1.07000', true],
      ['takeProfit', '1.09000', true],
    ]);
    expect(line(lines, 'ORD-1:entry').profitLoss).toBe('150.00');
  });

  it('draws a pending order’s price (draggable) with its levels, and nothing of other symbols or closed orders', () => {
    const lines = tradeLinesOf('EURUSD', [pendingSell, order({ uid: 'X', tradePair: 'GBPUSD' }), order({ uid: 'Y', status: OrderStatus.deal })]);
    expect(lines.map((each) => each.id)).toEqual(['ORD-2:pending', 'ORD-2:stopLoss']);
    expect(line(lines, 'ORD-2:pending').draggable).toBe(true);
  });

  it('draws no level an order does not have', () => {
    expect(tradeLinesOf('EURUSD', [order({ stopPrice: null, takeProfitPrice: null })]).map((each) => each.kind)).toEqual(['entry']);
  });

  it('draws each running option of the symbol at its start price, not a settled one', () => {
    const option = { uid: 'OPT-1', tradePair: 'EURUSD', status: 0, price: '1.08050', orderType: 0, amount: '100' } as OptionOrder;
    const lines = optionLinesOf('EURUSD', [option, { ...option, uid: 'OPT-2', status: 1 }, { ...option, uid: 'OPT-3', tradePair: 'BTCUSDT' }]);
    expect(lines.map((each) => [each.id, each.price, each.draggable])).toEqual([['OPT-1:optionStart', '1.08050', false]]);
  });
});

describe('a running option’s standing', () => {
  const up = { orderType: 0, price: '1.08050', amount: '100', rate: '0.8' };
  it('is winning above the start for up, losing below, even at it; the reverse for down', () => {
    expect(optionStanding(up, '1.08051')).toBe('winning');
    expect(optionStanding(up, '1.08049')).toBe('losing');
    expect(optionStanding(up, '1.08050')).toBe('even');
    expect(optionStanding({ ...up, orderType: 1 }, '1.08049')).toBe('winning');
    expect(optionStanding(up, null)).toBeNull();
  });
});

describe('the price of a drag', () => {
  it('is rounded to the product’s digits', () => {
    expect(priceFromDrag(1.0712345, 5)).toBe('1.07123');
    expect(priceFromDrag(1.0712351, 5)).toBe('1.07124');
    expect(priceFromDrag(43210.456, 2)).toBe('43210.46');
    expect(priceFromDrag(43210.5, 0)).toBe('43211');
  });
  it('is no price off the scale', () => {
    expect(priceFromDrag(undefined, 5)).toBeNull();
    expect(priceFromDrag(Number.NaN, 5)).toBeNull();
    expect(priceFromDrag(-1, 5)).toBeNull();
    expect(priceFromDrag(0.000001, 5)).toBeNull();
  });
});

describe('a drop, checked by the form’s rules', () => {
  const lines = tradeLinesOf('EURUSD', [order(), pendingSell]);

  it('moves a buy’s stop loss below the price it closes at, on the price grid, with the modify request', () => {
    expect(checkLineDrop(line(lines, 'ORD-1:stopLoss'), order(), 1.074567, quote, 5)).toEqual({ ok: true, price: '1.07457', body: { orderId: 'ORD-1', stopPrice: '1.07457' } });
  });

  it('asks nothing when a line is let go on the price it already has (pressed, not moved)', () => {
    expect(checkLineDrop(line(lines, 'ORD-1:stopLoss'), order(), 1.070001, quote, 5)).toEqual({ ok: false, unchanged: true });
    expect(checkLineDrop(line(lines, 'ORD-2:pending'), pendingSell, 1.09, quote, 5)).toEqual({ ok: false, unchanged: true });
    // A click on the fixed entry line is not an attempt to move it.
    expect(checkLineDrop(line(lines, 'ORD-1:entry'), order(), 1.08, quote, 5)).toEqual({ ok: false, unchanged: true });
  });

  it('refuses a buy’s stop loss above the bid with the form’s message and the price it must stay below', () => {
    expect(checkLineDrop(line(lines, 'ORD-1:stopLoss'), order(), 1.0811, quote, 5)).toEqual({ ok: false, messageKey: 'trade.stoploss_below_buy', params: { price: '1.08100' } });
  });

  it('refuses a buy’s take profit below the bid and moves it above', () => {
    expect(checkLineDrop(line(lines, 'ORD-1:takeProfit'), order(), 1.0805, quote, 5)).toMatchObject({ ok: false, messageKey: 'trade.takeprofit_above_buy' });
    expect(checkLineDrop(line(lines, 'ORD-1:takeProfit'), order(), 1.095, quote, 5)).toEqual({ ok: true, price: '1.09500', body: { orderId: 'ORD-1', takeProfitPrice: '1.09500' } });
  });

  it('checks a pending order’s stop loss against its limit, not the market', () => {
    expect(checkLineDrop(line(lines, 'ORD-2:stopLoss'), pendingSell, 1.0895, quote, 5)).toMatchObject({ ok: false, messageKey: 'trade.stoploss_above_sell', params: { price: '1.09000' } });
    expect(checkLineDrop(line(lines, 'ORD-2:stopLoss'), pendingSell, 1.0905, quote, 5)).toMatchObject({ ok: true, body: { orderId: 'ORD-2', stopPrice: '1.09050' } });
  });

  it('moves a sell limit only at or above the bid and within the band', () => {
    expect(checkLineDrop(line(lines, 'ORD-2:pending'), pendingSell, 1.0809, quote, 5)).toMatchObject({ ok: false, messageKey: 'trade.min_is' });
    expect(checkLineDrop(line(lines, 'ORD-2:pending'), pendingSell, 1.7, quote, 5)).toMatchObject({ ok: false, messageKey: 'trade.pending_price_band' });
    expect(checkLineDrop(line(lines, 'ORD-2:pending'), pendingSell, 1.085, quote, 5)).toEqual({ ok: true, price: '1.08500', body: { orderId: 'ORD-2', price: '1.08500' } });
  });

  it('refuses a pending price that would put the order’s stop loss on the wrong side', () => {
    expect(checkLineDrop(line(lines, 'ORD-2:pending'), pendingSell, 1.105, quote, 5)).toMatchObject({ ok: false, messageKey: 'trade.stoploss_above_sell' });
  });

  it('never moves an entry line, and needs a price to check against', () => {
    expect(checkLineDrop(line(lines, 'ORD-1:entry'), order(), 1.07, quote, 5)).toEqual({ ok: false, messageKey: 'chart.line_fixed' });
    expect(checkLineDrop(line(lines, 'ORD-2:pending'), pendingSell, 1.085, null, 5)).toEqual({ ok: false, messageKey: 'chart.line_no_price' });
    expect(checkLineDrop(line(lines, 'ORD-1:stopLoss'), order(), undefined, quote, 5)).toEqual({ ok: false, messageKey: 'trade.wrong_price' });
  });
});
