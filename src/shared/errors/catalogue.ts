import { AppErrorCode } from './app-codes';
import { StaffErrorCode } from './staff-codes';

/**
 * The numeric error catalogue of the product, defined once for the app, the worker and
 * the server. Each code's message lives in every locale file under `errors.<code>`;
 * `tests/unit/shared/errors/catalogue.test.ts` proves that all 12 languages have all of them.
 *
 * Codes 1003, 1005–1007, 1011, 1015 and 1022 appear in the specification with internal
 * names only; we give them the specification's otherwise unnumbered server messages.
 * Codes 1066, 1067 and 1070 are the withdraw-status codes that block withdrawals.
 */
// Two parts, one catalogue: the first load carries the app's part only (app-codes.ts).
export const ErrorCode = { ...AppErrorCode, ...StaffErrorCode } as const;

export type ErrorName = keyof typeof ErrorCode;
export type ErrorCode = (typeof ErrorCode)[ErrorName];

/** Every code that carries a user-facing message (all but success). */
export const errorCodes: readonly ErrorCode[] = Object.values(ErrorCode).filter(
  (code) => code !== ErrorCode.SUCCESS,
);

const knownCodes = new Set<number>(errorCodes);

export function isKnownErrorCode(code: number): code is ErrorCode {
  return knownCodes.has(code);
}

/** Whether an answer's Content-Language is the reader's language ("de" for "de", "zh-TW" for "zh-tw"). */
export function isReadersLanguage(contentLanguage: string | null | undefined, readerLanguage: string): boolean {
  return !!contentLanguage && contentLanguage.trim().toLowerCase() === readerLanguage.trim().toLowerCase();
}

/** The i18n key of a code's message; unknown codes fall back to "unknown error". */
export function errorMessageKey(code: number): string {
  return `errors.${isKnownErrorCode(code) ? code : ErrorCode.UNKNOWN_ERROR}`;
}

/** Server codes are shown as the translated message followed by the code in brackets. */
export function formatCodedMessage(message: string, code: number): string {
  return `${message} (${code})`;
}

/** What the user is told about a refused call: a catalogue message with its parameters, or the server's own words. */
export type CodedFailureMessage =
  | { kind: 'catalogue'; key: string; params: Record<string, number>; code: number }
  | { kind: 'server'; text: string };

/** The seconds to wait a rate-limited answer (1033) carries in its data; null when it names none. */
export function retryAfterSecondsOf(data: unknown): number | null {
  if (typeof data !== 'object' || data === null || !('retryAfterSeconds' in data)) return null;
  const seconds = data.retryAfterSeconds;
  return typeof seconds === 'number' && Number.isInteger(seconds) && seconds > 0 ? seconds : null;
}

/**
 * How a refused call is worded: 1033 with the seconds to wait; the server's own words when
 * it wrote them in the reader's language (its answer's Content-Language): they name the
 * reason ("The minimum deposit is 1000 USD"), where the code's text is generic ("Incorrect
 * parameter content"); else a code of the catalogue in the user's language (a brand's back end
 * may word its messages in another language); a code the catalogue has no text for in the
 * server's own message (a brand's back end may add codes), and "unknown error" only when the
 * server said nothing.
 */
export function codedFailureMessage(code: number, serverMessage: string, data: unknown, wordedForReader = false): CodedFailureMessage {
  const seconds = code === ErrorCode.TRY_AGAIN_LATER ? retryAfterSecondsOf(data) : null;
  if (seconds !== null) return { kind: 'catalogue', key: 'notice.request_frequency_high', params: { seconds }, code };
  const spoken = serverMessage.trim() !== '' && (wordedForReader || !isKnownErrorCode(code));
  if (!spoken) return { kind: 'catalogue', key: errorMessageKey(code), params: {}, code };
  const text = serverMessage.trim();
  return { kind: 'server', text: text.endsWith(`(${code})`) ? text : formatCodedMessage(text, code) };
}

/** A refused call's text in the user's language: the catalogue's message followed by its code, or the server's own words. */
export function codedFailureText(
  code: number,
  serverMessage: string,
  data: unknown,
  translate: (key: string, params: Record<string, number>) => string,
  wordedForReader = false,
): string {
  const message = codedFailureMessage(code, serverMessage, data, wordedForReader);
  return message.kind === 'server' ? message.text : formatCodedMessage(translate(message.key, message.params), message.code);
}
