import type { TFunction } from 'i18next';
import { codedFailureText, isReadersLanguage } from '../../shared/errors/catalogue';
import type { StaffFailure } from './staff-client';

/** A failed call in the staff member's language: the server's words when written in it, else the shared catalogue's message, with its code. */
export function describeStaffFailure(failure: StaffFailure, t: TFunction, readerLanguage: string): string {
  switch (failure.kind) {
    case 'code':
      return codedFailureText(failure.code, failure.serverMessage, failure.data, (key, params) => t(key, params), isReadersLanguage(failure.messageLanguage, readerLanguage));
    case 'http':
    case 'network':
      return t('notice.server_error');
    case 'malformed':
      return t('notice.api_constructor_error');
  }
}
