import { describe, expect, it } from 'vitest';
import type { Product } from '../../../../src/shared/api/market';
import { listedProducts, listedProductTypes, parseSingleTrade } from '../../../../src/shared/market/product-list';
import { recentSymbolsKept, searchProducts, searchStartProducts, withRecentSymbol } from '../../../../src/shared/market/product-search';

function product(productCode: string, productType: number, sort: number | null, tradeStatus: 0 | 1 = 1, productName = productCode): Product {
  return {
    productCode, productName, productType, tradeStatus, sort, pricePrecision: 5, pip: '0.01', multiple: 100, minCount: '0.01', maxCount: '50',
    countNum: 2, logoUrl: `/logos/${productCode}.svg`, marketStartTime: [0, 0, 0, 0, 0, 0, 0], marketCloseTime: [86399, 86399, 86399, 86399, 86399, 86399, 86399],
    contractSize: '100000', spread: '0.0001', feeRate: '0.00002', overnightRate: '0.00008',
  };
}

const catalogue = [
  product('GBPUSD', 1, 2),
  product('EURUSD', 1, 1, 1, 'EUR/USD'),
  product('USDHKD', 1, null),
  product('AUDUSD', 1, null),
  product('USDJPY', 1, 3, 0),
  product('XAUUSD', 2, 1, 1, 'Gold'),
  product('BTCUSDT', 4, 1, 1, 'Bitcoin'),
];

describe('product lists', () => {
  it('lists only tradeStatus 1 products of the type, by numeric sort with missing sorts last', () => {
    expect(listedProducts(catalogue, 1).map((item) => item.productCode)).toEqual(['EURUSD', 'GBPUSD', 'AUDUSD', 'USDHKD']);
    expect(listedProducts(catalogue).map((item) => item.productCode)).toEqual(['BTCUSDT', 'EURUSD', 'XAUUSD', 'GBPUSD', 'AUDUSD', 'USDHKD']);
  });

  it('offers a tab only for product types that have a listed product', () => {
    expect(listedProductTypes(catalogue)).toEqual([1, 2, 4]);
    expect(listedProductTypes([product('USDJPY', 1, 3, 0)])).toEqual([]);
  });

  it('in option mode lists only products whose option product is on (and which are tradable themselves): lists, tabs and search', () => {
    const option = {
      mode: 'option' as const,
      optionProducts: new Map([['BTCUSDT', { tradeStatus: 1 }], ['EURUSD', { tradeStatus: 0 }], ['USDJPY', { tradeStatus: 1 }], ['XAUUSD', { tradeStatus: 1 }]]),
    };
    // EURUSD's options are off, GBPUSD has none, USDJPY itself is off.
    expect(listedProducts(catalogue, undefined, option).map((item) => item.productCode)).toEqual(['BTCUSDT', 'XAUUSD']);
    expect(listedProducts(catalogue, 1, option)).toEqual([]);
    expect(listedProductTypes(catalogue, option)).toEqual([2, 4]);
    expect(searchProducts(catalogue, 'usd', option).map((item) => item.productCode)).toEqual(['BTCUSDT', 'XAUUSD']);
    // Market mode ignores the option products.
    expect(listedProducts(catalogue, 1, { mode: 'market', optionProducts: option.optionProducts }).map((item) => item.productCode)).toEqual(['EURUSD', 'GBPUSD', 'AUDUSD', 'USDHKD']);
  });

  it('reads singleTrade as a product type 1 to 5 and ignores anything else', () => {
    expect(parseSingleTrade('4')).toBe(4);
    for (const bad of [null, '', '0', '6', '1.5', '2a', ' 3']) expect(parseSingleTrade(bad)).toBeNull();
  });

  it('searches code and name without regard to case, tradable products only', () => {
    expect(searchProducts(catalogue, 'usd').map((item) => item.productCode)).toEqual(['BTCUSDT', 'EURUSD', 'XAUUSD', 'GBPUSD', 'AUDUSD', 'USDHKD']);
    expect(searchProducts(catalogue, ' gold ').map((item) => item.productCode)).toEqual(['XAUUSD']);
    expect(searchProducts(catalogue, 'JPY')).toEqual([]);
    expect(searchProducts(catalogue, '   ')).toEqual([]);
  });
});

describe('search before anything is typed', () => {
  const catalogue = [product('EURUSD', 1, 1), product('BTCUSDT', 4, 2, 1, 'Bitcoin'), product('XAUUSD', 2, 3, 1, 'Gold'), product('HALTED', 1, 4, 0)];

  it('finds a pair by the name the app shows it under', () => {
    expect(searchProducts(catalogue, 'btc/usdt').map((item) => item.productCode)).toEqual(['BTCUSDT']);
  });

  it('remembers the symbol opened last first, once, and no more than the limit', () => {
    expect(withRecentSymbol(['EURUSD', 'BTCUSDT'], 'BTCUSDT')).toEqual(['BTCUSDT', 'EURUSD']);
    const many = Array.from({ length: recentSymbolsKept }, (_, index) => `S${index}`);
    expect(withRecentSymbol(many, 'NEW')).toEqual(['NEW', ...many.slice(0, recentSymbolsKept - 1)]);
  });

  it('offers the recent products in their order and the popular ones not among them, only those still listed', () => {
    const start = searchStartProducts(catalogue, ['XAUUSD', 'GONE', 'HALTED', 'EURUSD'], ['EURUSD', 'BTCUSDT']);
    expect(start.recent.map((item) => item.productCode)).toEqual(['XAUUSD', 'EURUSD']);
    expect(start.popular.map((item) => item.productCode)).toEqual(['BTCUSDT']);
  });
});
