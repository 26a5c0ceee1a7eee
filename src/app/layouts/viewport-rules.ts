/** Below this width the mobile layout applies. */
export const desktopMinWidthPx = 992;

export interface Viewport {
  width: number;
  height: number;
  /** The phone layout shows in a centred column of `width` inside a wider window. */
  phoneView: boolean;
}

/** The specification's mobile width emulation on desktop: the window's height × 9 / 16 (a phone's 16:9 upright), in whole pixels. */
export function phoneViewWidthPx(windowHeight: number): number {
  return Math.floor((windowHeight * 9) / 16);
}

/**
 * The viewport the layouts follow: the window itself, or, with phone view chosen on a
 * desktop-wide window, the phone column (never wider than the window).
 */
export function effectiveViewport(window: { width: number; height: number }, phoneViewChosen: boolean): Viewport {
  if (!phoneViewChosen || window.width < desktopMinWidthPx) return { width: window.width, height: window.height, phoneView: false };
  return { width: Math.min(phoneViewWidthPx(window.height), window.width), height: window.height, phoneView: true };
}
