// Draws each catalogue symbol's logo into public/logos/<code>.svg (served as images, loaded
// lazily by the rows that show them, so no icon weighs on the first load): a forex pair as its
// two currencies' flags (flag-icons), an index as its market's flag, a crypto pair as its
// coin's icon (cryptocurrency-icons, CC0), commodities as a monogram of their element or
// grade; stocks keep their ticker monograms. Every flag has a thin grey edge, so white ones
// (Japan, Korea, Indonesia) stay visible on white. Run: npx tsx scripts/symbol-logos.ts
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { instruments } from '../server/modules/market/catalogue';
import { productTypeNumber } from '../src/shared/market/product-types';
import { pairFlags, symbolPair } from '../src/shared/market/symbol-identity';

const require = createRequire(import.meta.url);
const out = path.resolve(import.meta.dirname, '../public/logos');
const edge = '#b8bec8';

/** The markets of the indices, by code. */
const indexFlags: Record<string, string> = { US30: 'us', US500: 'us', NAS100: 'us', GER40: 'de', UK100: 'gb', JP225: 'jp', HK50: 'hk' };
/** Commodities by what they are: the element's symbol for metals, the grade for oil, in its colour. */
const commodityMarks: Record<string, { text: string; fill: string; ink: string }> = {
  XAUUSD: { text: 'Au', fill: '#d4a62a', ink: '#ffffff' },
  XAGUSD: { text: 'Ag', fill: '#9aa4ae', ink: '#ffffff' },
  COPPER: { text: 'Cu', fill: '#b4652e', ink: '#ffffff' },
  USOIL: { text: 'WTI', fill: '#24292f', ink: '#ffffff' },
  UKOIL: { text: 'BRENT', fill: '#3b3f46', ink: '#ffffff' },
  NGAS: { text: 'NG', fill: '#2563eb', ink: '#ffffff' },
};

function read(file: string): string {
  return fs.readFileSync(require.resolve(file), 'utf8');
}

/** A flag-icons square flag as a nested svg at (x, y) of `size`, its ids made unique by `prefix`. */
function nestedFlag(code: string, prefix: string, x: number, y: number, size: number): string {
  const source = read(`flag-icons/flags/1x1/${code}.svg`);
  const viewBox = /viewBox="([^"]+)"/.exec(source)?.[1] ?? '0 0 512 512';
  const inner = source
    .replace(/^[\s\S]*?<svg[^>]*>/, '')
    .replace(/<\/svg>\s*$/, '')
    .replace(/\bid="([^"]+)"/g, (_whole, id: string) => `id="${prefix}${id}"`)
    .replace(/url\(#([^)]+)\)/g, (_whole, id: string) => `url(#${prefix}${id})`)
    .replace(/href="#([^"]+)"/g, (_whole, id: string) => `href="#${prefix}${id}"`);
  return `<svg x="${x}" y="${y}" width="${size}" height="${size}" viewBox="${viewBox}" preserveAspectRatio="xMidYMid slice">${inner}</svg>`;
}

/** A flag in a circle of radius r at (cx, cy), with its thin edge (and a ring of `ring` colour around it, to part two flags). */
function flagCircle(code: string, prefix: string, cx: number, cy: number, r: number, ring?: string): string {
  const clip = `${prefix}clip`;
  return [
    ring ? `<circle cx="${cx}" cy="${cy}" r="${r + 2}" fill="${ring}"/>` : '',
    `<clipPath id="${clip}"><circle cx="${cx}" cy="${cy}" r="${r}"/></clipPath>`,
    `<g clip-path="url(#${clip})">${nestedFlag(code, prefix, cx - r, cy - r, r * 2)}</g>`,
    `<circle cx="${cx}" cy="${cy}" r="${r - 0.5}" fill="none" stroke="${edge}" stroke-width="1.5"/>`,
  ].join('');
}

// xlink is declared: some flags refer to their parts with xlink:href.
const svg = (body: string) => `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="64" height="64" viewBox="0 0 64 64">${body}</svg>\n`;

function monogram(text: string, fill: string, ink: string): string {
  const size = text.length <= 2 ? 24 : text.length === 3 ? 18 : 13;
  return svg(
    `<circle cx="32" cy="32" r="32" fill="${fill}"/><text x="32" y="${32 + size * 0.36}" text-anchor="middle" font-family="Arial, Helvetica, sans-serif" font-size="${size}" font-weight="700" fill="${ink}">${text}</text>`,
  );
}

function logoOf(code: string, type: number): string | null {
  const flags = pairFlags(code, type);
  // The quote currency behind, the base in front (read first), parted by a white ring.
  if (flags) return svg(flagCircle(flags[1], 'q-', 40, 40, 22) + flagCircle(flags[0], 'b-', 24, 24, 22, '#ffffff'));
  const market = indexFlags[code];
  if (market) return svg(flagCircle(market, 'm-', 32, 32, 31));
  const pair = symbolPair(code, type);
  if (pair) {
    const icon = read(`cryptocurrency-icons/svg/color/${pair.base.toLowerCase()}.svg`);
    // Drawn at the logos' size: the icon's own width and height give way to 64.
    return icon.replace(/^<svg([^>]*)>/, (_whole, attributes: string) => `<svg width="64" height="64"${attributes.replace(/\s(width|height)="[^"]*"/g, '')}>`).trim() + '\n';
  }
  const mark = commodityMarks[code];
  return mark ? monogram(mark.text, mark.fill, mark.ink) : null;
}

let written = 0;
for (const instrument of instruments) {
  const logo = logoOf(instrument.code, productTypeNumber(instrument.type));
  if (logo === null) continue;
  fs.writeFileSync(path.join(out, `${instrument.code}.svg`), logo);
  written += 1;
}
console.log(`wrote ${written} logos into ${path.relative(process.cwd(), out)}`);
