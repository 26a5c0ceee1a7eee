import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { languageCodes } from '../../../src/shared/i18n/languages';

type Strings = { [key: string]: string | Strings };

const readStaffStrings = (code: string): Strings =>
  JSON.parse(fs.readFileSync(new URL(`../../../src/staff/i18n/${code}.json`, import.meta.url), 'utf8')) as Strings;

/** Every string of a file by its dotted key, in file order. */
function flatten(strings: Strings, prefix = ''): Map<string, string> {
  const flat = new Map<string, string>();
  for (const [key, value] of Object.entries(strings)) {
    if (typeof value === 'string') flat.set(`${prefix}${key}`, value);
    else for (const [inner, text] of flatten(value, `${prefix}${key}.`)) flat.set(inner, text);
  }
  return flat;
}

const placeholders = (text: string | undefined) => [...(text ?? '').matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]).sort();

const english = flatten(readStaffStrings('en'));
const otherLanguages = languageCodes.filter((code) => code !== 'en');

describe("the staff console's languages", () => {
  it('has a staff strings file for each of the 12 languages', () => {
    const files = fs.readdirSync(new URL('../../../src/staff/i18n/', import.meta.url)).filter((file) => file.endsWith('.json'));
    expect(files.map((file) => file.replace(/\.json$/, '')).sort()).toEqual([...languageCodes].sort());
  });

  it.each(otherLanguages)('keeps %s on exactly the English keys, with the same placeholders', (language) => {
    const strings = flatten(readStaffStrings(language));
    expect([...strings.keys()], language).toEqual([...english.keys()]);
    for (const [key, text] of english) {
      expect(strings.get(key)?.trim(), `${language} ${key} is empty`).toBeTruthy();
      expect(placeholders(strings.get(key)), `${language} ${key}`).toEqual(placeholders(text));
    }
  });

  it.each(otherLanguages)('really translates %s: most of its strings differ from English', (language) => {
    const strings = flatten(readStaffStrings(language));
    // Codes and loan words (UID, Status, Margin, Demo) may stay as they are; sentences may not.
    const same = [...english].filter(([key, text]) => strings.get(key) === text).map(([key]) => key);
    expect(same.length / english.size, `${language}: ${same.join(', ')}`).toBeLessThan(0.1);
    const sameSentences = same.filter((key) => (english.get(key) ?? '').split(' ').length > 3);
    expect(sameSentences, language).toEqual([]);
  });
});
