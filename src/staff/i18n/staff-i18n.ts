import { changeLanguage as changeAppLanguage, i18next, initI18n } from '../../app/i18n/i18n';
import { fallbackLanguage, type LanguageCode } from '../../shared/i18n/languages';
import staffEnglish from './en.json';

type StaffStrings = typeof staffEnglish;

// English is in the console's entry (the fallback of every other language); each other
// language is its own chunk, fetched only when an operator reads that language.
const staffLoaders = import.meta.glob<StaffStrings>(['./*.json', '!./en.json'], { import: 'default' });

/** One fetch per language; a failed one (offline) is forgotten, so the next try asks again. */
const fetching = new Map<LanguageCode, Promise<StaffStrings>>();

function fetchStaffStrings(language: LanguageCode): Promise<StaffStrings> {
  if (language === fallbackLanguage) return Promise.resolve(staffEnglish);
  let pending = fetching.get(language);
  if (!pending) {
    const loader = staffLoaders[`./${language}.json`];
    if (!loader) return Promise.reject(new Error(`no staff strings for ${language}`));
    pending = loader().catch((error: unknown) => {
      fetching.delete(language);
      throw error;
    });
    fetching.set(language, pending);
  }
  return pending;
}

function addStaffStrings(language: LanguageCode, strings: StaffStrings) {
  i18next.addResourceBundle(language, 'translation', strings, true, true);
}

/**
 * The app's i18n (the same 12 shared language files, the same choice of language) plus the
 * console's own strings under `staff.*`, which only this bundle loads: English always, and
 * the language shown when it is another one.
 */
export async function initStaffI18n(language: LanguageCode) {
  // Fetched while the shared strings come; added once i18next is initialised.
  const staffStrings = fetchStaffStrings(language);
  // Every part of the shared strings: the console shows error codes and buttons of any screen.
  await initI18n(language, { everyScreen: true });
  addStaffStrings(fallbackLanguage, staffEnglish);
  addStaffStrings(language, await staffStrings);
}

/** Shows another language once both its shared and its staff strings are in. */
export async function changeLanguage(language: LanguageCode) {
  addStaffStrings(language, await fetchStaffStrings(language));
  await changeAppLanguage(language);
}

export { i18next };
