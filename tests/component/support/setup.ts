import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { resetEngineSignals } from './engine-state';

// jsdom has no object URLs; a picked image's preview needs one (it is never loaded here).
let objectUrls = 0;
URL.createObjectURL ??= () => `blob:component-test/${(objectUrls += 1)}`;
URL.revokeObjectURL ??= () => undefined;

// Vitest runs without globals here, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  resetEngineSignals();
});
