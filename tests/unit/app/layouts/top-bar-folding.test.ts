import { describe, expect, it } from 'vitest';
import {
  foldedTopBarItems,
  maxTopBarFoldLevel,
  nextTopBarFit,
  topBarFoldOrder,
  unfoldedTopBar,
  type TopBarFit,
} from '../../../../src/app/layouts/top-bar-folding';

/** Steps until the fit stops changing, each time measuring the content the level would show. */
function settle(fit: TopBarFit, available: number, contentAtLevel: (level: number) => number): TopBarFit {
  for (let step = 0; step < 20; step += 1) {
    const next = nextTopBarFit(fit, { available, content: contentAtLevel(fit.level) });
    if (next === fit) return fit;
    fit = next;
  }
  throw new Error('the fit did not settle');
}

describe('top bar folding', () => {
  it('folds the secondary controls first, in the declared order, and never the account switch, user card or trade mode', () => {
    // The connection mark's word goes before the language picker: a German bar at 1440 px signed in keeps its language.
    expect(topBarFoldOrder.slice(0, 5)).toEqual(['themeColour', 'phoneView', 'colourScheme', 'connectionWord', 'language']);
    expect([...foldedTopBarItems(0)]).toEqual([]);
    expect([...foldedTopBarItems(2)]).toEqual(['themeColour', 'phoneView']);
    expect([...foldedTopBarItems(99)]).toEqual([...topBarFoldOrder]);
    expect([...foldedTopBarItems(-1)]).toEqual([]);
    for (const fixed of ['bookSwitch', 'userCard', 'tradeMode']) expect(topBarFoldOrder).not.toContain(fixed);
    // Last of all the user's name.
    expect(topBarFoldOrder.at(-1)).toBe('userName');
  });

  it('keeps everything unfolded while it fits', () => {
    expect(nextTopBarFit(unfoldedTopBar, { available: 1440, content: 1200 })).toBe(unfoldedTopBar);
  });

  it('folds one control per step while the content is wider than the bar, remembering the width it needed', () => {
    const once = nextTopBarFit(unfoldedTopBar, { available: 1280, content: 1400 });
    expect(once).toEqual({ level: 1, widthNeeded: [1400] });
    const twice = nextTopBarFit(once, { available: 1280, content: 1330 });
    expect(twice).toEqual({ level: 2, widthNeeded: [1400, 1330] });
  });

  it('settles at the first level that fits for a given width', () => {
    const contentAtLevel = (level: number) => [1500, 1420, 1330, 1290, 1200, 1050, 960][level] ?? 960;
    expect(settle(unfoldedTopBar, 1280, contentAtLevel).level).toBe(4);
    expect(settle(unfoldedTopBar, 1024, contentAtLevel).level).toBe(6);
    expect(settle(unfoldedTopBar, 1920, contentAtLevel).level).toBe(0);
  });

  it('unfolds only once the bar is as wide as the folded level needed, so it does not flicker in between', () => {
    const contentAtLevel = (level: number) => [1500, 1420, 1330][level] ?? 1330;
    const folded = settle(unfoldedTopBar, 1340, contentAtLevel);
    expect(folded.level).toBe(2);
    // Wider, but not yet as wide as level 1 took: stays.
    expect(nextTopBarFit(folded, { available: 1400, content: 1330 })).toBe(folded);
    // Wide enough for level 1 (1420), not for level 0 (1500).
    expect(settle(folded, 1450, contentAtLevel).level).toBe(1);
    expect(settle(folded, 1600, contentAtLevel).level).toBe(0);
  });

  it('stops at the last level when even that does not fit, rather than folding past the end', () => {
    const full: TopBarFit = { level: maxTopBarFoldLevel, widthNeeded: Array(maxTopBarFoldLevel).fill(2000) };
    expect(nextTopBarFit(full, { available: 900, content: 1000 })).toBe(full);
  });

  it('treats sub-pixel rounding as fitting', () => {
    expect(nextTopBarFit(unfoldedTopBar, { available: 1024, content: 1024.4 })).toBe(unfoldedTopBar);
  });
});
