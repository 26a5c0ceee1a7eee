import { describe, expect, it } from 'vitest';
import { ProductType } from '../../../../src/shared/market/product-types';
import { displaySymbol, pairFlags, symbolPair } from '../../../../src/shared/market/symbol-identity';

describe('one naming scheme for symbols', () => {
  it('names forex and crypto pairs BASE/QUOTE, the longer quote currency first', () => {
    expect(displaySymbol('EURUSD', ProductType.forex)).toBe('EUR/USD');
    expect(displaySymbol('USDJPY', ProductType.forex)).toBe('USD/JPY');
    expect(displaySymbol('BTCUSDT', ProductType.cryptos)).toBe('BTC/USDT');
    expect(displaySymbol('DOGEUSDT', ProductType.cryptos)).toBe('DOGE/USDT');
  });

  it('keeps the code of anything that is not a pair', () => {
    expect(displaySymbol('XAUUSD', ProductType.commodities)).toBe('XAUUSD');
    expect(displaySymbol('US500', ProductType.indices)).toBe('US500');
    expect(displaySymbol('AAPL', ProductType.usStocks)).toBe('AAPL');
    // A forex code that is not two ISO codes stays whole.
    expect(symbolPair('EURUSDX', ProductType.forex)).toBeNull();
    expect(symbolPair('USD', ProductType.cryptos)).toBeNull();
  });
});

describe('the flags of a currency pair', () => {
  it('are the base currency\'s then the quote\'s, the euro\'s being the EU\'s', () => {
    expect(pairFlags('EURUSD', ProductType.forex)).toEqual(['eu', 'us']);
    expect(pairFlags('USDJPY', ProductType.forex)).toEqual(['us', 'jp']);
    expect(pairFlags('GBPAUD', ProductType.forex)).toEqual(['gb', 'au']);
  });

  it('are none for a crypto pair or a currency without a flag', () => {
    expect(pairFlags('BTCUSDT', ProductType.cryptos)).toBeNull();
    expect(pairFlags('XYZUSD', ProductType.forex)).toBeNull();
  });
});
