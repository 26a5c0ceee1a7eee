import { describe, expect, it } from 'vitest';
import { countryOptions, isCountryCode } from '../../../../../src/app/pages/auth/countries';

describe('countries of the contact field', () => {
  it('lists calling codes with names in the UI language, sorted by name', () => {
    const german = countryOptions('de');
    expect(german.find((option) => option.code === 'DE')).toEqual({ code: 'DE', callingCode: '49', name: 'Deutschland' });
    const names = german.map((option) => option.name);
    expect(names).toEqual([...names].sort(new Intl.Collator('de').compare));
    expect(isCountryCode('GB')).toBe(true);
    expect(isCountryCode('ZZ')).toBe(false);
  });
});
