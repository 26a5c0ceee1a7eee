import { describe, expect, it } from 'vitest';
import { formatMoney, money } from '../../../../src/shared/money/money';
import {
  closableAfterMs,
  closePriceOf,
  Direction,
  feeFor,
  fillPriceOf,
  holdCountdownText,
  holdTimeLeft,
  leverageAllowed,
  leverageChoices,
  marginFor,
  notionalFor,
  orderRuleViolation,
  overnightFeeFor,
  pendingPriceViolation,
  profitLossFor,
  protectionRuleViolation,
  type OrderRequest, type ProductTerms } from '../../../../src/shared/trading/order-rules';

const eurusd: ProductTerms = { tradeStatus: 1, pip: '0.01', minCount: '0.01', maxCount: '50', contractSize: '100000', multiple: 100, feeRate: '0.00002' };
const market = (change: Partial<OrderRequest> = {}): OrderRequest => ({ direction: 0, priceType: 2, volume: money('0.1'), limitPrice: null, stopLoss: null, takeProfit: null, ...change });
const price = money('1.08512');

describe('order money', () => {
  it('computes margin, fee and profit exactly', () => {
    expect(formatMoney(marginFor(price, money('0.1'), eurusd))).toBe('108.512');
    expect(formatMoney(feeFor(price, money('0.1'), eurusd))).toBe('0.217024');
    expect(formatMoney(profitLossFor(0, price, money('1.08612'), money('0.1'), eurusd))).toBe('10.00');
    expect(formatMoney(profitLossFor(1, price, money('1.08612'), money('0.1'), eurusd))).toBe('-10.00');
  });

  it('charges overnight on the notional at the open price', () => {
    expect(formatMoney(notionalFor(price, money('0.1'), eurusd))).toBe('10851.20');
    expect(formatMoney(overnightFeeFor(price, money('0.1'), { contractSize: '100000', overnightRate: '0.0001' }))).toBe('1.08512');
  });

  it('fills a buy at the ask and closes it at the bid; a sell the other way round', () => {
    const quote = { bid: 1.0851, ask: 1.0853 };
    expect(fillPriceOf(Direction.buy, quote)).toBe(1.0853);
    expect(closePriceOf(Direction.buy, quote)).toBe(1.0851);
    expect(fillPriceOf(Direction.sell, quote)).toBe(1.0851);
    expect(closePriceOf(Direction.sell, quote)).toBe(1.0853);
  });
});

describe('order rules and their codes', () => {
  it('accepts a valid market order', () => {
    expect(orderRuleViolation(market(), eurusd, price)).toBeNull();
  });
  it('checks the product and the volume (304–307, step)', () => {
    expect(orderRuleViolation(market(), { ...eurusd, tradeStatus: 0 }, price)).toBe(304);
    expect(orderRuleViolation(market({ volume: money('51') }), eurusd, price)).toBe(305);
    expect(orderRuleViolation(market({ volume: money('0.001') }), eurusd, price)).toBe(1016);
    expect(orderRuleViolation(market({ volume: 0n }), eurusd, price)).toBe(307);
    expect(orderRuleViolation(market({ volume: money('0.02') }), { ...eurusd, minCount: '0.05' }, price)).toBe(306);
  });
  it('checks stop loss and take profit against the fill price (308–311)', () => {
    expect(orderRuleViolation(market({ takeProfit: money('1.08') }), eurusd, price)).toBe(310);
    expect(orderRuleViolation(market({ stopLoss: money('1.09') }), eurusd, price)).toBe(311);
    expect(orderRuleViolation(market({ direction: 1, takeProfit: money('1.09') }), eurusd, price)).toBe(308);
    expect(orderRuleViolation(market({ direction: 1, stopLoss: money('1.08') }), eurusd, price)).toBe(309);
    expect(orderRuleViolation(market({ stopLoss: money('1.08'), takeProfit: money('1.09') }), eurusd, price)).toBeNull();
  });
  it('checks pending orders against their limit price (301, 312–315, side of the price)', () => {
    const pending = (change: Partial<OrderRequest>) => market({ priceType: 1, limitPrice: money('1.08'), ...change });
    expect(orderRuleViolation(pending({ limitPrice: 0n }), eurusd, price)).toBe(301);
    expect(orderRuleViolation(pending({ limitPrice: money('1.09') }), eurusd, price)).toBe(1016);
    expect(orderRuleViolation(pending({ takeProfit: money('1.07') }), eurusd, price)).toBe(314);
    expect(orderRuleViolation(pending({ stopLoss: money('1.081') }), eurusd, price)).toBe(315);
    const sell = (change: Partial<OrderRequest>) => pending({ direction: 1, limitPrice: money('1.09'), ...change });
    expect(orderRuleViolation(sell({ takeProfit: money('1.095') }), eurusd, price)).toBe(312);
    expect(orderRuleViolation(sell({ stopLoss: money('1.085') }), eurusd, price)).toBe(313);
    expect(orderRuleViolation(sell({ stopLoss: money('1.1'), takeProfit: money('1.08') }), eurusd, price)).toBeNull();
  });
  it('refuses a stop loss or take profit of 0 with its own code (313, 314), on either side', () => {
    expect(orderRuleViolation(market({ stopLoss: 0n }), eurusd, price)).toBe(313);
    expect(orderRuleViolation(market({ direction: 1, takeProfit: 0n }), eurusd, price)).toBe(314);
    expect(protectionRuleViolation(Direction.sell, { kind: 'pending', price }, { stopLoss: money('-1'), takeProfit: null })).toBe(313);
  });
  it('applies the same rules when a position is edited, against the price it closes at', () => {
    const closeAt = { kind: 'market', price: money('1.08500') } as const;
    expect(protectionRuleViolation(Direction.buy, closeAt, { stopLoss: money('1.0851'), takeProfit: null })).toBe(311);
    expect(protectionRuleViolation(Direction.buy, closeAt, { stopLoss: money('1.08'), takeProfit: money('1.09') })).toBeNull();
    expect(protectionRuleViolation(Direction.sell, closeAt, { stopLoss: money('1.08'), takeProfit: null })).toBe(309);
  });
  it('checks a moved pending price: above 0, on its side, within the band', () => {
    expect(pendingPriceViolation(Direction.buy, 0n, price)).toBe(301);
    expect(pendingPriceViolation(Direction.buy, money('1.09'), price)).toBe(1016);
    expect(pendingPriceViolation(Direction.buy, money('0.5'), price)).toBe('band');
    expect(pendingPriceViolation(Direction.sell, money('1.09'), price)).toBeNull();
  });
});

describe('the minimum holding time', () => {
  it('makes a position closable its hold after it opened, counted down as m:ss', () => {
    expect(closableAfterMs(Date.parse('2026-01-13T12:00:00Z'), 180)).toBe(Date.parse('2026-01-13T12:03:00Z'));
    expect(holdCountdownText(42_000)).toBe('0:42');
    expect(holdCountdownText(179_001)).toBe('3:00');
    expect(holdCountdownText(-5)).toBe('0:00');
  });
  it('keeps the close button waiting, with the time left, until the position may be closed', () => {
    const closable = Date.parse('2026-01-13T12:03:00Z');
    expect(holdTimeLeft(closable, closable - 42_000)).toBe('0:42');
    expect(holdTimeLeft(closable, closable - 150_500)).toBe('2:31');
    expect(holdTimeLeft(closable, closable)).toBeNull();
    expect(holdTimeLeft(null, closable)).toBeNull();
  });
});

describe('leverage', () => {
  it('offers the lower steps and the product\'s own leverage, its maximum', () => {
    expect(leverageChoices(100)).toEqual([1, 2, 5, 10, 20, 50, 100]);
    expect(leverageChoices(20)).toEqual([1, 2, 5, 10, 20]);
    expect(leverageChoices(30)).toEqual([1, 2, 5, 10, 20, 30]);
    expect(leverageAllowed(10, 100)).toBe(true);
    expect(leverageAllowed(200, 100)).toBe(false);
    expect(leverageAllowed(7, 100)).toBe(false);
  });
  it('locks more margin at a lower leverage', () => {
    expect(formatMoney(marginFor(price, money('0.1'), { ...eurusd, multiple: 10 }))).toBe('1085.12');
  });
});
