import { describe, expect, it } from 'vitest';
import { enabledLanguages, languageCodes, matchBrowserLanguage, pickLanguage } from '../../../../src/shared/i18n/languages';

const allOn = { enableSimplifiedChinese: true, enableIndonesian: true };
const allOff = { enableSimplifiedChinese: false, enableIndonesian: false };

describe('languages', () => {
  it('has the 12 languages, with zh-cn and id only when the brand enables them', () => {
    expect(languageCodes).toEqual(['en', 'zh-tw', 'zh-cn', 'ja', 'de', 'fr', 'it', 'ko', 'es', 'vi', 'th', 'id']);
    expect(enabledLanguages(allOn)).toHaveLength(12);
    expect(enabledLanguages(allOff).map((language) => language.code)).not.toContain('zh-cn');
    expect(enabledLanguages(allOff).map((language) => language.code)).not.toContain('id');
  });

  it("offers only the brand's languages when it names them, in the pickers' order, zh-cn still behind its switch", () => {
    const codes = (brand: Parameters<typeof enabledLanguages>[0]) => enabledLanguages(brand).map((language) => language.code);
    expect(codes({ ...allOn, languages: ['ja', 'en', 'de'] })).toEqual(['en', 'ja', 'de']);
    expect(codes({ ...allOff, languages: ['zh-cn', 'es'] })).toEqual(['es']);
  });

  it('maps browser tags to our languages', () => {
    const all = enabledLanguages(allOn).map((language) => language.code);
    const some = enabledLanguages(allOff).map((language) => language.code);
    expect(matchBrowserLanguage('de-AT', all)).toBe('de');
    expect(matchBrowserLanguage('zh-Hant-HK', all)).toBe('zh-tw');
    expect(matchBrowserLanguage('zh-CN', all)).toBe('zh-cn');
    expect(matchBrowserLanguage('zh-CN', some)).toBe('zh-tw');
    expect(matchBrowserLanguage('in-ID', all)).toBe('id');
    expect(matchBrowserLanguage('id', some)).toBeNull();
    expect(matchBrowserLanguage('pt-BR', all)).toBeNull();
  });

  it('prefers the stored choice, then the browser, then English', () => {
    const some = enabledLanguages(allOff).map((language) => language.code);
    expect(pickLanguage('ja', ['de'], some)).toBe('ja');
    expect(pickLanguage('id', ['pt-BR', 'fr-CA'], some)).toBe('fr');
    expect(pickLanguage(undefined, ['pt-BR'], some)).toBe('en');
  });
});
