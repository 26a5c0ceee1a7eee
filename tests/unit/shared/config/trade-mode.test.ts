import { describe, expect, it } from 'vitest';
import { availableTradeModes, brandTradeModeDefaults, currentTradeMode, tradeModeOffered } from '../../../../src/shared/config/trade-mode';

describe('trade modes', () => {
  const brand = { defaultTradeMode: 'option' as const, tradeTabOrder: ['option', 'market'] as ('market' | 'option')[] };

  it("offers the brand's default mode alone when fewer than two are enabled, whichever one is (the spec's rule)", () => {
    expect(availableTradeModes({ Contract: false, OptionMock: false }, brand)).toEqual(['option']);
    expect(availableTradeModes({ Contract: false, OptionMock: false }, { ...brand, defaultTradeMode: 'market' })).toEqual(['market']);
    // Only Contract on, the default option: option shows.
    expect(availableTradeModes({ Contract: true, OptionMock: false }, brand)).toEqual(['option']);
    expect(availableTradeModes({ Contract: true, OptionMock: false }, { ...brand, defaultTradeMode: 'market' })).toEqual(['market']);
    expect(availableTradeModes({ Contract: false, OptionMock: true }, { ...brand, defaultTradeMode: 'market' })).toEqual(['market']);
    expect(availableTradeModes({ Contract: false, OptionMock: true }, brand)).toEqual(['option']);
  });

  it('offers both modes in the brand tab order when both are enabled', () => {
    expect(availableTradeModes({ Contract: true, OptionMock: true }, brand)).toEqual(['option', 'market']);
    expect(availableTradeModes({ Contract: true, OptionMock: true }, { ...brand, tradeTabOrder: [] })).toEqual(['market', 'option']);
  });

  it('tells the server which orders a brand offers: exactly the modes the app shows', () => {
    expect(tradeModeOffered({ Contract: true, OptionMock: false }, brand, 'market')).toBe(false);
    expect(tradeModeOffered({ Contract: true, OptionMock: false }, brand, 'option')).toBe(true);
    expect(tradeModeOffered({ Contract: false, OptionMock: true }, brand, 'market')).toBe(false);
    expect(tradeModeOffered({ Contract: false, OptionMock: true }, brand, 'option')).toBe(true);
    expect(tradeModeOffered({ Contract: true, OptionMock: false }, brandTradeModeDefaults, 'market')).toBe(true);
    expect(tradeModeOffered({ Contract: true, OptionMock: false }, brandTradeModeDefaults, 'option')).toBe(false);
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
