import fs from 'node:fs';
import path from 'node:path';
import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { brandPageNames, brandPagesFile, pageFigures, pageLanguage, type BrandPage, type BrandPagesFile } from '../../../../src/shared/config/brand-pages';

const page = (...paragraphs: string[]): BrandPage => ({ title: 'Standards', sections: [{ paragraphs }] });

describe("a brand page's figures", () => {
  it('finds a fee, a minimum or a percentage', () => {
    expect(pageFigures(page('Every withdrawal costs 25 USDT.', 'Deposits start at 100.', 'A payout of 82 % on a win.'))).toEqual(['25', '100', '82 %']);
  });

  it('finds a figure in a heading or the title', () => {
    expect(pageFigures({ title: 'Trade 40 markets', sections: [{ heading: 'Fees from 0.5%', paragraphs: ['None.'] }] })).toEqual(['40', '0.5%']);
  });

  it('lets a date, an age and "1 USDT counts as 1 USD" stand', () => {
    expect(pageFigures(page('Effective date: 2018-12-14', 'You must be at least 16 years old.', '1 USDT counts as 1 USD.', '18歳以上', 'mindestens 18 Jahre alt', 'อายุ 16 ปี'))).toEqual([]);
  });

  it('an age-like number that is no age is a figure', () => {
    expect(pageFigures(page('A fee of 18 USDT.'))).toEqual(['18']);
  });
});

describe('the page a reader reads', () => {
  const written = new Map<string, BrandPagesFile>([
    ['en', { standards: page('a'), privacy: page('b'), agreement: page('c') }],
    ['ja', { standards: page('d') }],
  ]);
  it("is in the reader's language when the brand wrote it in it", () => {
    expect(pageLanguage(written, 'standards', 'ja', 'en')).toBe('ja');
  });
  it("is in the brand's default language otherwise", () => {
    expect(pageLanguage(written, 'privacy', 'ja', 'en')).toBe('en');
    expect(pageLanguage(written, 'standards', 'th', 'en')).toBe('en');
  });
});

/**
 * Every shipped brand's pages: valid, and stating no figure the configuration decides (issue 34:
 * "25 USDT" in a marketing text, 1 USDT on the withdrawal form). Figures live on the screens that
 * read them from the configuration the server enforces.
 */
describe("every shipped brand's pages", () => {
  for (const brand of fs.readdirSync('brands')) {
    const dir = path.join('brands', brand, 'pages');
    for (const file of fs.readdirSync(dir)) {
      it(`${brand}/pages/${file} is valid and states no configured figure`, () => {
        const parsed = z.parse(brandPagesFile, JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')));
        for (const name of brandPageNames) {
          const written = parsed[name];
          if (written) expect(pageFigures(written), name).toEqual([]);
        }
      });
    }
  }
});
