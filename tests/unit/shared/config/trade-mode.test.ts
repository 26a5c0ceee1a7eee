import { describe, expect, it } from 'vitest';
import { availableTradeModes, currentTradeMode, tradeModeOffered } from '../../../../src/shared/config/trade-mode';

describe('trade modes', () => {
  const brand = { defaultTradeMode: 'option' as const, tradeTabOrder: ['option', 'market'] as ('market' | 'option')[] };

  it('offers only the brand default when one or no mode is enabled', () => {
    expect(availableTradeModes({ Contract: false, OptionMock: false }, brand)).toEqual(['option']);
    expect(availableTradeModes({ Contract: true, OptionMock: false }, brand)).toEqual(['option']);
  });

  it('offers both modes in the brand tab order when both are enabled', () => {
    expect(availableTradeModes({ Contract: true, OptionMock: true }, brand)).toEqual(['option', 'market']);
    expect(availableTradeModes({ Contract: true, OptionMock: true }, { ...brand, tradeTabOrder: [] })).toEqual(['market', 'option']);
  });

  it('tells the server which orders a brand offers: a mode whose switch is on; with neither on, both (the default mode applies)', () => {
    expect(tradeModeOffered({ Contract: true, OptionMock: false }, 'market')).toBe(true);
    expect(tradeModeOffered({ Contract: true, OptionMock: false }, 'option')).toBe(false);
    expect(tradeModeOffered({ Contract: false, OptionMock: true }, 'market')).toBe(false);
    expect(tradeModeOffered({ Contract: false, OptionMock: true }, 'option')).toBe(true);
    expect(tradeModeOffered({ Contract: false, OptionMock: false }, 'market')).toBe(true);
    expect(tradeModeOffered({ Contract: false, OptionMock: false }, 'option')).toBe(true);
  });

  it('keeps a stored mode only while it is available', () => {
    expect(currentTradeMode(['market', 'option'], 'option')).toBe('option');
    expect(currentTradeMode(['market'], 'option')).toBe('market');
  });
});
