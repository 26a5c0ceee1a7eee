import i18next, { type i18n, type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import englishStrings from '../../../src/shared/i18n/locales/en.json';
import germanStrings from '../../../src/shared/i18n/locales/de.json';
import staffEnglish from '../../../src/staff/i18n/en.json';
import staffGerman from '../../../src/staff/i18n/de.json';

/** An i18next instance made at once (the app fetches each language's chunk; a test needs none of that), English under `language`. */
function instanceOf(language: string, resources: Resource): i18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: language,
    fallbackLng: 'en',
    resources,
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });
  return instance;
}

/** The app's English strings. Views see it through `I18nextProvider`. */
export function englishI18n(): i18n {
  return instanceOf('en', { en: { translation: englishStrings } });
}

/** The app's strings in German, English under it: a German reader's view. */
export function germanI18n(): i18n {
  return instanceOf('de', { en: { translation: englishStrings }, de: { translation: germanStrings } });
}

/** The staff console's strings (the shared ones with the console's own beside them, as initStaffI18n loads them), in English or German with English under it. */
export function consoleI18n(language: 'en' | 'de' = 'en'): i18n {
  return instanceOf(language, {
    en: { translation: { ...englishStrings, ...staffEnglish } },
    de: { translation: { ...germanStrings, ...staffGerman } },
  });
}

/** The English text of a key, as a view would show it: tests name what the user reads through the same catalogue. */
export const english = englishI18n();
export const t = english.t.bind(english);
