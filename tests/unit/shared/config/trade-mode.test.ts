import { describe, expect, it } from 'vitest';
import { availableTradeModes, brandTradeModeDefaults, currentTradeMode, tradeModeOffered } from '../../../../src/shared/config/trade-mode';

describe('trade modes', () => {
  const brand = { defaultTradeMode: 'option' as const, tradeTabOrder: ['option', 'market'] as ('market' | 'option')[] };

  it('offers the brand default when no mode is enabled, and the one enabled when only one is (never a switched-off mode)', () => {
    expect(availableTradeModes({ Contract: false, OptionMock: false }, brand)).toEqual(['option']);
    expect(availableTradeModes({ Contract: false, OptionMock: false }, { ...brand, defaultTradeMode: 'market' })).toEqual(['market']);
    expect(availableTradeModes({ Contract: true, OptionMock: false }, brand)).toEqual(['market']);
    expect(availableTradeModes({ Contract: false, OptionMock: true }, { ...brand, defaultTradeMode: 'market' })).toEqual(['option']);
  });

  it('offers both modes in the brand tab order when both are enabled', () => {
    expect(availableTradeModes({ Contract: true, OptionMock: true }, brand)).toEqual(['option', 'market']);
    expect(availableTradeModes({ Contract: true, OptionMock: true }, { ...brand, tradeTabOrder: [] })).toEqual(['market', 'option']);
  });

  it('tells the server which orders a brand offers: exactly the modes the app shows', () => {
    expect(tradeModeOffered({ Contract: true, OptionMock: false }, brand, 'market')).toBe(true);
    expect(tradeModeOffered({ Contract: true, OptionMock: false }, brand, 'option')).toBe(false);
    expect(tradeModeOffered({ Contract: false, OptionMock: true }, brand, 'market')).toBe(false);
    expect(tradeModeOffered({ Contract: false, OptionMock: true }, brand, 'option')).toBe(true);
    // Neither on: only the brand's default mode.
    expect(tradeModeOffered({ Contract: false, OptionMock: false }, brand, 'market')).toBe(false);
    expect(tradeModeOffered({ Contract: false, OptionMock: false }, brand, 'option')).toBe(true);
    expect(tradeModeOffered({ Contract: false, OptionMock: false }, brandTradeModeDefaults, 'market')).toBe(true);
    expect(tradeModeOffered({ Contract: false, OptionMock: false }, brandTradeModeDefaults, 'option')).toBe(false);
  });

  it('keeps a stored mode only while it is available', () => {
    expect(currentTradeMode(['market', 'option'], 'option')).toBe('option');
    expect(currentTradeMode(['market'], 'option')).toBe('market');
  });
});
