import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { firstScreenStrings, isFirstScreenKey, stringsPart } from '../../../../src/app/i18n/string-parts';
import { languageCodes } from '../../../../src/shared/i18n/languages';
import { sectionsNamedIn, staticSourceGraph } from './static-graph';
import { StaffErrorCode } from '../../../../src/shared/errors/staff-codes';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
type Strings = { [key: string]: string | Strings };
const localeOf = (code: string) => JSON.parse(fs.readFileSync(path.join(root, `src/shared/i18n/locales/${code}.json`), 'utf8')) as Strings;

function keysOf(strings: Strings, prefix = ''): string[] {
  return Object.entries(strings).flatMap(([name, value]) => (typeof value === 'string' ? [`${prefix}${name}`] : keysOf(value, `${prefix}${name}.`)));
}

describe("the first screen's strings", () => {
  const english = localeOf('en');
  const sections = new Set(Object.keys(english));

  it('hold every string the first load names (home, its shell, the failures and notices it tells)', () => {
    const graph = staticSourceGraph(path.join(root, 'src/app/main.tsx'));
    expect(graph.has(path.join(root, 'src/app/pages/home/home-page.tsx')), 'home is part of the first load').toBe(true);
    const missing: string[] = [];
    for (const [file, source] of graph) {
      // Whole sections named by a template (`errors.${code}`), single strings by their key.
      for (const section of sectionsNamedIn(source, sections)) {
        const templated = new RegExp(`[\`]${section}\\.\\$\\{`).test(source);
        if (templated && !isFirstScreenKey(section)) missing.push(`${section}.* (${path.relative(root, file)})`);
      }
      for (const found of source.matchAll(/['"`]([a-z_]+\.[a-zA-Z0-9_.]+)['"`]/g)) {
        const key = found[1] as string;
        if (keysOf(english).includes(key) && !isFirstScreenKey(key)) missing.push(`${key} (${path.relative(root, file)})`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('and the other part split every language file in two, without a string lost or doubled', () => {
    for (const code of languageCodes) {
      const whole = localeOf(code);
      const first = stringsPart(whole, 'first-screen');
      const other = stringsPart(whole, 'other-screens');
      const firstKeys = keysOf(first);
      const otherKeys = keysOf(other);
      expect(firstKeys.filter((key) => otherKeys.includes(key)), code).toEqual([]);
      expect([...firstKeys, ...otherKeys].sort(), code).toEqual(keysOf(whole).sort());
      expect(firstKeys.every((key) => isFirstScreenKey(key)), code).toBe(true);
    }
  });

  it("leave the back office's error texts to the other part: the customer app is never answered them", () => {
    const first = keysOf(stringsPart(english, 'first-screen'));
    const other = keysOf(stringsPart(english, 'other-screens'));
    expect(first).toContain('errors.411');
    for (const code of Object.values(StaffErrorCode)) {
      expect(first, `errors.${code}`).not.toContain(`errors.${code}`);
      expect(other, `errors.${code}`).toContain(`errors.${code}`);
    }
  });

  it('are a small share of each language file, and name only strings that exist', () => {
    const first = keysOf(stringsPart(english, 'first-screen'));
    expect(first).toContain('chart.product_not_found');
    expect(first).not.toContain('chart.quote');
    expect(first.length).toBeLessThan(keysOf(english).length / 2);
    for (const entry of firstScreenStrings) expect(keysOf(english).some((key) => key === entry || key.startsWith(`${entry}.`)), entry).toBe(true);
  });
});
