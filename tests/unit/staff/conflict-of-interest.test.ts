import { describe, expect, it } from 'vitest';
import { canonicalDocumentNumber, documentDigestInput, mailboxOf, staffCustomerLink } from '../../../src/shared/staff/conflict-of-interest';

const staff = { email: 'mina.park@brand.example', documentDigest: 'digest-of-P123', declaredUids: [7] };
const customer = (overrides: Partial<{ uid: number; email: string | null; documentDigests: string[] }> = {}) => ({ uid: 9, email: 'someone@mail.example', documentDigests: [], ...overrides });

describe('a staff member and a customer account of theirs', () => {
  it('reads a document number as printed, and digests it under its own purpose', () => {
    expect(canonicalDocumentNumber(' p12-34 56 ')).toBe('P123456');
    expect(documentDigestInput('p12-34 56')).toBe(documentDigestInput('P123456'));
    expect(documentDigestInput('P123456')).toBe('identity-document:P123456');
  });

  it('reads an e-mail as one mailbox: case and a +tag aside, the domain kept', () => {
    expect(mailboxOf(' Mina.Park+Savings@Brand.Example ')).toBe('mina.park@brand.example');
    expect(mailboxOf('mina.park@other.example')).not.toBe(mailboxOf('mina.park@brand.example'));
    expect(mailboxOf('+tag@brand.example')).toBe('+tag@brand.example');
  });

  it('links a declared account, one under the member’s mailbox, and one carrying their document', () => {
    expect(staffCustomerLink(staff, customer({ uid: 7 }))).toBe('declared');
    expect(staffCustomerLink(staff, customer({ email: 'MINA.PARK+trading@brand.example' }))).toBe('email');
    expect(staffCustomerLink(staff, customer({ documentDigests: ['other', 'digest-of-P123'] }))).toBe('document');
  });

  it('leaves an unrelated account, a phone-only account and an undeclared document unlinked', () => {
    expect(staffCustomerLink(staff, customer())).toBeNull();
    expect(staffCustomerLink(staff, customer({ email: null }))).toBeNull();
    expect(staffCustomerLink(staff, customer({ email: '' }))).toBeNull();
    expect(staffCustomerLink({ ...staff, documentDigest: null }, customer({ documentDigests: ['digest-of-P123'] }))).toBeNull();
  });
});
