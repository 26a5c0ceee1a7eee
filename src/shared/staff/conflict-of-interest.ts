/**
 * Conflict of interest: a staff member may not decide a review item of a customer account
 * that is theirs. Without it, a finance member holding a customer account under another
 * e-mail approves their own withdrawals alone, under every threshold. An account is the
 * member's when
 * - the member declared it (`staff/me/declareAccount`, or an admin recorded it for them);
 * - its e-mail is the member's work e-mail, read as one mailbox (case, and a `+tag`);
 * - it carries an identity document whose number the member declared as their own
 *   (`staff/me/declareDocument`), whether that document was verified or only submitted.
 * A member decides nothing before declaring their document: an undeclared member would
 * escape the third test. A declaration cannot be changed or withdrawn by anyone, so no one
 * undeclares just before approving; one document is declared by one member only, so one
 * person cannot hold two staff accounts as two pairs of eyes.
 */

/** Why a member may not decide for a customer; null when they may. */
export type StaffCustomerLink = 'declared' | 'email' | 'document' | null;

/** A document number as the document prints it, whatever was typed between its characters (case, spaces, dashes). */
export function canonicalDocumentNumber(value: string): string {
  return value.trim().toUpperCase().replace(/[\s-]/g, '');
}

/** The text a document number's keyed digest is taken of: one purpose, so no other digest of the same key ever matches it. */
export function documentDigestInput(value: string): string {
  return `identity-document:${canonicalDocumentNumber(value)}`;
}

/** One mailbox however it is written: lower case, without a `+tag` in the local part. */
export function mailboxOf(email: string): string {
  const trimmed = email.trim().toLowerCase();
  const at = trimmed.lastIndexOf('@');
  if (at <= 0) return trimmed;
  const local = trimmed.slice(0, at);
  const plus = local.indexOf('+');
  return `${plus > 0 ? local.slice(0, plus) : local}@${trimmed.slice(at + 1)}`;
}

export interface StaffSide {
  email: string;
  /** The digest of the member's declared document number; null when not declared yet. */
  documentDigest: string | null;
  /** Customer accounts declared as the member's own. */
  declaredUids: readonly number[];
}

export interface CustomerSide {
  uid: number;
  email: string | null;
  /** Digests of every document number submitted on the account, verified or not. */
  documentDigests: readonly string[];
}

export function staffCustomerLink(staff: StaffSide, customer: CustomerSide): StaffCustomerLink {
  if (staff.declaredUids.includes(customer.uid)) return 'declared';
  if (customer.email !== null && customer.email !== '' && mailboxOf(customer.email) === mailboxOf(staff.email)) return 'email';
  if (staff.documentDigest !== null && customer.documentDigests.includes(staff.documentDigest)) return 'document';
  return null;
}
