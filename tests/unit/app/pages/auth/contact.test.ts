import { describe, expect, it } from 'vitest';
import { contactLabel, emptyContact, readContact, type ContactDraft } from '../../../../../src/app/pages/auth/contact';

const draft = (change: Partial<ContactDraft>): ContactDraft => ({ type: 'E', email: '', phone: '', country: 'US', ...change });

describe('sign-in and sign-up contact', () => {
  it('reads a trimmed e-mail, with the message of each screen when it is wrong', () => {
    expect(readContact(draft({ email: '  a.b@example.com ' }), 'login')).toEqual({ ok: true, type: 'E', username: 'a.b@example.com' });
    expect(readContact(draft({ email: 'a.b@example' }), 'login')).toEqual({ ok: false, errorKey: 'auth.p_t_username' });
    expect(readContact(draft({ email: 'a.b@example' }), 'other')).toEqual({ ok: false, errorKey: 'auth.wrong_email' });
  });

  it('reads a phone as the digits of its international number for the chosen country', () => {
    expect(readContact(draft({ type: 'P', phone: '(201) 555-0123' }), 'other')).toEqual({ ok: true, type: 'P', username: '12015550123' });
    expect(readContact(draft({ type: 'P', phone: '07400 123456', country: 'GB' }), 'login')).toEqual({ ok: true, type: 'P', username: '447400123456' });
    expect(readContact(draft({ type: 'P', phone: '12' }), 'login')).toEqual({ ok: false, errorKey: 'auth.p_t_username' });
    expect(readContact(draft({ type: 'P', phone: '12' }), 'other')).toEqual({ ok: false, errorKey: 'auth.wrong_phone_number' });
    expect(readContact(draft({ type: 'P', phone: '2015550123', country: '' }), 'other')).toEqual({ ok: false, errorKey: 'auth.choose_country' });
  });

  it('shows a phone in international form', () => {
    expect(contactLabel(draft({ type: 'P', phone: '07400 123456', country: 'GB' }))).toBe('+44 7400 123456');
    expect(contactLabel(draft({ email: ' x@example.com ' }))).toBe('x@example.com');
  });

  it('starts with the last country, else the brand default', () => {
    expect(emptyContact('US', 'DE').country).toBe('DE');
    expect(emptyContact('US', 'nowhere').country).toBe('US');
    expect(emptyContact('US', undefined).country).toBe('US');
  });
});
