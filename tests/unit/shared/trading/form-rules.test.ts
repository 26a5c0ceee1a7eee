import { describe, expect, it } from 'vitest';
import { money } from '../../../../src/shared/money/money';
import { checkPendingPrice, checkSidedPrice, checkVolume, sanitizeDecimalInput } from '../../../../src/shared/trading/form-rules';

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
