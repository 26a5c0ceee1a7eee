import { describe, expect, it } from 'vitest';
import {
  chartIsLive,
  chartLegendRule,
  defaultIndicators,
  screenshotFileName,
  showsVolume,
  subPaneHeightPx,
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

describe('chart layout on small panels', () => {
  it('sub panes share a quarter of the chart, each between 32 and 90 px', () => {
    // The 1440×900 workspace's chart (about 250 px): the volume pane no longer takes 90 of it.
    expect(subPaneHeightPx(250, 1)).toBe(62);
    expect(subPaneHeightPx(600, 1)).toBe(90);
    expect(subPaneHeightPx(150, 1)).toBe(37);
    expect(subPaneHeightPx(100, 1)).toBe(32);
    expect(subPaneHeightPx(400, 3)).toBe(33);
    expect(subPaneHeightPx(400, 0)).toBe(0);
    expect(subPaneHeightPx(-5, 1)).toBe(32);
  });

  it('legends stay on a roomy chart and follow the crosshair on a narrow or short one', () => {
    expect(chartLegendRule(870, 180)).toBe('always');
    expect(chartLegendRule(600, 120)).toBe('always');
    expect(chartLegendRule(599, 300)).toBe('follow_cross');
    expect(chartLegendRule(900, 119)).toBe('follow_cross');
    expect(chartLegendRule(370, 100)).toBe('follow_cross');
  });
});
