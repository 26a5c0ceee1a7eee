import { useSyncExternalStore } from 'react';

export interface Viewport {
  width: number;
  height: number;
}

/** Below this width the mobile layout applies. */
export const desktopMinWidthPx = 992;
/** Theme swatches show in the top bar only above this width. */
export const swatchesMinWidthPx = 1600;

let cached: Viewport = { width: window.innerWidth, height: window.innerHeight };

function subscribe(onChange: () => void) {
  const handler = () => {
    cached = { width: window.innerWidth, height: window.innerHeight };
    onChange();
  };
  window.addEventListener('resize', handler);
  return () => window.removeEventListener('resize', handler);
}

export function useViewport(): Viewport {
  return useSyncExternalStore(subscribe, () => cached);
}

export function useIsDesktop(): boolean {
  return useViewport().width >= desktopMinWidthPx;
}
