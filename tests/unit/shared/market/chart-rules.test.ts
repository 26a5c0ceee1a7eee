import { describe, expect, it } from 'vitest';
import { candleTopGapRate, chartLegendRule, readStoredDrawings, subPaneLayout } from '../../../../src/shared/market/chart-layout';
import { chartIsLive, defaultIndicators, screenshotFileName, showsVolume, toggleIndicator, type ChartIndicators } from '../../../../src/shared/market/chart-rules';

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
  it('legends stay on a roomy chart and follow the crosshair on a narrow or short one', () => {
    expect(chartLegendRule(870, 180)).toBe('always');
    expect(chartLegendRule(600, 120)).toBe('always');
    expect(chartLegendRule(599, 300)).toBe('follow_cross');
    expect(chartLegendRule(900, 119)).toBe('follow_cross');
    expect(chartLegendRule(370, 100)).toBe('follow_cross');
  });
});

describe('indicator panes and legends that leave the candles readable', () => {
  it('keeps each sub pane at least 64 px on the phone and 80 px on desktop, with fewer panes when they do not fit', () => {
    expect(subPaneLayout(400, 1, true)).toEqual({ shown: 1, height: 110 });
    expect(subPaneLayout(400, 2, true)).toEqual({ shown: 2, height: 80 });
    expect(subPaneLayout(400, 3, true)).toEqual({ shown: 2, height: 80 });
    expect(subPaneLayout(400, 3, false)).toEqual({ shown: 2, height: 80 });
    expect(subPaneLayout(300, 2, false)).toEqual({ shown: 1, height: 110 });
    expect(subPaneLayout(160, 1, true)).toEqual({ shown: 1, height: 64 });
    expect(subPaneLayout(150, 1, true)).toEqual({ shown: 0, height: 0 });
    expect(subPaneLayout(800, 0, false)).toEqual({ shown: 0, height: 0 });
  });

  it('reserves the legend rows above the highest candle while legends always show', () => {
    // The share of a candle pane the scale's top gap takes (the library adds 0.1 below).
    const reservedPx = (rate: number, paneHeightPx: number) => Math.round((rate / (1 + rate + 0.1)) * paneHeightPx);
    // A wide chart: one bar row and one MA row with the high mark's room (60 px) of a 400 px pane over its 28 px time axis.
    expect(reservedPx(candleTopGapRate('always', 1200, 1, 428), 400)).toBe(60);
    // Narrower, the bar's legend may wrap: two rows, and two main indicators.
    expect(reservedPx(candleTopGapRate('always', 900, 2, 428), 400)).toBe(100);
    expect(candleTopGapRate('follow_cross', 1200, 1, 428)).toBe(0.2);
  });
});

describe('drawings kept per symbol', () => {
  it('keeps well-formed drawings of known tools and drops the rest', () => {
    const line = { name: 'segment', points: [{ timestamp: 1, value: 1.08 }, { timestamp: 2, value: 1.09 }] };
    expect(readStoredDrawings([line, { name: 'script', points: [{ timestamp: 1, value: 1 }] }, { name: 'segment', points: [{ timestamp: 'x', value: 1 }] }, null])).toEqual([line]);
    expect(readStoredDrawings('nope')).toEqual([]);
    expect(readStoredDrawings(Array.from({ length: 60 }, () => line))).toHaveLength(50);
  });
});
