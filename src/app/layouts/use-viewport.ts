import { useSyncExternalStore } from 'react';
import { preferences, savePreferences } from '../preferences/preferences';
import { desktopMinWidthPx, effectiveViewport, type Viewport } from './viewport-rules';

export { desktopMinWidthPx, type Viewport } from './viewport-rules';

/** The phone view chosen in this visit; null: the stored preference (read when first needed, after start-up loaded it). */
let phoneViewChoice: boolean | null = null;
const listeners = new Set<() => void>();
let cached: Viewport = { width: 0, height: 0, phoneView: false };

function snapshot(): Viewport {
  const next = effectiveViewport({ width: window.innerWidth, height: window.innerHeight }, phoneViewChoice ?? preferences().phoneView === true);
  // The same object while nothing changed, as useSyncExternalStore requires.
  if (next.width !== cached.width || next.height !== cached.height || next.phoneView !== cached.phoneView) cached = next;
  return cached;
}

function subscribe(onChange: () => void) {
  listeners.add(onChange);
  window.addEventListener('resize', onChange);
  return () => {
    listeners.delete(onChange);
    window.removeEventListener('resize', onChange);
  };
}

export function useViewport(): Viewport {
  return useSyncExternalStore(subscribe, snapshot);
}

export function useIsDesktop(): boolean {
  return useViewport().width >= desktopMinWidthPx;
}

/** Shows the phone layout in a centred column on a desktop window (or back), remembered for the next visit. */
export function choosePhoneView(on: boolean): void {
  phoneViewChoice = on;
  void savePreferences({ phoneView: on });
  for (const listener of listeners) listener();
}
