import type { SwitchName } from '../../shared/config/switches';

/**
 * Every route of the product. `access` says who may open it; `flag` names the switch
 * that must be on; `demo: false` hides it from demo accounts (money pages). The views
 * are attached in `router.tsx`; this table stays free of React so it is testable.
 */
export type RouteAccess = 'public' | 'signed-in' | 'signed-out';

export interface RouteDefinition {
  name: string;
  pattern: string;
  access: RouteAccess;
  titleKey: string;
  flag?: SwitchName;
  demo?: false;
  /** Shows the mobile bottom tab bar. */
  tabBar?: boolean;
}

export const routes = [
  { name: 'home', pattern: '/', access: 'public', titleKey: 'page.home', tabBar: true },
  { name: 'search', pattern: '/search', access: 'public', titleKey: 'page.search' },
  { name: 'quotation', pattern: '/quotation', access: 'public', titleKey: 'page.quotation', tabBar: true },
  { name: 'login', pattern: '/login', access: 'signed-out', titleKey: 'page.login' },
  { name: 'register', pattern: '/register', access: 'signed-out', titleKey: 'page.register' },
  { name: 'forgot', pattern: '/forgot', access: 'public', titleKey: 'page.forgot' },
  { name: 'position', pattern: '/position', access: 'signed-in', titleKey: 'page.position', tabBar: true },
  { name: 'explore', pattern: '/explore', access: 'public', titleKey: 'page.explore', tabBar: true },
  { name: 'history', pattern: '/history', access: 'signed-in', titleKey: 'page.history', tabBar: true },
  { name: 'user', pattern: '/user', access: 'signed-in', titleKey: 'page.user', tabBar: true },
  { name: 'user-service', pattern: '/user/service', access: 'public', titleKey: 'page.service', flag: 'user/service' },
  { name: 'user-account', pattern: '/user/account', access: 'signed-in', titleKey: 'page.account' },
  { name: 'user-change-password', pattern: '/user/changePassword', access: 'signed-in', titleKey: 'page.change_password' },
  { name: 'user-two-factor', pattern: '/user/twoFactor', access: 'signed-in', titleKey: 'page.two_factor' },
  { name: 'user-verified', pattern: '/user/verified', access: 'signed-in', titleKey: 'page.verified' },
  { name: 'user-junior-verified', pattern: '/user/juniorVerified', access: 'signed-in', titleKey: 'page.junior_verified', flag: 'user/juniorVerfiy' },
  { name: 'user-notification', pattern: '/user/notification', access: 'signed-in', titleKey: 'page.notification' },
  { name: 'user-my-wallet', pattern: '/user/myWallet', access: 'signed-in', titleKey: 'page.my_wallet', flag: 'user/myWallet', demo: false },
  { name: 'user-wallet', pattern: '/user/wallet', access: 'signed-in', titleKey: 'page.wallet' },
  { name: 'user-wallet-crypto', pattern: '/user/wallet/crypto', access: 'signed-in', titleKey: 'page.crypto_wallet', demo: false },
  { name: 'user-wallet-add-crypto', pattern: '/user/wallet/addCrypto', access: 'signed-in', titleKey: 'page.add_crypto', demo: false },
  { name: 'user-wallet-delete-crypto', pattern: '/user/wallet/deleteCrypto', access: 'signed-in', titleKey: 'page.delete_crypto', demo: false },
  { name: 'user-wallet-bank-card', pattern: '/user/wallet/bankCard', access: 'signed-in', titleKey: 'page.bank_card', flag: 'user/bankCard', demo: false },
  { name: 'user-wallet-add-bank-card', pattern: '/user/wallet/addBankCard', access: 'signed-in', titleKey: 'page.add_bank_card', flag: 'user/bankCard', demo: false },
  { name: 'user-wallet-edit-bank-card', pattern: '/user/wallet/editBankCard', access: 'signed-in', titleKey: 'page.edit_bank_card', flag: 'user/bankCard', demo: false },
  { name: 'user-wallet-transactions', pattern: '/user/wallet/transactionList', access: 'signed-in', titleKey: 'page.transaction_list' },
  { name: 'user-wallet-deposits', pattern: '/user/wallet/depositList', access: 'signed-in', titleKey: 'page.deposit_list', demo: false },
  { name: 'user-deposit', pattern: '/user/deposit', access: 'signed-in', titleKey: 'page.deposit', demo: false },
  { name: 'user-agreement', pattern: '/user/agreement', access: 'signed-in', titleKey: 'page.agreement' },
  { name: 'user-withdraw', pattern: '/user/withdraw', access: 'signed-in', titleKey: 'page.withdraw', demo: false },
  { name: 'user-loan', pattern: '/user/loan', access: 'signed-in', titleKey: 'page.loan', flag: 'user/loan', demo: false },
  { name: 'user-bind-email', pattern: '/user/bindEmail', access: 'signed-in', titleKey: 'page.bind_email', flag: 'user/bindEmail' },
  { name: 'user-standards', pattern: '/user/standards', access: 'signed-in', titleKey: 'page.standards', flag: 'user/standards' },
  { name: 'user-privacy', pattern: '/user/privacy', access: 'signed-in', titleKey: 'page.privacy', flag: 'user/privacy' },
  { name: 'user-invite', pattern: '/user/invite', access: 'signed-in', titleKey: 'profile.invite_title' },
  { name: 'chart', pattern: '/:symbol/chart', access: 'public', titleKey: 'page.chart' },
  { name: 'place', pattern: '/:symbol/place', access: 'public', titleKey: 'page.place' },
  { name: 'place-option', pattern: '/:symbol/placeOption', access: 'public', titleKey: 'page.place_option' },
] as const satisfies readonly RouteDefinition[];

export type RouteName = (typeof routes)[number]['name'];

/**
 * The routes whose screen is built. The others are in the table for their rules (access,
 * switch, demo) but are never offered: opening one goes home, and no menu links to it.
 */
export const routesWithScreens = [
  'home',
  'explore',
  'login',
  'register',
  'forgot',
  'quotation',
  'search',
  'chart',
  'place',
  'place-option',
  'position',
  'history',
  'user',
  'user-my-wallet',
  'user-wallet',
  'user-service',
  'user-two-factor',
  'user-wallet-deposits',
  'user-wallet-transactions',
  'user-agreement',
  'user-deposit',
  'user-wallet-crypto',
  'user-wallet-add-crypto',
  'user-wallet-delete-crypto',
  'user-wallet-bank-card',
  'user-wallet-add-bank-card',
  'user-wallet-edit-bank-card',
  'user-withdraw',
  'user-loan',
  'user-account',
  'user-invite',
  'user-standards',
  'user-privacy',
  'user-notification',
  'user-change-password',
  'user-bind-email',
  'user-verified',
  'user-junior-verified',
] as const satisfies readonly RouteName[];
export type ScreenRouteName = (typeof routesWithScreens)[number];

const screens: ReadonlySet<RouteName> = new Set(routesWithScreens);
export function hasScreen(name: RouteName): name is ScreenRouteName {
  return screens.has(name);
}

export interface RouteMatch {
  route: RouteDefinition & { name: RouteName };
  params: Record<string, string>;
}

const compiled = routes.map((route) => {
  const names: string[] = [];
  const source = route.pattern
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':')) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(segment.slice(1));
      return '([^/]+)';
    })
    .join('/');
  return { route, names, regex: new RegExp(`^${source}/?$`) };
});

/** Finds the route of a path (without query); null for an unknown path. */
export function matchRoute(path: string): RouteMatch | null {
  for (const { route, names, regex } of compiled) {
    const found = regex.exec(path);
    if (!found) continue;
    const params: Record<string, string> = {};
    names.forEach((name, index) => {
      params[name] = decodeURIComponent(found[index + 1] ?? '');
    });
    return { route, params };
  }
  return null;
}

/**
 * Whether a path is in the account area, which desktop shows in the account dialog. Here,
 * not with the account menus (account-entries.ts): the router needs it at start, the menus
 * only their screens do.
 */
export function isAccountPath(path: string): boolean {
  return path === '/user' || path.startsWith('/user/');
}
