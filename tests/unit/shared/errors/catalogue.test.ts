import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  codedFailureMessage,
  codedFailureText,
  ErrorCode,
  errorCodes,
  errorMessageKey,
  formatCodedMessage,
  isKnownErrorCode,
  isReadersLanguage,
} from '../../../../src/shared/errors/catalogue';
import { languageCodes } from '../../../../src/shared/i18n/languages';

type Locale = Record<string, Record<string, string>>;
const readLocale = (code: string): Locale =>
  JSON.parse(fs.readFileSync(new URL(`../../../../src/shared/i18n/locales/${code}.json`, import.meta.url), 'utf8')) as Locale;

function flatKeys(locale: Locale): string[] {
  return Object.entries(locale).flatMap(([namespace, entries]) => Object.keys(entries).map((key) => `${namespace}.${key}`));
}

describe('error catalogue', () => {
  it('holds every numeric code of the specification', () => {
    const specified = [
      -1, 201, 202, 203, 204, 205, 206, 301, 302, 303, 304, 305, 306, 307, 308, 309, 310, 311, 312, 313, 314, 315, 320, 321,
      400, 401, 402, 403, 404, 405, 406, 407, 408, 409, 501, 502, 601, 602, 603, 604, 605, 606, 607, 701, 1000, 1001, 1002,
      1004, 1008, 1009, 1010, 1012, 1013, 1014, 1016, 1017, 1018, 1019, 1020, 1021, 1030, 1031, 1032, 1033, 1066, 1067,
      1070, 23519, 23555,
    ];
    for (const code of specified) expect(isKnownErrorCode(code), `code ${code}`).toBe(true);
    expect(isKnownErrorCode(0)).toBe(false);
  });

  it("names the specification's unnumbered codes: ADMIN_NOT_FOUND, the ROLE_* refusal and \"order still processing\"", () => {
    expect(ErrorCode.ADMIN_NOT_FOUND).toBe(2022);
    expect(ErrorCode.STAFF_ROLE_REQUIRED).toBe(2001);
    expect(ErrorCode.ORDER_STILL_PROCESSING).toBe(411);
    expect(new Set(errorCodes).size).toBe(errorCodes.length);
  });

  it('falls back to the unknown-error message for a code it does not know', () => {
    expect(errorMessageKey(203)).toBe('errors.203');
    expect(errorMessageKey(99999)).toBe(`errors.${ErrorCode.UNKNOWN_ERROR}`);
  });

  it('shows a message followed by its code in brackets', () => {
    expect(formatCodedMessage('Insufficient available balance', 203)).toBe('Insufficient available balance (203)');
  });

  it.each(languageCodes)('has a translated message for every code in %s', (language) => {
    const locale = readLocale(language);
    for (const code of errorCodes) {
      const message = locale.errors?.[String(code)];
      expect(message, `${language} errors.${code}`).toBeTruthy();
    }
  });

  it('keeps every language on exactly the English keys, with the same placeholders', () => {
    const english = readLocale('en');
    const englishKeys = flatKeys(english);
    for (const language of languageCodes) {
      const locale = readLocale(language);
      expect(flatKeys(locale), language).toEqual(englishKeys);
      for (const key of englishKeys) {
        const [namespace = '', name = ''] = key.split('.');
        const placeholders = (text: string | undefined) => [...(text ?? '').matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
        expect(placeholders(locale[namespace]?.[name]), `${language} ${key}`).toEqual(placeholders(english[namespace]?.[name]));
      }
    }
  });

  it('really translates: most strings of each language differ from English', () => {
    const english = readLocale('en');
    const englishKeys = flatKeys(english);
    for (const language of languageCodes.filter((code) => code !== 'en')) {
      const locale = readLocale(language);
      const same = englishKeys.filter((key) => {
        const [namespace = '', name = ''] = key.split('.');
        return locale[namespace]?.[name] === english[namespace]?.[name];
      });
      expect(same.length / englishKeys.length, `${language}: ${same.join(', ')}`).toBeLessThan(0.1);
    }
  });
});

describe('what a refused call tells the user', () => {
  it('a rate-limited answer says how many seconds to wait', () => {
    expect(codedFailureMessage(1033, 'Requests are too frequent, please retry in 42 seconds (1033)', { retryAfterSeconds: 42 })).toEqual({
      kind: 'catalogue',
      key: 'notice.request_frequency_high',
      params: { seconds: 42 },
      code: 1033,
    });
    // Without the seconds it is the catalogue's "try again later".
    expect(codedFailureMessage(1033, '', null)).toEqual({ kind: 'catalogue', key: 'errors.1033', params: {}, code: 1033 });
    expect(codedFailureMessage(1033, '', { retryAfterSeconds: 'soon' })).toMatchObject({ key: 'errors.1033' });
  });

  it('a code of the catalogue is worded in the user’s language', () => {
    expect(codedFailureMessage(203, 'Insufficient available balance (203)', null)).toEqual({ kind: 'catalogue', key: 'errors.203', params: {}, code: 203 });
  });

  it('the server’s own reason is shown when it wrote it in the reader’s language, the catalogue’s text when not', () => {
    const reason = 'The minimum deposit is 1000 USD (1016)';
    expect(codedFailureMessage(1016, reason, null, true)).toEqual({ kind: 'server', text: reason });
    expect(codedFailureMessage(1016, 'Die Mindesteinzahlung beträgt 30 USD', null, true)).toEqual({ kind: 'server', text: 'Die Mindesteinzahlung beträgt 30 USD (1016)' });
    // Another language (a brand's back end answering in English to a German reader): the catalogue, in German.
    expect(codedFailureMessage(1016, reason, null, false)).toEqual({ kind: 'catalogue', key: 'errors.1016', params: {}, code: 1016 });
    // Said in the reader's language but empty: the catalogue.
    expect(codedFailureMessage(1016, ' ', null, true)).toEqual({ kind: 'catalogue', key: 'errors.1016', params: {}, code: 1016 });
    expect(isReadersLanguage('de', 'de')).toBe(true);
    expect(isReadersLanguage('zh-TW', 'zh-tw')).toBe(true);
    expect(isReadersLanguage('en', 'de')).toBe(false);
    expect(isReadersLanguage(null, 'de')).toBe(false);
  });

  it('a code the catalogue has no text for shows the server’s message instead of "unknown error"', () => {
    expect(codedFailureMessage(4711, 'Product under maintenance until 10:00', null)).toEqual({ kind: 'server', text: 'Product under maintenance until 10:00 (4711)' });
    // The reference server already ends its messages with the code: not twice.
    expect(codedFailureMessage(4711, 'Product under maintenance (4711)', null)).toEqual({ kind: 'server', text: 'Product under maintenance (4711)' });
    expect(codedFailureMessage(4711, '  ', null)).toEqual({ kind: 'catalogue', key: 'errors.1000', params: {}, code: 4711 });
  });

  it('words a refused call in the reader\'s language with its code, or in the server\'s own words', () => {
    const translate = (key: string, params: Record<string, number>) => `${key}${params.seconds === undefined ? '' : `:${params.seconds}`}`;
    expect(codedFailureText(405, 'whatever the server said', null, translate)).toBe('errors.405 (405)');
    expect(codedFailureText(1033, '', { retryAfterSeconds: 7 }, translate)).toBe('notice.request_frequency_high:7 (1033)');
    expect(codedFailureText(4711, 'Product under maintenance', null, translate)).toBe('Product under maintenance (4711)');
    expect(codedFailureText(405, 'Trading is closed for EURUSD (405)', null, translate, true)).toBe('Trading is closed for EURUSD (405)');
  });
});
