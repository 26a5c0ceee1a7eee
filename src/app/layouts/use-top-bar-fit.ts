import { useEffect, useLayoutEffect, useState, type RefObject } from 'react';
import { nextTopBarFit, unfoldedTopBar, type TopBarFit } from './top-bar-folding';

/** What the bar's controls need side by side (without the spacer, which only takes what is left) against what the bar has. */
function measureTopBar(bar: HTMLElement): { available: number; content: number } {
  const style = getComputedStyle(bar);
  const gap = Number.parseFloat(style.columnGap) || 0;
  const padding = (Number.parseFloat(style.paddingLeft) || 0) + (Number.parseFloat(style.paddingRight) || 0);
  // Only what sits in the row: a dialog a control opens (fixed, over the page) takes no room in the bar.
  const children = [...bar.children].filter((child) => {
    const position = getComputedStyle(child).position;
    return position !== 'absolute' && position !== 'fixed';
  });
  let content = padding + gap * Math.max(0, children.length - 1);
  for (const child of children) {
    if (!child.classList.contains('top-bar-spacer')) content += child.getBoundingClientRect().width;
  }
  return { available: bar.clientWidth, content };
}

/**
 * The top bar's fold level (see `top-bar-folding.ts`): measured after every render, when the
 * bar or any control in it changes size (fonts, a badge, the window) and when controls come
 * or go. `resetKey` names what changes every control's width at once (language, route,
 * signed in): the bar then starts unfolded again and folds what it must before it is painted.
 */
export function useTopBarFoldLevel(bar: RefObject<HTMLElement | null>, resetKey: string): number {
  const [state, setState] = useState<{ fittedFor: string; fit: TopBarFit }>({ fittedFor: resetKey, fit: unfoldedTopBar });
  const fit = state.fittedFor === resetKey ? state.fit : unfoldedTopBar;

  // After every fold or unfold the bar is measured again, before it is painted, until it fits:
  // measuring the DOM and adjusting before paint is what a layout effect is for (the rule
  // below guards against state that could be derived during render, which widths cannot).
  useLayoutEffect(() => {
    const element = bar.current;
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (element) setState((current) => refit(current, resetKey, measureTopBar(element)));
  }, [bar, resetKey, fit]);

  useEffect(() => {
    const element = bar.current;
    if (!element) return;
    const measure = () => setState((current) => refit(current, resetKey, measureTopBar(element)));
    const resizes = new ResizeObserver(measure);
    const observeAll = () => {
      resizes.disconnect();
      resizes.observe(element);
      for (const child of element.children) resizes.observe(child);
    };
    observeAll();
    const mutations = new MutationObserver(() => {
      observeAll();
      measure();
    });
    mutations.observe(element, { childList: true });
    return () => {
      resizes.disconnect();
      mutations.disconnect();
    };
  }, [bar, resetKey]);

  return fit.level;
}

/** The next state; the same object while nothing changes, so React stops re-rendering. */
function refit(
  current: { fittedFor: string; fit: TopBarFit },
  resetKey: string,
  measured: { available: number; content: number },
): { fittedFor: string; fit: TopBarFit } {
  const from = current.fittedFor === resetKey ? current.fit : unfoldedTopBar;
  const next = nextTopBarFit(from, measured);
  return next === current.fit && current.fittedFor === resetKey ? current : { fittedFor: resetKey, fit: next };
}
