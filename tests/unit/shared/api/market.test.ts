import { describe, expect, it } from 'vitest';
import { decodePriceBatch, isPriceTick, priceTickSchema } from '../../../../src/shared/api/market';

const valid = {
  symbol: 'EURUSD', name: 'EUR/USD', price: '1.08512', bidPrice: '1.08512', askPrice: '1.08524', volume: '1200',
  lastUpdate: 1_790_000_000_000, type: 'Forex', priceChangePercent: '-0.42', low: '1.08100', high: '1.09000',
};

const variants: [string, unknown][] = [
  ['valid', valid],
  ['number price', { ...valid, price: 1.08 }],
  ['exponent', { ...valid, bidPrice: '1e5' }],
  ['empty decimal', { ...valid, low: '' }],
  ['trailing dot', { ...valid, high: '1.' }],
  ['unknown type', { ...valid, type: 'Bonds' }],
  ['fractional time', { ...valid, lastUpdate: 1.5 }],
  ['missing name', { ...valid, name: undefined }],
  ['null', null],
  ['array', [valid]],
  ['US stocks', { ...valid, type: 'US stocks' }],
];

describe('hot-path price tick check', () => {
  it.each(variants)('agrees with the contract schema: %s', (_name, value) => {
    expect(isPriceTick(value)).toBe(priceTickSchema.safeParse(value).success);
  });

  it('decodes a prices message only when every tick is well formed', () => {
    expect(decodePriceBatch(JSON.stringify([valid, valid]))).toHaveLength(2);
    expect(decodePriceBatch(JSON.stringify([valid, { ...valid, price: 'x' }]))).toBeNull();
    expect(decodePriceBatch('{not json')).toBeNull();
    expect(decodePriceBatch(JSON.stringify(valid))).toBeNull();
  });
});
