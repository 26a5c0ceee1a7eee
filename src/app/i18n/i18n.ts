import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { fallbackLanguage, type LanguageCode } from '../../shared/i18n/languages';
import type { StringsPart } from './string-parts';

type Strings = Record<string, Record<string, string>>;

// Two chunks per language (string-parts.ts), each fetched only when that language is chosen:
// what the first screen shows, and what the other screens add.
const firstScreenLoaders = import.meta.glob<Strings>('../../shared/i18n/locales/*.json', { query: { strings: 'first-screen' }, import: 'default' });
const otherScreenLoaders = import.meta.glob<Strings>('../../shared/i18n/locales/*.json', { query: { strings: 'other-screens' }, import: 'default' });
const loaders: Record<StringsPart, typeof firstScreenLoaders> = { 'first-screen': firstScreenLoaders, 'other-screens': otherScreenLoaders };

/** One fetch per language and part; a failed one (offline) is forgotten, so the next try asks again. */
const loading = new Map<string, Promise<void>>();

function ensureLoaded(language: LanguageCode, part: StringsPart): Promise<void> {
  const id = `${language}:${part}`;
  let pending = loading.get(id);
  if (!pending) {
    const loader = loaders[part][`../../shared/i18n/locales/${language}.json`];
    if (!loader) return Promise.reject(new Error(`no locale file for ${language}`));
    pending = loader().then(
      (strings) => {
        i18next.addResourceBundle(language, 'translation', strings, true, true);
      },
      (error: unknown) => {
        loading.delete(id);
        throw error;
      },
    );
    loading.set(id, pending);
  }
  return pending;
}

/** Set once a screen past the first needed every string: a new language then brings all of its own. */
let everyScreen = false;

// A desktop fetches its frame while the app starts (main.tsx), before i18next has a language.
let announceReady = () => {};
const ready = new Promise<void>((resolve) => {
  announceReady = resolve;
});

function ensureLanguage(language: LanguageCode): Promise<unknown> {
  return Promise.all([ensureLoaded(language, 'first-screen'), everyScreen ? ensureLoaded(language, 'other-screens') : null]);
}

/** `everyScreen`: all of each language's strings from the start (the staff console). */
export async function initI18n(language: LanguageCode, options: { everyScreen?: boolean } = {}) {
  if (options.everyScreen) everyScreen = true;
  await i18next.use(initReactI18next).init({
    lng: language,
    fallbackLng: fallbackLanguage,
    resources: {},
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  await Promise.all([ensureLanguage(fallbackLanguage), ensureLanguage(language)]);
  document.documentElement.lang = language;
  announceReady();
}

/**
 * Every screen's strings in the language shown (and the fallback), from now on for any
 * language chosen later: awaited before a screen other than the first renders.
 */
export async function loadEveryScreenStrings(): Promise<void> {
  everyScreen = true;
  await ready;
  const languages = new Set<LanguageCode>([fallbackLanguage, i18next.language as LanguageCode]);
  await Promise.all([...languages].map((language) => ensureLoaded(language, 'other-screens')));
}

export async function changeLanguage(language: LanguageCode) {
  await ensureLanguage(language);
  // A screen may have asked for every string while the first part came.
  if (everyScreen) await ensureLoaded(language, 'other-screens');
  await i18next.changeLanguage(language);
  document.documentElement.lang = language;
}

export { i18next };
