import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { resetEngineSignals } from './engine-state';
import { installTestLayout, resetTestLayout } from './layout';

// What a view shows after a request or a re-render may take more than the default second on a
// loaded machine; the wait ends as soon as it shows.
configure({ asyncUtilTimeout: 10_000 });

// jsdom has no object URLs; a picked image's preview needs one (it is never loaded here).
let objectUrls = 0;
URL.createObjectURL ??= () => `blob:component-test/${(objectUrls += 1)}`;
URL.revokeObjectURL ??= () => undefined;

// jsdom lays nothing out: the virtualized lists get the sizes a phone gives them (layout.ts).
installTestLayout();

// Vitest runs without globals here, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  resetEngineSignals();
  resetTestLayout();
});
