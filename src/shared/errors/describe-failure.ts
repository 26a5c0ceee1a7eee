import { codedFailureText, isReadersLanguage } from './catalogue';

/**
 * Why a call failed, in the terms the user is told: the app's request client's failures
 * (`RequestFailure`) and the staff console's (`StaffFailure`, which has no timeout) are these.
 */
export type CallFailure =
  /** `messageLanguage`: the answer's Content-Language, the language the server wrote its message in. */
  | { kind: 'code'; code: number; serverMessage: string; messageLanguage?: string | null; data?: unknown }
  | { kind: 'http'; status: number }
  | { kind: 'network' }
  | { kind: 'timeout' }
  | { kind: 'malformed' };

type Translate = (key: string, params?: Record<string, number>) => string;

/**
 * What the user (or a staff member) is told of a failed call, in their language: for a refused one the server's
 * words when written in it, else the catalogue's message, with the code; for the others the
 * specification's server-error, timeout and "Api constructor error." messages.
 */
export function describeCallFailure(failure: CallFailure, t: Translate, readerLanguage: string): string {
  switch (failure.kind) {
    case 'code':
      return codedFailureText(failure.code, failure.serverMessage, failure.data, (key, params) => t(key, params), isReadersLanguage(failure.messageLanguage, readerLanguage));
    case 'http':
    case 'network':
      return t('notice.server_error');
    case 'timeout':
      return t('notice.connection_timeout');
    case 'malformed':
      return t('notice.api_constructor_error');
  }
}
