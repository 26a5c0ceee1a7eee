import { sendMail, sendPhone, type ContactType } from '../../../shared/api/auth';
import { trimmed } from '../../../shared/auth/validation';
import type { HttpClient } from '../../api/http-client';

/** Code purposes: '1' sign-up, '2' password reset, '3' a sign-in code (past the account's delay), '4' the sign-up completion mail. */
export type CodePurpose = '1' | '2' | '3' | '4';

/** Sends a code by e-mail or SMS; the request client shows a failure and this rethrows it. */
export async function sendCode(
  http: HttpClient,
  contact: { type: ContactType; username: string },
  purpose: CodePurpose,
  locale: string,
  options: { silent?: boolean } = {},
): Promise<void> {
  if (contact.type === 'E') await http.call(sendMail, trimmed({ email: contact.username, type: purpose, locale }), options);
  else await http.call(sendPhone, trimmed({ phone: contact.username, type: purpose, locale }), options);
}
