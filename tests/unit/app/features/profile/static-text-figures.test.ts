import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const textsDir = 'src/app/features/profile/static-texts';

/**
 * The trading standards page is marketing text in 11 languages: a fee, a bound or a count of
 * markets written there would contradict what the brand configures and the server enforces
 * (issue 34: "25 USDT" there, 1 USDT on the withdrawal form). Figures live on the screens that
 * read them from the configuration; the page may say only that 1 USDT counts as 1 USD.
 */
describe('the trading standards in every language', () => {
  for (const file of fs.readdirSync(textsDir)) {
    it(`${file} states no fee, bound or count`, () => {
      const texts = JSON.parse(fs.readFileSync(path.join(textsDir, file), 'utf8')) as { standards: { intro: string; sections: { heading: string; body: string }[] } };
      const words = [texts.standards.intro, ...texts.standards.sections.flatMap((section) => [section.heading, section.body])].join('\n');
      const figures = (words.match(/\d[\d.,]*\s*%?/g) ?? []).map((figure) => figure.trim());
      expect(figures.filter((figure) => figure !== '1')).toEqual([]);
    });
  }
});
