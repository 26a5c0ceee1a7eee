import { describe, expect, it } from 'vitest';
import { tradeBlock } from '../../../../src/shared/market/tradability';

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
});
