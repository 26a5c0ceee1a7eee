import { isLanguageCode } from '../../shared/i18n/languages';
import { savePreferences } from '../preferences/preferences';
import { changeLanguage } from './i18n';

/**
 * Remembers another language, then shows the app in it (unknown codes change nothing). Stored
 * first: a reload the moment the text changes would otherwise come back in the old language.
 */
export async function chooseLanguage(code: string): Promise<void> {
  if (!isLanguageCode(code)) return;
  await savePreferences({ language: code });
  await changeLanguage(code);
}
