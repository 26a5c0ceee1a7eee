import { describe, expect, it } from 'vitest';
import {
  chartIsLive,
  defaultIndicators,
  screenshotFileName,
  showsVolume,
  toggleIndicator,
  type ChartIndicators,
} from '../../../../src/shared/market/chart-rules';

describe('chart indicators', () => {
  it('adds and removes indicators of each kind', () => {
    const added = toggleIndicator(defaultIndicators, 'main', 'BOLL');
    expect(added).toEqual({ ok: true, added: true, indicators: { main: ['MA', 'BOLL'], sub: ['VOL'] } });
    const removed = toggleIndicator(added.ok ? added.indicators : defaultIndicators, 'main', 'MA');
    expect(removed).toEqual({ ok: true, added: false, indicators: { main: ['BOLL'], sub: ['VOL'] } });
  });

  it('refuses a fourth main or sub indicator and changes nothing', () => {
    const full: ChartIndicators = { main: ['MA', 'EMA', 'SMA'], sub: ['VOL', 'MACD', 'KDJ'] };
    expect(toggleIndicator(full, 'main', 'BBI')).toEqual({ ok: false, reason: 'limit' });
    expect(toggleIndicator(full, 'sub', 'RSI')).toEqual({ ok: false, reason: 'limit' });
    expect(full).toEqual({ main: ['MA', 'EMA', 'SMA'], sub: ['VOL', 'MACD', 'KDJ'] });
    // Removing one still works when full.
    expect(toggleIndicator(full, 'sub', 'VOL')).toMatchObject({ ok: true, indicators: { sub: ['MACD', 'KDJ'] } });
  });

  it('knows which indicators belong to which kind', () => {
    expect(toggleIndicator(defaultIndicators, 'main', 'VOL')).toEqual({ ok: false, reason: 'unknown' });
    expect(toggleIndicator(defaultIndicators, 'sub', 'SAR')).toEqual({ ok: false, reason: 'unknown' });
    expect(toggleIndicator(defaultIndicators, 'sub', 'RSI')).toMatchObject({ ok: true, added: true });
  });
});

describe('chart page rules', () => {
  it('draws live bars only while the market is open', () => {
    expect(chartIsLive('open')).toBe(true);
    expect(chartIsLive('closed')).toBe(false);
    expect(chartIsLive('early_trading')).toBe(false);
  });

  it('hides volume for commodities and indices', () => {
    expect([1, 2, 3, 4, 5].map(showsVolume)).toEqual([true, false, false, true, true]);
  });

  it('names a screenshot by symbol, period and UTC time', () => {
    expect(screenshotFileName('BTCUSDT', '5min', Date.parse('2026-11-23T09:08:07Z'))).toBe('BTCUSDT-5min-20261123-090807.jpeg');
  });
});
