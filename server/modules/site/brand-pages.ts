import type { BrandPageData } from '../../../src/shared/api/anonymous';
import { pageLanguage, type BrandPageName, type BrandPagesFile } from '../../../src/shared/config/brand-pages';
import type { LanguageCode } from '../../../src/shared/i18n/languages';

/**
 * The brand's static pages as read from its folder at start (brand-folder.ts): a page in the
 * reader's language, or in the brand's default language when the brand did not write it in
 * the reader's (the default language has every page: the start checks it).
 */
export function createBrandPages(pages: ReadonlyMap<string, BrandPagesFile>, defaultLanguage: string) {
  return {
    page(query: { page: BrandPageName; lang: LanguageCode }): BrandPageData {
      const lang = pageLanguage(pages, query.page, query.lang, defaultLanguage);
      const page = pages.get(lang)?.[query.page];
      // Unreachable after the start's check; a clear failure rather than an empty page.
      if (!page) throw new Error(`the brand has no ${query.page} page in ${lang}`);
      return { page: query.page, lang, title: page.title, sections: page.sections };
    },
  };
}
