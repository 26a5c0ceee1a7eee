/**
 * A layout for jsdom, which has none (every size is 0, so a virtualizer sees no viewport and
 * renders no row). Only what the virtualized lists read is modelled, from what the browser
 * would show: their scroll boxes (`virtual-list.tsx`, `virtual-grid.tsx`) get a phone's list
 * area, their rows (`data-index`) the height the stylesheet gives them (a fixed row's inline
 * height, else a one-line row's), and a scroll box scrolls within its content, firing `scroll`
 * as a browser does. ResizeObserver reports each observed element's modelled size once, as a
 * browser does when observation starts. Every other element keeps jsdom's zero sizes.
 */

export interface TestLayout {
  /** The scroll boxes' size: what a page leaves a list. */
  scrollBox: { widthPx: number; heightPx: number };
  /** A measured row's height (a row of one line). */
  rowHeightPx: number;
}

/** A 390 × 844 phone less the header, tabs and tab bar around a list. */
const phoneLayout: TestLayout = { scrollBox: { widthPx: 390, heightPx: 600 }, rowHeightPx: 58 };

let layout: TestLayout = phoneLayout;

/** Another layout for the rest of the test (a shorter list area, taller rows). */
export function setTestLayout(change: Partial<TestLayout>) {
  layout = { ...layout, ...change };
}

export function resetTestLayout() {
  layout = phoneLayout;
}

const scrollBoxSelector = '.virtual-list-scroller, .virtual-grid-scroller';

function isScrollBox(element: Element): boolean {
  return element.matches(scrollBoxSelector);
}

/** A virtualized row: the virtualizer tags each with its index. */
function isRow(element: Element): element is HTMLElement {
  return element instanceof HTMLElement && element.hasAttribute('data-index') && element.closest(scrollBoxSelector) !== null;
}

function inlineHeightPx(element: HTMLElement): number | null {
  const height = Number.parseFloat(element.style.height);
  return Number.isFinite(height) ? height : null;
}

/** The modelled height of an element, or null where jsdom's 0 stands. */
function heightOf(element: Element): number | null {
  if (isScrollBox(element)) return layout.scrollBox.heightPx;
  if (isRow(element)) return inlineHeightPx(element) ?? layout.rowHeightPx;
  return null;
}

function widthOf(element: Element): number | null {
  if (isScrollBox(element)) return layout.scrollBox.widthPx;
  if (isRow(element)) return element.closest(scrollBoxSelector) ? layout.scrollBox.widthPx : null;
  return null;
}

/** What a scroll box holds: its tallest sized content (the list or grid body sized to every row by the virtualizer), and a grid's head above it. */
function contentHeightOf(box: Element): number {
  let tallest = 0;
  for (const sized of box.querySelectorAll<HTMLElement>('[style*="height"]')) {
    if (isRow(sized)) continue;
    tallest = Math.max(tallest, inlineHeightPx(sized) ?? 0);
  }
  return tallest;
}

const scrollTops = new WeakMap<Element, number>();

function maxScrollTop(box: Element): number {
  return Math.max(contentHeightOf(box) - layout.scrollBox.heightPx, 0);
}

/** Moves a scroll box, clamped to its content; a move fires `scroll` after it, as a browser does. */
function scrollBoxTo(box: Element, top: number) {
  const next = Math.min(Math.max(Math.round(top), 0), maxScrollTop(box));
  if (next === (scrollTops.get(box) ?? 0)) return;
  scrollTops.set(box, next);
  setTimeout(() => box.dispatchEvent(new Event('scroll')), 0);
}

function override<T extends object>(prototype: T, name: string, descriptor: PropertyDescriptor) {
  const original = Object.getOwnPropertyDescriptor(prototype, name);
  Object.defineProperty(prototype, name, { configurable: true, ...descriptor });
  return original;
}

class ModelledResizeObserver {
  readonly #callback: ResizeObserverCallback;
  readonly #observed = new Set<Element>();
  constructor(callback: ResizeObserverCallback) {
    this.#callback = callback;
  }
  observe(target: Element) {
    if (this.#observed.has(target)) return;
    this.#observed.add(target);
    // A browser reports an observed element's size once when observation starts, then on each change (none here).
    setTimeout(() => {
      if (!this.#observed.has(target)) return;
      const width = widthOf(target) ?? 0;
      const height = heightOf(target) ?? 0;
      const box = [{ inlineSize: width, blockSize: height }];
      const entry = { target, contentRect: new DOMRect(0, 0, width, height), borderBoxSize: box, contentBoxSize: box, devicePixelContentBoxSize: box };
      this.#callback([entry as unknown as ResizeObserverEntry], this as unknown as ResizeObserver);
    }, 0);
  }
  unobserve(target: Element) {
    this.#observed.delete(target);
  }
  disconnect() {
    this.#observed.clear();
  }
}

/** Puts the model in place of jsdom's zero sizes (once, for the whole run). */
export function installTestLayout() {
  const zeroHeight = (name: 'clientHeight' | 'offsetHeight', prototype: object) => {
    const original = override(prototype, name, {
      get(this: Element) {
        return heightOf(this) ?? (original?.get?.call(this) as number);
      },
    });
  };
  const zeroWidth = (name: 'clientWidth' | 'offsetWidth', prototype: object) => {
    const original = override(prototype, name, {
      get(this: Element) {
        return widthOf(this) ?? (original?.get?.call(this) as number);
      },
    });
  };
  zeroHeight('clientHeight', Element.prototype);
  zeroWidth('clientWidth', Element.prototype);
  zeroHeight('offsetHeight', HTMLElement.prototype);
  zeroWidth('offsetWidth', HTMLElement.prototype);

  const scrollHeight = override(Element.prototype, 'scrollHeight', {
    get(this: Element) {
      return isScrollBox(this) ? Math.max(contentHeightOf(this), layout.scrollBox.heightPx) : (scrollHeight?.get?.call(this) as number);
    },
  });
  const scrollTop = override(Element.prototype, 'scrollTop', {
    get(this: Element) {
      return isScrollBox(this) ? (scrollTops.get(this) ?? 0) : (scrollTop?.get?.call(this) as number);
    },
    set(this: Element, value: number) {
      if (isScrollBox(this)) scrollBoxTo(this, value);
      else scrollTop?.set?.call(this, value);
    },
  });
  function scrollTo(this: Element, optionsOrX?: ScrollToOptions | number, y?: number) {
    const top = typeof optionsOrX === 'object' ? optionsOrX.top : y;
    if (top !== undefined && isScrollBox(this)) scrollBoxTo(this, top);
  }
  function scrollBy(this: Element, optionsOrX?: ScrollToOptions | number, y?: number) {
    const by = typeof optionsOrX === 'object' ? optionsOrX.top : y;
    if (by !== undefined && isScrollBox(this)) scrollBoxTo(this, (scrollTops.get(this) ?? 0) + by);
  }
  override(Element.prototype, 'scrollTo', { value: scrollTo, writable: true });
  override(Element.prototype, 'scrollBy', { value: scrollBy, writable: true });

  globalThis.ResizeObserver ??= ModelledResizeObserver as unknown as typeof ResizeObserver;
}
