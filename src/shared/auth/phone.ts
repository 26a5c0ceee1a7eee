import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min';

// Apart from validation.ts: the phone metadata is large, and the contracts the first load needs import the other limits.

/**
 * A phone number as the API takes it (digits of the international number, no plus sign,
 * no spaces) when it is valid for the chosen country; null otherwise.
 */
export function normalizePhone(input: string, country: string): string | null {
  if (!/^[A-Z]{2}$/.test(country)) return null;
  const parsed = parsePhoneNumberFromString(input.trim(), country as CountryCode);
  if (!parsed || !parsed.isValid()) return null;
  return parsed.number.replace(/^\+/, '');
}

/** A phone number in API form (digits with country code) as valid anywhere, for the server. */
export function isValidApiPhone(digits: string): boolean {
  if (!/^\d{6,15}$/.test(digits)) return false;
  return parsePhoneNumberFromString(`+${digits}`)?.isValid() ?? false;
}
