import { describe, expect, it } from 'vitest';
import { columnsThatFit, fixedTrackPx, gridMinWidthPx, pinnedPlaces, trackMinPx } from '../../../../src/app/components/grid-layout';

describe('grid tracks', () => {
  it('reads a fixed width and the minimum of a minmax()', () => {
    expect(fixedTrackPx('96px')).toBe(96);
    expect(fixedTrackPx('minmax(90px, 1fr)')).toBeNull();
    expect(trackMinPx('minmax(90px, 1.2fr)')).toBe(90);
    expect(trackMinPx('44px')).toBe(44);
    expect(trackMinPx('1fr')).toBe(0);
  });

  it('adds the minimums, the gaps between cells and the row padding into the width under which the grid scrolls sideways', () => {
    // 90 + 44 + 0, two 8 px gaps, 8 px at each end.
    expect(gridMinWidthPx([{ key: 'a', width: 'minmax(90px, 1fr)' }, { key: 'b', width: '44px' }, { key: 'c', width: '1fr' }])).toBe(166);
  });
});

describe('pinned columns', () => {
  const positions = [
    { key: 'symbol', width: 'minmax(90px, 1.2fr)', pin: 'start' as const },
    { key: 'uid', width: 'minmax(150px, 1.3fr)' },
    { key: 'fee', width: 'minmax(60px, 0.7fr)' },
    { key: 'pnl', width: '96px', pin: 'end' as const },
    { key: 'close', width: '44px', pin: 'end' as const },
  ];

  it('sticks the symbol to the start and profit and loss beside the close button (and a gap) at the end', () => {
    const places = pinnedPlaces(positions);
    expect(places.get('symbol')).toEqual({ side: 'start', offsetPx: 0, edge: true });
    expect(places.get('pnl')).toEqual({ side: 'end', offsetPx: 52, edge: true });
    expect(places.get('close')).toEqual({ side: 'end', offsetPx: 0, edge: false });
    expect(places.has('uid')).toBe(false);
    expect(places.has('fee')).toBe(false);
  });

  it('offsets a second start column by the fixed width of the first and a gap', () => {
    const places = pinnedPlaces([
      { key: 'flag', width: '24px', pin: 'start' },
      { key: 'symbol', width: 'minmax(90px, 1fr)', pin: 'start' },
      { key: 'rest', width: '1fr' },
    ]);
    expect(places.get('flag')).toEqual({ side: 'start', offsetPx: 0, edge: false });
    expect(places.get('symbol')).toEqual({ side: 'start', offsetPx: 32, edge: true });
  });

  it('refuses a pinned column in the middle or inside a stretching pinned one', () => {
    expect(() => pinnedPlaces([{ key: 'a', width: '1fr' }, { key: 'b', width: '20px', pin: 'start' }])).toThrow(/does not lead/);
    expect(() => pinnedPlaces([{ key: 'a', width: '20px', pin: 'end' }, { key: 'b', width: '1fr' }])).toThrow(/does not close/);
    expect(() => pinnedPlaces([{ key: 'a', width: '1fr', pin: 'end' }, { key: 'b', width: 'minmax(40px, 1fr)', pin: 'end' }])).toThrow(/b needs a fixed width/);
  });
});

describe('columns that give way', () => {
  const columns = [
    { key: 'symbol', width: 'minmax(90px, 1fr)', pin: 'start' as const },
    { key: 'uid', width: 'minmax(150px, 1fr)', hidePriority: 1 },
    { key: 'volume', width: 'minmax(60px, 1fr)' },
    { key: 'time', width: 'minmax(130px, 1fr)', hidePriority: 3 },
    { key: 'priceType', width: 'minmax(100px, 1fr)', hidePriority: 2 },
    { key: 'pnl', width: '104px', pin: 'end' as const },
  ];
  const keys = (width: number) => columnsThatFit(columns, width).map((column) => column.key);

  it('shows every column when they fit at their minimum widths with their gaps', () => {
    // 634 px of columns, five 8 px gaps, 8 px at each end.
    expect(keys(690)).toEqual(['symbol', 'uid', 'volume', 'time', 'priceType', 'pnl']);
  });

  it('hides the lesser columns lowest priority first, each with its gap, keeping the order of the rest', () => {
    expect(keys(689)).toEqual(['symbol', 'volume', 'time', 'priceType', 'pnl']);
    expect(keys(532)).toEqual(['symbol', 'volume', 'time', 'priceType', 'pnl']);
    expect(keys(531)).toEqual(['symbol', 'volume', 'time', 'pnl']);
    expect(keys(424)).toEqual(['symbol', 'volume', 'time', 'pnl']);
    expect(keys(423)).toEqual(['symbol', 'volume', 'pnl']);
  });

  it('never hides a column without a priority: a very narrow panel scrolls instead', () => {
    expect(keys(100)).toEqual(['symbol', 'volume', 'pnl']);
  });
});
