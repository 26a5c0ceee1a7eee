import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import type { ContactType } from '../../../shared/api/auth';
import { normalizePhone } from '../../../shared/auth/phone';
import { isValidEmail } from '../../../shared/auth/validation';
import { isCountryCode } from './countries';

/** What the contact field holds: both values are kept, so switching tabs loses nothing. */
export interface ContactDraft {
  type: ContactType;
  email: string;
  /** As typed (national or international form). */
  phone: string;
  /** ISO 3166 code of the phone's country. */
  country: string;
}

export type ContactReading =
  | { ok: true; type: ContactType; username: string }
  | { ok: false; errorKey: 'auth.p_t_username' | 'auth.wrong_email' | 'auth.wrong_phone_number' | 'auth.choose_country' };

/**
 * The contact as the API takes it (e-mail trimmed; phone as digits with its calling code),
 * or the message key to show. Sign-in says p_t_username for either kind; elsewhere the
 * message names the kind.
 */
export function readContact(draft: ContactDraft, context: 'login' | 'other'): ContactReading {
  if (draft.type === 'E') {
    const email = draft.email.trim();
    if (isValidEmail(email)) return { ok: true, type: 'E', username: email };
    return { ok: false, errorKey: context === 'login' ? 'auth.p_t_username' : 'auth.wrong_email' };
  }
  if (!isCountryCode(draft.country)) return { ok: false, errorKey: 'auth.choose_country' };
  const digits = normalizePhone(draft.phone, draft.country);
  if (digits) return { ok: true, type: 'P', username: digits };
  return { ok: false, errorKey: context === 'login' ? 'auth.p_t_username' : 'auth.wrong_phone_number' };
}

/** The contact for messages ("sent to …"): the e-mail as typed, a phone in international form. */
export function contactLabel(draft: ContactDraft): string {
  if (draft.type === 'E') return draft.email.trim();
  const phone = draft.phone.trim();
  if (!isCountryCode(draft.country)) return phone;
  return parsePhoneNumberFromString(phone, draft.country)?.formatInternational() ?? phone;
}

/** An empty contact with the last country used, else the brand's sign-up country. */
export function emptyContact(defaultCountry: string, lastCountry: string | undefined): ContactDraft {
  return { type: 'E', email: '', phone: '', country: isCountryCode(lastCountry) ? lastCountry : defaultCountry };
}
