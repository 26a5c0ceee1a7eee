/**
 * Colour contrast as WCAG 2 defines it, and the tones the app derives from a brand's
 * colours so that text and controls stay readable whatever accent a brand picks: text at
 * 4.5:1 against every surface of the scheme, white text on a filled button at 4.5:1. A
 * brand colour that already passes is used as it is; one that does not is darkened (on
 * light surfaces) or lightened (on dark ones) just enough.
 */

export type Rgb = readonly [number, number, number];

export const textContrast = 4.5;
export const controlContrast = 3;

export function parseHex(hex: string): Rgb {
  const match = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!match) throw new Error(`not a hex colour: ${hex}`);
  const digits = match[1]!.length === 3 ? [...match[1]!].map((digit) => digit + digit).join('') : match[1]!;
  return [0, 2, 4].map((at) => parseInt(digits.slice(at, at + 2), 16)) as unknown as Rgb;
}

export function toHex(colour: Rgb): string {
  return `#${colour.map((channel) => Math.round(Math.min(255, Math.max(0, channel))).toString(16).padStart(2, '0')).join('')}`;
}

/** Relative luminance (WCAG 2). */
export function luminance(colour: Rgb): number {
  const [r, g, b] = colour.map((channel) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a: string, b: string): number {
  const [high, low] = [luminance(parseHex(a)), luminance(parseHex(b))].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
}

function mix(colour: Rgb, toward: Rgb, share: number): Rgb {
  return colour.map((channel, index) => channel + (toward[index]! - channel) * share) as unknown as Rgb;
}

/**
 * The colour, moved toward black (`darken`) or white just enough that it reaches `ratio`
 * against every one of `against`; unchanged when it already does.
 */
export function adjustedFor(colour: string, against: readonly string[], ratio: number, direction: 'darken' | 'lighten'): string {
  const passes = (hex: string) => against.every((other) => contrastRatio(hex, other) >= ratio);
  const original = toHex(parseHex(colour));
  if (passes(original)) return original;
  const start = parseHex(original);
  const target: Rgb = direction === 'darken' ? [0, 0, 0] : [255, 255, 255];
  // The smallest share (in 1/200 steps) that passes: the tone stays as close to the brand's as it can.
  for (let step = 1; step <= 200; step += 1) {
    const candidate = toHex(mix(start, target, step / 200));
    if (passes(candidate)) return candidate;
  }
  return toHex(target);
}

/** The surfaces of each colour scheme (the scheme stylesheets in `public/themes/` draw them). */
export const schemeSurfaces = {
  light: { bg: '#f4f6fa', surface: '#ffffff', surface2: '#eef1f6' },
  dark: { bg: '#0b1220', surface: '#121a2b', surface2: '#1a2336' },
} as const;

export type SchemeName = keyof typeof schemeSurfaces;

export interface ReadableTones {
  /** The colour as text or a thin line on any surface of the scheme. */
  text: string;
  /** The colour as a filled control carrying white text. */
  fill: string;
}

/** The readable tones of a brand colour in a scheme. */
export function readableTones(colour: string, scheme: SchemeName): ReadableTones {
  const surfaces = Object.values(schemeSurfaces[scheme]);
  return {
    text: adjustedFor(colour, surfaces, textContrast, scheme === 'light' ? 'darken' : 'lighten'),
    fill: adjustedFor(colour, ['#ffffff'], textContrast, 'darken'),
  };
}
