import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { fallbackLanguage, type LanguageCode } from '../../shared/i18n/languages';

type LocaleModule = { default: Record<string, Record<string, string>> };

// One chunk per language, fetched only when that language is chosen.
const localeLoaders = import.meta.glob<LocaleModule>('../../shared/i18n/locales/*.json');

async function loadLocale(language: LanguageCode): Promise<LocaleModule['default']> {
  const loader = localeLoaders[`../../shared/i18n/locales/${language}.json`];
  if (!loader) throw new Error(`no locale file for ${language}`);
  return (await loader()).default;
}

async function ensureLoaded(language: LanguageCode) {
  if (i18next.hasResourceBundle(language, 'translation')) return;
  i18next.addResourceBundle(language, 'translation', await loadLocale(language));
}

export async function initI18n(language: LanguageCode) {
  await i18next.use(initReactI18next).init({
    lng: language,
    fallbackLng: fallbackLanguage,
    resources: {},
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  await ensureLoaded(fallbackLanguage);
  await ensureLoaded(language);
  document.documentElement.lang = language;
}

export async function changeLanguage(language: LanguageCode) {
  await ensureLoaded(language);
  await i18next.changeLanguage(language);
  document.documentElement.lang = language;
}

export { i18next };
