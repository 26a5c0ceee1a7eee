import type { TFunction } from 'i18next';
import { codedFailureText } from '../../shared/errors/catalogue';
import type { StaffFailure } from './staff-client';

/** A failed call in the staff member's language: the shared catalogue's message with its code (2001–2007 included). */
export function describeStaffFailure(failure: StaffFailure, t: TFunction): string {
  switch (failure.kind) {
    case 'code':
      return codedFailureText(failure.code, failure.serverMessage, failure.data, (key, params) => t(key, params));
    case 'http':
    case 'network':
      return t('notice.server_error');
    case 'malformed':
      return t('notice.api_constructor_error');
  }
}
