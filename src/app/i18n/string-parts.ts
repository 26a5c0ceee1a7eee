import { StaffErrorCode } from '../../shared/errors/staff-codes';

/**
 * Each language file is served in two parts (vite.config.ts `localeParts`): the strings the
 * first screen can show (home, its shell, the failures and notices it can tell), fetched
 * with the app, and the others, fetched before any other screen renders (`lazy-screen.ts`).
 * The locale files themselves stay whole. tests/unit/app/i18n/first-screen-strings.test.ts
 * proves that every string the first load names is in the first part.
 */

/** Whole sections (`home`) or single strings (`chart.product_not_found`). */
export const firstScreenStrings: readonly string[] = [
  'boot',
  'common',
  'desktop',
  'errors',
  'home',
  'market',
  'mode',
  'nav',
  'notice',
  'page',
  'theme',
  'chart.product_not_found',
  'profile.invite_title',
];

/**
 * Strings inside those sections that stay out of the first part: the back office's error
 * texts (staff-codes.ts), which the customer app is never answered; the console loads both parts.
 */
export const notFirstScreenStrings: readonly string[] = Object.values(StaffErrorCode).map((code) => `errors.${code}`);

export type StringsPart = 'first-screen' | 'other-screens';
export const stringsParts: readonly StringsPart[] = ['first-screen', 'other-screens'];

type Strings = { [key: string]: string | Strings };

const covers = (entry: string, key: string) => key === entry || key.startsWith(`${entry}.`);

/** Whether a key (`chart.product_not_found`) is one the first part holds. */
export function isFirstScreenKey(key: string, first: readonly string[] = firstScreenStrings, except: readonly string[] = notFirstScreenStrings): boolean {
  return !except.some((entry) => covers(entry, key)) && first.some((entry) => covers(entry, key));
}

/** One part of a language's strings (pure: the whole file comes in, the part goes out). */
export function stringsPart(strings: Strings, part: StringsPart, first: readonly string[] = firstScreenStrings, except: readonly string[] = notFirstScreenStrings): Strings {
  const pick = (node: Strings, prefix: string): Strings | null => {
    const picked: Strings = {};
    let any = false;
    for (const [name, value] of Object.entries(node)) {
      const key = prefix === '' ? name : `${prefix}.${name}`;
      let kept: string | Strings | null;
      // A section with a named string or an exception inside is split string by string.
      if (typeof value === 'object' && [...first, ...except].some((entry) => entry.startsWith(`${key}.`))) kept = pick(value, key);
      else kept = isFirstScreenKey(key, first, except) === (part === 'first-screen') ? value : null;
      if (kept !== null) {
        picked[name] = kept;
        any = true;
      }
    }
    return any || prefix === '' ? picked : null;
  };
  return pick(strings, '') ?? {};
}
