import { changeLanguage, i18next, initI18n } from '../../app/i18n/i18n';
import type { LanguageCode } from '../../shared/i18n/languages';
import staffEnglish from './en.json';

/**
 * The app's i18n (the same 12 shared language files, the same choice of language) plus the
 * console's own strings under `staff.*`, which only this bundle loads. Staff strings exist in
 * English only: other languages fall back to them through i18next's fallback language, while
 * shared strings (error codes, buttons) stay translated.
 */
export async function initStaffI18n(language: LanguageCode) {
  // Every part of the shared strings: the console shows error codes and buttons of any screen.
  await initI18n(language, { everyScreen: true });
  i18next.addResourceBundle('en', 'translation', staffEnglish, true, false);
}

export { changeLanguage, i18next };
