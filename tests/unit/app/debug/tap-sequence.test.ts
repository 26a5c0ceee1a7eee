import { describe, expect, it } from 'vitest';
import { createTapSequenceDetector, debugConsoleTaps } from '../../../../src/app/debug/tap-sequence';

describe('debug console tap sequence', () => {
  it('opens after more than 5 taps within 3 s, not after 5', () => {
    const detector = createTapSequenceDetector(debugConsoleTaps);
    const results = [0, 300, 600, 900, 1200].map((time) => detector.tap(time));
    expect(results.every((opened) => !opened)).toBe(true);
    expect(detector.tap(1500)).toBe(true);
  });

  it('does not open when the taps are spread over more than 3 s', () => {
    const detector = createTapSequenceDetector(debugConsoleTaps);
    const results = [0, 700, 1400, 2100, 2800, 3500, 4200].map((time) => detector.tap(time));
    expect(results.some(Boolean)).toBe(false);
  });
});
