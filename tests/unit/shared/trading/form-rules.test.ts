import { describe, expect, it } from 'vitest';
import { money } from '../../../../src/shared/money/money';
import { checkPendingPrice, checkProtection, checkSidedPrice, checkVolume, previewFee, protectionOutcome, sanitizeDecimalInput } from '../../../../src/shared/trading/form-rules';
import { Direction } from '../../../../src/shared/trading/order-rules';

const terms = { minCount: '0.01', maxCount: '50', pip: '0.01', countNum: 2 };

describe('place form rules', () => {
  it('accepts digits and one decimal point with limited decimals', () => {
    expect(sanitizeDecimalInput('1a2.3.45', 2)).toBe('12.34');
    expect(sanitizeDecimalInput('0,5', 2)).toBe('0.5');
    expect(sanitizeDecimalInput('-3', 2)).toBe('3');
    expect(sanitizeDecimalInput('7.9', 0)).toBe('79');
  });

  it('resets the volume to its bounds with the messages, and steps it down', () => {
    expect(checkVolume('', terms)).toEqual({ ok: false, value: '0.01', messageKey: 'trade.volume_empty' });
    expect(checkVolume('80', terms)).toEqual({ ok: false, value: '50.00', messageKey: 'trade.volume_max', params: { max: '50.00' } });
    expect(checkVolume('0.001', { ...terms, countNum: 3 })).toEqual({ ok: false, value: '0.010', messageKey: 'trade.volume_min', params: { min: '0.010' } });
    expect(checkVolume('1.5', terms)).toEqual({ ok: true, value: '1.50' });
  });

  it('keeps a price on its side of the current one, clamping with the bound', () => {
    const current = money('1.08512');
    expect(checkSidedPrice('1.09', current, 'max', 5, 'trade.wrong_price')).toEqual({ ok: false, value: '1.08512', messageKey: 'trade.max_is', params: { value: '1.08512' } });
    expect(checkSidedPrice('1.08', current, 'min', 5, 'trade.wrong_price')).toEqual({ ok: false, value: '1.08512', messageKey: 'trade.min_is', params: { value: '1.08512' } });
    expect(checkSidedPrice('1.08', current, 'max', 5, 'trade.wrong_price')).toEqual({ ok: true, value: '1.08000' });
    expect(checkSidedPrice('', current, 'max', 5, 'trade.stoploss_empty_rule')).toEqual({ ok: false, value: '', messageKey: 'trade.stoploss_empty_rule' });
  });
});

describe('the pending price', () => {
  const current = money('1.08512');
  it('stays on its side of the price and within 50% of it, set to the band\'s edge beyond', () => {
    expect(checkPendingPrice('1.08', current, true, 5)).toEqual({ ok: true, value: '1.08000' });
    expect(checkPendingPrice('0.54256', current, true, 5)).toEqual({ ok: true, value: '0.54256' });
    expect(checkPendingPrice('0.00001', current, true, 5)).toEqual({ ok: false, value: '0.54256', messageKey: 'trade.pending_price_band', params: { percent: '50' } });
    expect(checkPendingPrice('9', current, false, 5)).toEqual({ ok: false, value: '1.62768', messageKey: 'trade.pending_price_band', params: { percent: '50' } });
    expect(checkPendingPrice('1.09', current, true, 5)).toMatchObject({ ok: false, messageKey: 'trade.max_is' });
  });
});

describe('stop loss and take profit in the form', () => {
  const reference = money('1.08412');
  const eurusd = { contractSize: '100000', feeRate: '0.00002' };

  it('refuses empty, zero and unusable values with their own messages, keeping what was typed', () => {
    expect(checkProtection('', 'stopLoss', Direction.buy, reference, 5)).toEqual({ ok: false, value: '', messageKey: 'trade.stoploss_empty_rule' });
    expect(checkProtection('0', 'stopLoss', Direction.buy, reference, 5)).toEqual({ ok: false, value: '0', messageKey: 'trade.stoploss_positive_rule' });
    expect(checkProtection('0.00000', 'takeProfit', Direction.sell, reference, 5)).toEqual({ ok: false, value: '0.00000', messageKey: 'trade.takeprofit_positive_rule' });
    expect(checkProtection('.', 'takeProfit', Direction.buy, reference, 5)).toMatchObject({ ok: false, messageKey: 'trade.takeprofit_positive_rule' });
  });

  it('sets a level on the wrong side to the price, saying the maximum (a buy\'s stop loss, a sell\'s take profit) or the minimum', () => {
    expect(checkProtection('1.09', 'stopLoss', Direction.buy, reference, 5)).toEqual({ ok: false, value: '1.08412', messageKey: 'trade.max_is', params: { value: '1.08412' } });
    expect(checkProtection('1.08', 'stopLoss', Direction.sell, reference, 5)).toEqual({ ok: false, value: '1.08412', messageKey: 'trade.min_is', params: { value: '1.08412' } });
    expect(checkProtection('1.08', 'takeProfit', Direction.buy, reference, 5)).toEqual({ ok: false, value: '1.08412', messageKey: 'trade.min_is', params: { value: '1.08412' } });
    expect(checkProtection('1.09', 'takeProfit', Direction.sell, reference, 5)).toEqual({ ok: false, value: '1.08412', messageKey: 'trade.max_is', params: { value: '1.08412' } });
    // On its side, or at the price itself (the spec: "must not exceed", "must not be below"): kept, at the product's digits.
    expect(checkProtection('1.08', 'stopLoss', Direction.buy, reference, 5)).toEqual({ ok: true, value: '1.08000' });
    expect(checkProtection('1.08412', 'takeProfit', Direction.sell, reference, 5)).toEqual({ ok: true, value: '1.08412' });
    // The clamped value passes the same check.
    expect(checkProtection('1.08412', 'stopLoss', Direction.buy, reference, 5)).toEqual({ ok: true, value: '1.08412' });
  });

  it('for a dragged chart line, refuses the wrong side with the side it must be on, keeping the value', () => {
    expect(checkProtection('1.09', 'stopLoss', Direction.buy, reference, 5, 'refuse')).toEqual({ ok: false, value: '1.09', messageKey: 'trade.stoploss_below_buy', params: { price: '1.08412' } });
    expect(checkProtection('1.08', 'stopLoss', Direction.sell, reference, 5, 'refuse')).toEqual({ ok: false, value: '1.08', messageKey: 'trade.stoploss_above_sell', params: { price: '1.08412' } });
    expect(checkProtection('1.08', 'takeProfit', Direction.buy, reference, 5, 'refuse')).toEqual({ ok: false, value: '1.08', messageKey: 'trade.takeprofit_above_buy', params: { price: '1.08412' } });
    expect(checkProtection('1.09', 'takeProfit', Direction.sell, reference, 5, 'refuse')).toEqual({ ok: false, value: '1.09', messageKey: 'trade.takeprofit_below_sell', params: { price: '1.08412' } });
  });

  it('previews the loss or gain in account currency, exactly', () => {
    // A buy of 0.1 lot at 1.08412 stopped at 1.08000: −0.00412 × 0.1 × 100000 = −41.2.
    expect(protectionOutcome('1.08', Direction.buy, reference, money('0.1'), eurusd)).toBe(money('-41.2'));
    expect(protectionOutcome('1.09', Direction.buy, reference, money('0.1'), eurusd)).toBe(money('58.8'));
    expect(protectionOutcome('1.07412', Direction.sell, reference, money('0.3'), eurusd)).toBe(money('300'));
    expect(protectionOutcome('0', Direction.buy, reference, money('0.1'), eurusd)).toBeNull();
    expect(protectionOutcome('1.08', Direction.buy, null, money('0.1'), eurusd)).toBeNull();
  });

  it('previews the fee a pending order pays at its fill, not 0', () => {
    // 1.08 × 0.1 × 100000 × 0.00002 = 0.216.
    expect(previewFee(money('1.08'), money('0.1'), eurusd)).toBe(money('0.216'));
    expect(previewFee(null, money('0.1'), eurusd)).toBeNull();
  });
});
