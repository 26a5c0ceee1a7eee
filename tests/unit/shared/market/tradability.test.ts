import { describe, expect, it } from 'vitest';
import { isTradableInMode, tradeBlock } from '../../../../src/shared/market/tradability';

describe('tradability', () => {
  it('replaces the buttons with "closed" or "market closed" when the product cannot be traded', () => {
    expect(tradeBlock([{ tradeStatus: 1 }], 'open')).toBeNull();
    expect(tradeBlock([{ tradeStatus: 1 }], 'closed')).toBe('market_closed');
    expect(tradeBlock([{ tradeStatus: 1 }], 'early_trading')).toBe('market_closed');
    expect(tradeBlock([{ tradeStatus: 0 }], 'open')).toBe('closed');
    // A timed option needs its option product and its market product both switched on.
    expect(tradeBlock([{ tradeStatus: 1 }, { tradeStatus: 0 }], 'open')).toBe('closed');
    expect(tradeBlock([{ tradeStatus: 1 }, { tradeStatus: 1 }], 'open')).toBeNull();
  });

  it('is tradable in market mode by its own status, in option mode only with an option product switched on', () => {
    const optionProducts = new Map([['BTCUSDT', { tradeStatus: 1 }], ['EURUSD', { tradeStatus: 0 }]]);
    const market = { mode: 'market' as const, optionProducts };
    const option = { mode: 'option' as const, optionProducts };
    expect(isTradableInMode({ productCode: 'EURUSD', tradeStatus: 1 }, market)).toBe(true);
    expect(isTradableInMode({ productCode: 'EURUSD', tradeStatus: 0 }, market)).toBe(false);
    expect(isTradableInMode({ productCode: 'BTCUSDT', tradeStatus: 1 }, option)).toBe(true);
    expect(isTradableInMode({ productCode: 'BTCUSDT', tradeStatus: 0 }, option)).toBe(false);
    expect(isTradableInMode({ productCode: 'EURUSD', tradeStatus: 1 }, option)).toBe(false);
    expect(isTradableInMode({ productCode: 'GBPUSD', tradeStatus: 1 }, option)).toBe(false);
  });
});
