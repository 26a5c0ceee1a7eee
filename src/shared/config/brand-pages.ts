import * as z from 'zod/mini';
import { fallbackLanguage, type LanguageCode } from '../i18n/languages';

/**
 * A brand's static pages (README "Brands"): the trading standards, the privacy policy and the
 * deposit service agreement, written by the brand in `brands/<name>/pages/<lang>.json`, one
 * file per language it writes them in. The brand's default language has every page; another
 * language may have some, and a reader of a language the brand did not write a page in reads
 * it in the default language.
 */
export const brandPageNames = ['standards', 'privacy', 'agreement'] as const;
export type BrandPageName = (typeof brandPageNames)[number];

const text = z.string().check(z.trim(), z.minLength(1));

export const brandPageSection = z.strictObject({
  /** The section's heading; none for the page's opening paragraphs. */
  heading: z.optional(text),
  paragraphs: z.array(text).check(z.minLength(1)),
});

export const brandPage = z.strictObject({
  title: text,
  sections: z.array(brandPageSection).check(z.minLength(1)),
});
export type BrandPage = z.infer<typeof brandPage>;

/** One language's file: some or all of the pages. */
export const brandPagesFile = z.strictObject({
  standards: z.optional(brandPage),
  privacy: z.optional(brandPage),
  agreement: z.optional(brandPage),
});
export type BrandPagesFile = z.infer<typeof brandPagesFile>;

/** The brand's default language: the first it offers, English when it names none. */
export function brandDefaultLanguage(config: { languages: readonly string[] }): string {
  return config.languages[0] ?? fallbackLanguage;
}

/**
 * The language a page is read in: the reader's when the brand wrote the page in it, else the
 * brand's default language (which has every page; the brand's start checks it).
 */
export function pageLanguage(
  written: ReadonlyMap<string, BrandPagesFile>,
  page: BrandPageName,
  readerLanguage: LanguageCode,
  defaultLanguage: string,
): string {
  return written.get(readerLanguage)?.[page] ? readerLanguage : defaultLanguage;
}

/**
 * The figures a page's words state: numbers other than a year, a date, an age or "1 USDT
 * counts as 1 USD". A fee, a minimum or a limit written into a page would contradict what the
 * brand configures and the server enforces (issue 34); those figures belong to the screens that
 * read them from the configuration.
 */
export function pageFigures(page: BrandPage): string[] {
  const words = [page.title, ...page.sections.flatMap((section) => [section.heading ?? '', ...section.paragraphs])].join('\n');
  const withoutAllowed = words
    // Dates (2018-12-14) and the equivalence of the stable coin with the dollar.
    .replace(/\b\d{4}-\d{2}-\d{2}\b/g, '')
    .replace(/\b1\s*USDT\b[^\n.]*?\b1\s*USD\b/g, '');
  const ageWords = /^(?:\s*(?:years?|Jahre|ans|anni|años|tuổi|ปี|歳|세|周岁|岁|歲|tahun))/;
  const figures: string[] = [];
  for (const match of withoutAllowed.matchAll(/\d+(?:[.,]\d+)*\s*%?/g)) {
    const figure = match[0].trim();
    const after = withoutAllowed.slice((match.index ?? 0) + match[0].length);
    const before = withoutAllowed.slice(0, match.index ?? 0);
    // An age ("16 years old", "16歳", "만 16세", "อายุ 16 ปี") is the law's, not the brand's configuration.
    if (/^(1[0-9]|2[01])$/.test(figure) && (ageWords.test(after) || /(?:อายุ|만|usia|âge de|età di|edad de|under|unter)\s*$/i.test(before))) continue;
    figures.push(figure);
  }
  return figures;
}
