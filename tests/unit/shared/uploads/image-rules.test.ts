import { describe, expect, it } from 'vitest';
import { compressionQualities, extensionOf, fitWithin, hasImageExtension, isHeic } from '../../../../src/shared/uploads/image-rules';

describe('image rules', () => {
  it('accepts .heic, .jpg, .jpeg and .png names only, whatever their case', () => {
    expect(['a.heic', 'b.JPG', 'c.jpeg', 'd.Png'].map(hasImageExtension)).toEqual([true, true, true, true]);
    expect(['a.gif', 'b.svg', 'c', 'd.png.exe', '.png.txt'].map(hasImageExtension)).toEqual([false, false, false, false, false]);
    expect(extensionOf('photo.final.JPEG')).toBe('.jpeg');
  });

  it('recognises HEIC by name or type', () => {
    expect(isHeic('IMG_1.HEIC', '')).toBe(true);
    expect(isHeic('upload', 'image/heif')).toBe(true);
    expect(isHeic('a.jpg', 'image/jpeg')).toBe(false);
  });

  it('fits an image within the bounds, proportions kept, never enlarged', () => {
    expect(fitWithin(4000, 3000, 1920)).toEqual({ width: 1920, height: 1440 });
    expect(fitWithin(1000, 5000, 1920)).toEqual({ width: 384, height: 1920 });
    expect(fitWithin(800, 600, 1920)).toEqual({ width: 800, height: 600 });
  });

  it('tries quality 0.75 first, then lower down to 0.4', () => {
    expect(compressionQualities()).toEqual([0.75, 0.65, 0.55, 0.45]);
  });
});
