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

export type StringsPart = 'first-screen' | 'other-screens';
export const stringsParts: readonly StringsPart[] = ['first-screen', 'other-screens'];

type Strings = { [key: string]: string | Strings };

/** Whether a key (`chart.product_not_found`) is one the first part holds. */
export function isFirstScreenKey(key: string, first: readonly string[] = firstScreenStrings): boolean {
  return first.some((entry) => key === entry || key.startsWith(`${entry}.`));
}

/** One part of a language's strings (pure: the whole file comes in, the part goes out). */
export function stringsPart(strings: Strings, part: StringsPart, first: readonly string[] = firstScreenStrings): Strings {
  const pick = (node: Strings, prefix: string): Strings | null => {
    const picked: Strings = {};
    let any = false;
    for (const [name, value] of Object.entries(node)) {
      const key = prefix === '' ? name : `${prefix}.${name}`;
      const whole = first.some((entry) => key === entry || key.startsWith(`${entry}.`));
      const inside = first.some((entry) => entry.startsWith(`${key}.`));
      let kept: string | Strings | null;
      if (whole) kept = part === 'first-screen' ? value : null;
      else if (inside && typeof value === 'object') kept = pick(value, key);
      else kept = part === 'first-screen' ? null : value;
      if (kept !== null) {
        picked[name] = kept;
        any = true;
      }
    }
    return any || prefix === '' ? picked : null;
  };
  return pick(strings, '') ?? {};
}
