import { getCountries, getCountryCallingCode, type CountryCode } from 'libphonenumber-js/min';

/** A country of the phone field: its ISO code, calling code and name in the UI language. */
export interface CountryOption {
  code: CountryCode;
  callingCode: string;
  name: string;
}

const countryCodes = new Set<string>(getCountries());
const byLanguage = new Map<string, CountryOption[]>();

export function isCountryCode(value: string | undefined | null): value is CountryCode {
  return typeof value === 'string' && countryCodes.has(value);
}

function displayNames(language: string): Intl.DisplayNames | null {
  try {
    return new Intl.DisplayNames([language, 'en'], { type: 'region', fallback: 'code' });
  } catch {
    return null;
  }
}

/** Every country libphonenumber knows, sorted by its name in `language` (computed once per language). */
export function countryOptions(language: string): CountryOption[] {
  const cached = byLanguage.get(language);
  if (cached) return cached;
  const names = displayNames(language);
  const collator = new Intl.Collator(language);
  const options = getCountries()
    .map((code) => {
      let name: string = code;
      try {
        name = names?.of(code) ?? code;
      } catch {
        // A code the browser's data does not name: show the code.
      }
      return { code, callingCode: getCountryCallingCode(code), name };
    })
    .sort((a, b) => collator.compare(a.name, b.name));
  byLanguage.set(language, options);
  return options;
}
