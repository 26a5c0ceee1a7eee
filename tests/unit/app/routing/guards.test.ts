import { describe, expect, it } from 'vitest';
import { switchDefaults } from '../../../../src/shared/config/switches';
import { loginPathFor, resolveGuard, safeReturnPath } from '../../../../src/app/routing/guards';
import { hasScreen, routes, routesWithScreens, type RouteName } from '../../../../src/app/routing/routes';

const visitor = { signedIn: false, book: null, switches: { ...switchDefaults } };
const realUser = { signedIn: true, book: 'real' as const, switches: { ...switchDefaults } };
const demoUser = { ...realUser, book: 'demo' as const };

describe('route guards', () => {
  it('sends unknown paths home', () => {
    expect(resolveGuard('/nowhere/at/all', '', visitor)).toEqual({ kind: 'redirect', to: '/' });
    expect(resolveGuard('/BTCUSDT/unknown', '', realUser)).toEqual({ kind: 'redirect', to: '/' });
  });

  it('lets visitors see home, charts, quotes, search, service and explore', () => {
    for (const path of ['/', '/quotation', '/search', '/BTCUSDT/chart', '/user/service', '/explore', '/forgot']) {
      expect(resolveGuard(path, '', visitor).kind, path).toBe('render');
    }
  });

  it('sends visitors from protected pages to sign-in with the return path and a notice', () => {
    expect(resolveGuard('/position', '', visitor)).toEqual({
      kind: 'redirect',
      to: '/login?to=%2Fposition',
      notice: 'notice.login_required',
    });
    expect(resolveGuard('/user/wallet/transactionList', '?uid=42', visitor)).toEqual({
      kind: 'redirect',
      to: `/login?to=${encodeURIComponent('/user/wallet/transactionList?uid=42')}`,
      notice: 'notice.login_required',
    });
    expect(resolveGuard('/history', '', visitor).kind).toBe('redirect');
    expect(resolveGuard('/user', '', visitor).kind).toBe('redirect');
  });

  it('sends a person who has just logged out from the page they left to plain sign-in: no notice, no way back', () => {
    expect(resolveGuard('/user', '', { ...visitor, loggedOut: true })).toEqual({ kind: 'redirect', to: '/login' });
    expect(resolveGuard('/user/account', '', { ...visitor, loggedOut: true })).toEqual({ kind: 'redirect', to: '/login' });
    expect(resolveGuard('/', '', { ...visitor, loggedOut: true }).kind).toBe('render');
  });

  it('sends signed-in users away from sign-in and sign-up with a notice', () => {
    for (const path of ['/login', '/register']) {
      expect(resolveGuard(path, '', realUser)).toEqual({ kind: 'redirect', to: '/', notice: 'notice.already_logged_in' });
    }
    expect(resolveGuard('/position', '', realUser).kind).toBe('render');
  });

  it('keeps pages behind their switches', () => {
    expect(resolveGuard('/user/loan', '', realUser)).toEqual({ kind: 'redirect', to: '/user' });
    const loanOn = { ...realUser, switches: { ...switchDefaults, 'user/loan': true } };
    expect(resolveGuard('/user/loan', '', loanOn).kind).toBe('render');
  });

  it('keeps customer service behind its switch, open to visitors while it is on (the sign-in page links to it)', () => {
    expect(resolveGuard('/user/service', '', visitor).kind).toBe('render');
    expect(resolveGuard('/user/service', '', realUser).kind).toBe('render');
    const serviceOff = { switches: { ...switchDefaults, 'user/service': false } };
    expect(resolveGuard('/user/service', '', { ...visitor, ...serviceOff })).toEqual({ kind: 'redirect', to: '/' });
    expect(resolveGuard('/user/service', '', { ...realUser, ...serviceOff })).toEqual({ kind: 'redirect', to: '/' });
  });

  it('hides money pages from demo accounts', () => {
    for (const path of ['/user/deposit', '/user/withdraw', '/user/wallet/crypto', '/user/wallet/bankCard']) {
      expect(resolveGuard(path, '', demoUser), path).toEqual({ kind: 'redirect', to: '/user' });
      expect(resolveGuard(path, '', realUser).kind, path).toBe('render');
    }
    expect(resolveGuard('/user/wallet', '', demoUser).kind).toBe('render');
  });

  it('accepts only local return paths', () => {
    expect(loginPathFor('/a?b=1')).toBe('/login?to=%2Fa%3Fb%3D1');
    expect(safeReturnPath('/position')).toBe('/position');
    expect(safeReturnPath('https://evil.example')).toBe('/');
    expect(safeReturnPath('//evil.example')).toBe('/');
    expect(safeReturnPath(null)).toBe('/');
  });
});

describe('routes without a built screen', () => {
  // A build where the notifications screen were missing: the guard works from what `hasScreen` says.
  const signedIn = { ...realUser, hasScreen: (name: RouteName) => name !== 'user-notification' && hasScreen(name) };
  it('are never rendered: opening one goes home, after the sign-in and switch rules', () => {
    expect(resolveGuard('/user/notification', '', signedIn)).toEqual({ kind: 'redirect', to: '/' });
    expect(resolveGuard('/user/notification', '', { ...realUser, hasScreen }).kind).toBe('render');
    expect(resolveGuard('/user/account', '', signedIn).kind).toBe('render');
    expect(resolveGuard('/user/twoFactor', '', signedIn).kind).toBe('render');
    expect(resolveGuard('/user/deposit', '', signedIn).kind).toBe('render');
    expect(resolveGuard('/user/account', '', { ...signedIn, signedIn: false, book: null })).toMatchObject({ kind: 'redirect', to: `/login?to=${encodeURIComponent('/user/account')}` });
    for (const name of routesWithScreens) expect(hasScreen(name)).toBe(true);
    // Every route of the specification's table has its screen: no entry opens a blank frame.
    expect(routes.filter((route) => !hasScreen(route.name)).map((route) => route.pattern)).toEqual([]);
    expect(hasScreen('user-loan')).toBe(true);
    expect(hasScreen('user-withdraw')).toBe(true);
  });
});

