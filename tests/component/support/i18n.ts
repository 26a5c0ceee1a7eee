import i18next, { type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import englishStrings from '../../../src/shared/i18n/locales/en.json';

/**
 * The app's English strings in an i18next instance made at once (the app fetches each
 * language's chunk; a test needs none of that). Views see it through `I18nextProvider`.
 */
export function englishI18n(): i18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: 'en',
    fallbackLng: 'en',
    resources: { en: { translation: englishStrings } },
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });
  return instance;
}

/** The English text of a key, as a view would show it: tests name what the user reads through the same catalogue. */
export const english = englishI18n();
export const t = english.t.bind(english);
