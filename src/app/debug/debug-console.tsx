import { signal } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import { Suspense, type ReactNode } from 'react';
import { lazyPart } from '../routing/lazy-screen';
import { createTapSequenceDetector, debugConsoleTaps } from './tap-sequence';

/** Whether the console shows (its panel closes it). */
export const debugConsoleOpen = signal(false, { name: 'debugConsoleOpen' });
const detector = createTapSequenceDetector(debugConsoleTaps);
const panel = lazyPart(() => import('./debug-console-panel'), 'DebugConsolePanel');

/** Wraps the element whose rapid taps open the hidden debug console. */
export function DebugTapTarget(props: { children: ReactNode; className?: string }) {
  return (
    <span
      className={`debug-tap ${props.className ?? ''}`}
      onPointerDown={() => {
        if (detector.tap(Date.now())) debugConsoleOpen.value = true;
      }}
    >
      {props.children}
    </span>
  );
}

/** The hidden debug console, shown once its tap target was tapped fast enough. */
export function DebugConsole() {
  useSignals();
  if (!debugConsoleOpen.value) return null;
  return (
    <Suspense fallback={null}>
      <panel.Component />
    </Suspense>
  );
}
