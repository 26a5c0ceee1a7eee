import { describe, expect, it } from 'vitest';
import { desktopPathShowsChart } from '../../../../src/app/layouts/chart-controls';

describe('chart controls in the desktop top bar', () => {
  it('show on the workspace and the chart page', () => {
    expect(desktopPathShowsChart('/')).toBe(true);
    expect(desktopPathShowsChart('/BTCUSDT/chart')).toBe(true);
  });

  it('stay away from pages without a chart', () => {
    for (const path of ['/quotation', '/position', '/history', '/user', '/user/service', '/BTCUSDT/place', '/nowhere/at/all']) {
      expect(desktopPathShowsChart(path), path).toBe(false);
    }
  });
});
