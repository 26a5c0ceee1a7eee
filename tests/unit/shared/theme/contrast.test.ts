import { describe, expect, it } from 'vitest';
import { brandConfigSchema } from '../../../../src/shared/config/brand-config';
import { contrastRatio, readableTones, schemeSurfaces, textContrast } from '../../../../src/shared/theme/contrast';

/** The default brand's accents, both up/down templates' colours, and the extremes a brand could pick. */
const brandAccents = [...brandConfigSchema.parse({}).themeColors, '#16a34a', '#dc2626', '#ffffff', '#000000', '#facc15', '#00ffff'];

describe('colour contrast (WCAG 2)', () => {
  it('measures the ratios the audit found', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#2f6bff', '#ffffff')).toBeCloseTo(4.5, 1);
    expect(contrastRatio('#2f6bff', '#ffffff')).toBeLessThan(4.5);
    expect(contrastRatio('#16a34a', '#ffffff')).toBeCloseTo(3.3, 1);
    expect(contrastRatio('#ffffff', '#ffffff')).toBe(1);
  });

  it('keeps a brand colour that already passes, and moves one that does not only as far as it must', () => {
    expect(readableTones('#0f172a', 'light').text).toBe('#0f172a');
    const accent = readableTones('#2f6bff', 'light');
    expect(accent.text).not.toBe('#2f6bff');
    expect(contrastRatio(accent.text, '#eef1f6')).toBeGreaterThanOrEqual(textContrast);
    // Just enough: still well away from black.
    expect(contrastRatio(accent.text, '#eef1f6')).toBeLessThan(5.2);
  });

  it('gives every brand accent and up/down colour a text tone at 4.5:1 on every surface, and a fill under white text at 4.5:1, in both schemes', () => {
    for (const colour of brandAccents) {
      for (const scheme of ['light', 'dark'] as const) {
        const tones = readableTones(colour, scheme);
        for (const surface of Object.values(schemeSurfaces[scheme])) {
          expect(contrastRatio(tones.text, surface), `${colour} text on ${surface}`).toBeGreaterThanOrEqual(textContrast);
        }
        expect(contrastRatio(tones.fill, '#ffffff'), `${colour} fill`).toBeGreaterThanOrEqual(textContrast);
      }
    }
  });

  it('refuses a colour that is not one', () => {
    expect(() => readableTones('blue', 'light')).toThrow(/not a hex colour/);
  });
});
