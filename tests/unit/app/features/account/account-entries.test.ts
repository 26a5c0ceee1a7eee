import { describe, expect, it } from 'vitest';
import { switchDefaults, switchNames, type Switches } from '../../../../../src/shared/config/switches';
import { desktopMenuEntries, hubMenuEntries, mayBindEmail, menuEntryOf, walletHubShortcuts, type AccountMenuContext } from '../../../../../src/app/features/account/account-entries';
import { isAccountPath } from '../../../../../src/app/routing/routes';
import { resolveGuard } from '../../../../../src/app/routing/guards';
import { hasScreen } from '../../../../../src/app/routing/routes';

const emailUser = { registerType: 'E' as const, email: 'trader@example.com' };
const phoneUser = { registerType: 'P' as const, email: '' };

function context(book: 'real' | 'demo', switches: Partial<Switches> = {}, user: AccountMenuContext['user'] = emailUser): AccountMenuContext {
  return { signedIn: true, book, switches: { ...switchDefaults, ...switches }, hasScreen, user };
}
const names = (entries: { name: string }[]) => entries.map((entry) => entry.name);

describe('the desktop account dialog menu', () => {
  it('lists the overview, then every account page a real account may open, with the specification defaults', () => {
    expect(names(desktopMenuEntries(context('real')))).toEqual([
      'user',
      'user-account',
      'user-notification',
      'user-wallet',
      'user-deposit',
      'user-withdraw',
      'user-wallet-crypto',
      'user-wallet-bank-card',
      'user-wallet-transactions',
      'user-wallet-deposits',
      'user-verified',
      'user-junior-verified',
      'user-change-password',
      'user-two-factor',
      'user-invite',
      'user-standards',
      'user-privacy',
      'user-service',
    ]);
  });

  it('has one wallet entry: the wallet hub, whose shortcuts lead to the balances page', () => {
    for (const entries of [desktopMenuEntries(context('real')), hubMenuEntries(context('real'))]) {
      expect(names(entries).filter((name) => name === 'user-wallet' || name === 'user-my-wallet')).toEqual(['user-wallet']);
    }
    expect(names(walletHubShortcuts(context('real')))).toContain('user-my-wallet');
  });

  it('hides the wallet, bank, deposit, withdrawal and loan entries from a demo account', () => {
    const demo = names(desktopMenuEntries(context('demo', { 'user/loan': true })));
    for (const money of ['user-my-wallet', 'user-wallet', 'user-deposit', 'user-withdraw', 'user-wallet-crypto', 'user-wallet-bank-card', 'user-wallet-deposits', 'user-loan']) {
      expect(demo, money).not.toContain(money);
    }
    expect(demo).toContain('user-wallet-transactions');
    // The real account with the same switches has the loan.
    expect(names(desktopMenuEntries(context('real', { 'user/loan': true })))).toContain('user-loan');
  });

  it('shows the flagged entries only with their switch on, and the crypto wallet only without NO_WALLET_WITHDRAW', () => {
    const off = names(desktopMenuEntries(context('real', { 'user/myWallet': false, 'user/juniorVerfiy': false, 'user/bankCard': false, 'user/standards': false, 'user/privacy': false, NO_WALLET_WITHDRAW: true })));
    for (const hidden of ['user-my-wallet', 'user-junior-verified', 'user-wallet-bank-card', 'user-loan', 'user-standards', 'user-privacy', 'user-wallet-crypto']) {
      expect(off, hidden).not.toContain(hidden);
    }
    expect(names(walletHubShortcuts(context('real', { NO_WALLET_WITHDRAW: true })))).toEqual(['user-my-wallet', 'user-deposit', 'user-withdraw', 'user-wallet-bank-card']);
  });

  it('offers e-mail binding only to a phone-registered account without an e-mail, once its profile is read, with the switch on', () => {
    expect(names(desktopMenuEntries(context('real', {}, phoneUser)))).toContain('user-bind-email');
    expect(names(hubMenuEntries(context('real', {}, phoneUser)))).toContain('user-bind-email');
    expect(names(desktopMenuEntries(context('real', {}, null)))).not.toContain('user-bind-email');
    expect(names(desktopMenuEntries(context('real', { 'user/bindEmail': false }, phoneUser)))).not.toContain('user-bind-email');
    expect(mayBindEmail({ registerType: 'P', email: 'bound@example.com' }, true)).toBe(false);
    expect(mayBindEmail(emailUser, true)).toBe(false);
  });

  it('no entry of the hub or the dialog opens a page that bounces back, for any combination of switches', () => {
    const flags = switchNames.filter((name) => name.startsWith('user/') || name === 'NO_WALLET_WITHDRAW');
    let checked = 0;
    for (let mask = 0; mask < 1 << flags.length; mask += 1) {
      const switches = Object.fromEntries(flags.map((flag, bit) => [flag, (mask & (1 << bit)) !== 0])) as Partial<Switches>;
      for (const book of ['real', 'demo'] as const) {
        for (const user of [emailUser, phoneUser, null]) {
          const at = context(book, switches, user);
          for (const entry of [...desktopMenuEntries(at), ...hubMenuEntries(at), ...walletHubShortcuts(at)]) {
            expect(resolveGuard(entry.pattern, '', at).kind, `${entry.name} ${book} ${mask}`).toBe('render');
            expect(hasScreen(entry.name), entry.name).toBe(true);
            checked += 1;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(10_000);
    // Every combination of the 12 flags (4,096) in 6 contexts: seconds on a loaded machine.
  }, 30_000);

  it('marks the list a sub-page was opened from, and knows which paths are the account area', () => {
    expect(menuEntryOf('user-wallet-add-crypto')).toBe('user-wallet-crypto');
    expect(menuEntryOf('user-wallet-edit-bank-card')).toBe('user-wallet-bank-card');
    expect(menuEntryOf('user-loan')).toBe('user-loan');
    expect(isAccountPath('/user')).toBe(true);
    expect(isAccountPath('/user/wallet/crypto')).toBe(true);
    expect(isAccountPath('/username')).toBe(false);
    expect(isAccountPath('/BTCUSDT/chart')).toBe(false);
  });
});
