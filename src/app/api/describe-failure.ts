import { codedFailureText, isReadersLanguage } from '../../shared/errors/catalogue';
import type { RequestFailure } from './http-client';

type Translate = (key: string, params?: Record<string, number>) => string;

/**
 * What the user is told of a failed call, in their language: for a refused one the server's
 * words when written in it, else the catalogue's message, with the code; for the others the
 * specification's server-error, timeout and "Api constructor error." messages.
 */
export function describeRequestFailure(failure: RequestFailure, t: Translate, readerLanguage: string): string {
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
