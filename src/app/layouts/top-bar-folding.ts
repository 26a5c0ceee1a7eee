/**
 * Which desktop top-bar controls give way to the "More" menu, and when. The bar measures
 * itself (a ResizeObserver in `use-top-bar-fit.ts`); this module only decides. Controls fold
 * one at a time in a declared order, secondary ones first, so every language and every
 * signed-in state fits without per-language widths. The account switch (Real/Demo), the
 * user card, the trade-mode switch and the chart's period and candle type never fold; the
 * connection mark drops its word (`connectionWord`) early, keeping its coloured dot; last of
 * all the user card shortens to its badges and an icon (`userName`), both named for assistive
 * technology and as a tooltip.
 */
export const topBarFoldOrder = [
  'themeColour',
  'phoneView',
  'colourScheme',
  // The connection mark keeps its dot (its state's colour, named for assistive technology, its word as a tooltip) before the language folds.
  'connectionWord',
  'language',
  'indicators',
  // The start page's panel toggles, the least used first.
  'quoteList',
  'search',
  'placeOrder',
  'userName',
] as const;

export type FoldableTopBarItem = (typeof topBarFoldOrder)[number];

/** The most controls that can be folded at once: all of them. */
export const maxTopBarFoldLevel = topBarFoldOrder.length;

/** The controls in the "More" menu at a fold level (how many have given way, in order). */
export function foldedTopBarItems(level: number): ReadonlySet<FoldableTopBarItem> {
  const clamped = Math.max(0, Math.min(maxTopBarFoldLevel, Math.floor(level)));
  return new Set(topBarFoldOrder.slice(0, clamped));
}

export interface TopBarFit {
  /** How many controls have folded, in `topBarFoldOrder`. */
  level: number;
  /** widthNeeded[k]: the width the bar's content took at level k when it last did not fit; level k comes back only once that much is available. */
  widthNeeded: readonly number[];
}

export const unfoldedTopBar: TopBarFit = { level: 0, widthNeeded: [] };

/** Sub-pixel layout rounding is not an overflow. */
const roundingPx = 0.5;

/**
 * One step towards a bar that fits: fold the next control while the content is wider than
 * the bar, unfold the last folded one once the bar is as wide as that level needed.
 * Returns the same object when nothing changes (so a caller can stop re-measuring).
 * Remembering the needed width (rather than guessing a folded control's size) keeps the
 * bar from flickering between two levels at a width in between.
 */
export function nextTopBarFit(fit: TopBarFit, measured: { available: number; content: number }): TopBarFit {
  if (measured.content > measured.available + roundingPx) {
    if (fit.level >= maxTopBarFoldLevel) return fit;
    const widthNeeded = [...fit.widthNeeded];
    widthNeeded[fit.level] = measured.content;
    return { level: fit.level + 1, widthNeeded };
  }
  if (fit.level === 0) return fit;
  const needed = fit.widthNeeded[fit.level - 1];
  if (needed !== undefined && needed <= measured.available + roundingPx) return { level: fit.level - 1, widthNeeded: fit.widthNeeded };
  return fit;
}
