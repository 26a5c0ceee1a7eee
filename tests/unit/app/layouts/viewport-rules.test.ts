import { describe, expect, it } from 'vitest';
import { effectiveViewport, phoneViewWidthPx } from '../../../../src/app/layouts/viewport-rules';

describe('phone view on a desktop window', () => {
  it('is the window height × 9 / 16 wide, in whole pixels', () => {
    expect(phoneViewWidthPx(900)).toBe(506);
    expect(phoneViewWidthPx(1600)).toBe(900);
    expect(phoneViewWidthPx(1080)).toBe(607);
  });

  it('applies only when chosen on a desktop-wide window; otherwise the window is the viewport', () => {
    expect(effectiveViewport({ width: 1440, height: 900 }, true)).toEqual({ width: 506, height: 900, phoneView: true });
    expect(effectiveViewport({ width: 1440, height: 900 }, false)).toEqual({ width: 1440, height: 900, phoneView: false });
    // A phone is already a phone.
    expect(effectiveViewport({ width: 390, height: 844 }, true)).toEqual({ width: 390, height: 844, phoneView: false });
  });

  it('is never wider than the window (a very tall, narrow desktop window)', () => {
    expect(effectiveViewport({ width: 1000, height: 2000 }, true)).toEqual({ width: 1000, height: 2000, phoneView: true });
  });
});
