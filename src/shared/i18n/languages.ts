/** The 12 interface languages, each named in itself, with the flag shown in pickers. */
export const languages = [
  { code: 'en', name: 'English', flag: 'gb' },
  { code: 'zh-tw', name: '繁體中文', flag: 'tw' },
  { code: 'zh-cn', name: '简体中文', flag: 'cn' },
  { code: 'ja', name: '日本語', flag: 'jp' },
  { code: 'de', name: 'Deutsch', flag: 'de' },
  { code: 'fr', name: 'Français', flag: 'fr' },
  { code: 'it', name: 'Italiano', flag: 'it' },
  { code: 'ko', name: '한국어', flag: 'kr' },
  { code: 'es', name: 'Español', flag: 'es' },
  { code: 'vi', name: 'Tiếng Việt', flag: 'vn' },
  { code: 'th', name: 'ไทย', flag: 'th' },
  { code: 'id', name: 'Bahasa Indonesia', flag: 'id' },
] as const;

export type Language = (typeof languages)[number];
export type LanguageCode = Language['code'];
export const fallbackLanguage: LanguageCode = 'en';

export const languageCodes: readonly LanguageCode[] = languages.map((language) => language.code);

export function isLanguageCode(value: string): value is LanguageCode {
  return (languageCodes as readonly string[]).includes(value);
}

/** The brand's languages (all when it names none); Simplified Chinese and Indonesian only when it enables them. */
export function enabledLanguages(brand: {
  languages?: readonly string[];
  enableSimplifiedChinese: boolean;
  enableIndonesian: boolean;
}): Language[] {
  return languages.filter(
    (language) =>
      (!brand.languages?.length || brand.languages.includes(language.code)) &&
      (language.code !== 'zh-cn' || brand.enableSimplifiedChinese) &&
      (language.code !== 'id' || brand.enableIndonesian),
  );
}

/** Maps a browser language tag (`zh-Hant-HK`, `in-ID`, `pt-BR`) to ours, if we have it. */
export function matchBrowserLanguage(tag: string, enabled: readonly LanguageCode[]): LanguageCode | null {
  const lower = tag.trim().toLowerCase();
  if (lower === '') return null;
  const [primary = ''] = lower.split('-');
  let candidate: string = primary;
  if (primary === 'zh') {
    const traditional = /-(tw|hk|mo|hant)\b/.test(lower);
    candidate = traditional ? 'zh-tw' : 'zh-cn';
    if (!enabled.includes(candidate as LanguageCode)) candidate = 'zh-tw';
  } else if (primary === 'in') {
    candidate = 'id';
  }
  return enabled.includes(candidate as LanguageCode) ? (candidate as LanguageCode) : null;
}

/**
 * The language to show: the stored choice if still enabled, else the first browser
 * language we have, else English.
 */
export function pickLanguage(
  stored: string | undefined,
  browserLanguages: readonly string[],
  enabled: readonly LanguageCode[],
): LanguageCode {
  if (stored && isLanguageCode(stored) && enabled.includes(stored)) return stored;
  for (const tag of browserLanguages) {
    const match = matchBrowserLanguage(tag, enabled);
    if (match) return match;
  }
  return fallbackLanguage;
}
