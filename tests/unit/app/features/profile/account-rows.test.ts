import { describe, expect, it } from 'vitest';
import { accountRows } from '../../../../../src/app/features/profile/account-rows';

describe('the account page rows', () => {
  const everything = () => true;
  const base = {
    user: { registerType: 'E' as const, email: 'a@example.com', inviteCode: 'ABC123' },
    switches: { 'user/bindEmail': true, 'user/privacy': true },
    isDesktop: false,
    serviceEmail: 'support@example.com',
    opens: everything,
  };

  it('offers bind e-mail only to a phone account without an e-mail, with the switch on and the screen there', () => {
    const phoneUser = { registerType: 'P' as const, email: '', inviteCode: 'ABC123' };
    expect(accountRows({ ...base, user: phoneUser })).toContain('bindEmail');
    expect(accountRows(base)).not.toContain('bindEmail');
    expect(accountRows({ ...base, user: { ...phoneUser, email: 'p@example.com' } })).not.toContain('bindEmail');
    expect(accountRows({ ...base, user: phoneUser, switches: { ...base.switches, 'user/bindEmail': false } })).not.toContain('bindEmail');
    expect(accountRows({ ...base, user: phoneUser, opens: (path) => path !== '/user/bindEmail' })).not.toContain('bindEmail');
    expect(accountRows({ ...base, user: null })).not.toContain('bindEmail');
  });

  it('shows the invite code and the service e-mail to copy on desktop only', () => {
    expect(accountRows(base)).toEqual(['changePassword', 'invite', 'privacy']);
    expect(accountRows({ ...base, isDesktop: true })).toEqual(['changePassword', 'inviteCode', 'invite', 'privacy', 'serviceEmail']);
    expect(accountRows({ ...base, isDesktop: true, serviceEmail: '' })).not.toContain('serviceEmail');
  });

  it('shows privacy only when the switch allows it, and never a row to a screen that would not open', () => {
    expect(accountRows({ ...base, switches: { ...base.switches, 'user/privacy': false } })).not.toContain('privacy');
    expect(accountRows({ ...base, opens: () => false })).toEqual([]);
  });
});
