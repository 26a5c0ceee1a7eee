import fs from 'node:fs';
import { errorMessageKey, formatCodedMessage } from '../../src/shared/errors/catalogue';
import {
  fallbackLanguage,
  languageCodes,
  matchBrowserLanguage,
  type LanguageCode,
} from '../../src/shared/i18n/languages';

type Messages = Record<string, Record<string, string>>;

// The same locale files the app loads, read once at start.
const messagesByLanguage = new Map<LanguageCode, Messages>(
  languageCodes.map((code) => [
    code,
    JSON.parse(
      fs.readFileSync(new URL(`../../src/shared/i18n/locales/${code}.json`, import.meta.url), 'utf8'),
    ) as Messages,
  ]),
);

/** The request's language from Accept-Language (first match wins), else English. */
export function languageOfRequest(acceptLanguage: string | undefined): LanguageCode {
  if (!acceptLanguage) return fallbackLanguage;
  for (const part of acceptLanguage.split(',')) {
    const tag = part.split(';')[0] ?? '';
    const match = matchBrowserLanguage(tag, languageCodes);
    if (match) return match;
  }
  return fallbackLanguage;
}

function lookup(language: LanguageCode, key: string): string | undefined {
  const [namespace = '', name = ''] = key.split('.');
  return messagesByLanguage.get(language)?.[namespace]?.[name];
}

/** "Insufficient available balance (203)" in the request's language. */
export function errorMessage(code: number, language: LanguageCode): string {
  const key = errorMessageKey(code);
  const message = lookup(language, key) ?? lookup(fallbackLanguage, key) ?? 'Unknown error';
  return formatCodedMessage(message, code);
}

/** A message of the locale files with its placeholders filled, followed by the code: "Retry in 42 seconds (1033)". */
export function localizedMessage(key: string, params: Record<string, string | number>, language: LanguageCode, code: number): string {
  const template = lookup(language, key) ?? lookup(fallbackLanguage, key) ?? key;
  const filled = template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
  return formatCodedMessage(filled, code);
}

/** A message of the locale files in a language, placeholders filled, without a code (notices written for a customer). */
export function translate(key: string, params: Record<string, string | number>, language: LanguageCode): string {
  const template = lookup(language, key) ?? lookup(fallbackLanguage, key) ?? key;
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
