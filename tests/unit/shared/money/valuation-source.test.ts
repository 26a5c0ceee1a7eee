import { describe, expect, it } from 'vitest';
import { isValuationSourceOf } from '../../../../src/shared/money/currency-config';

describe('a currency is valued only by a price of itself', () => {
  it('accepts the currency priced in dollars, and the peg', () => {
    expect(isValuationSourceOf('BTC', 'BTCUSDT')).toBe(true);
    expect(isValuationSourceOf('EUR', 'EURUSD')).toBe(true);
    expect(isValuationSourceOf('USDT', null)).toBe(true);
  });

  it('refuses another currency\'s price: USDT by BTCUSDT would make a dollar worth a bitcoin', () => {
    expect(isValuationSourceOf('USDT', 'BTCUSDT')).toBe(false);
    expect(isValuationSourceOf('ETH', 'BTCUSDT')).toBe(false);
    expect(isValuationSourceOf('BTC', 'USDJPY')).toBe(false);
  });
});
