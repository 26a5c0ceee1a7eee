import { describe, expect, it, vi } from 'vitest';

// Every screen's strings arrive when the test says so.
let stringsArrive = () => {};
const everyScreenStrings = vi.fn(
  () =>
    new Promise<void>((resolve) => {
      stringsArrive = resolve;
    }),
);
vi.mock('../../../../src/app/i18n/i18n', () => ({ loadEveryScreenStrings: everyScreenStrings }));

const { lazyPart } = await import('../../../../src/app/routing/lazy-screen');

describe('a screen fetched on demand', () => {
  it('renders only once every screen’s strings are in, not with the first screen’s alone', async () => {
    const Screen = () => null;
    const part = lazyPart(async () => ({ Screen }), 'Screen');
    let loaded = false;
    const loading = part.load().then(() => {
      loaded = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(everyScreenStrings).toHaveBeenCalledTimes(1);
    expect(loaded).toBe(false);
    stringsArrive();
    await loading;
    expect(loaded).toBe(true);
    // One fetch shared by prefetch and render.
    await part.load();
    expect(everyScreenStrings).toHaveBeenCalledTimes(1);
  });
});
