import type { Switches } from '../../../shared/config/switches';
import { isDemoSession } from '../../../shared/protocol/engine';
import type { UserInfo } from '../../../shared/api/account';
import { resolveGuard, type GuardContext } from '../../routing/guards';
import { routes, type RouteDefinition, type RouteName } from '../../routing/routes';

/**
 * The account area's menus: the phone hub's list (`/user`) and the desktop account
 * dialog's left menu. Each entry shows only where its route would open (its screen built,
 * its switch on, the account allowed: the route guard decides), so no entry opens an
 * empty page or bounces back.
 */

/** Whether this account may bind an e-mail (the specification: the switch on, registered by phone, no e-mail yet). */
export function mayBindEmail(info: Pick<UserInfo, 'registerType' | 'email'>, switchOn: boolean): boolean {
  return switchOn && info.registerType === 'P' && info.email === '';
}

/**
 * One wallet entry in each menu: "Wallet" (`/user/wallet`), whose shortcuts lead to the
 * balances page (`/user/myWallet`), so the two never stand side by side.
 */
const hubEntries: readonly RouteName[] = [
  'user-account',
  'user-invite',
  'user-notification',
  'user-wallet',
  'user-deposit',
  'user-withdraw',
  'user-wallet-bank-card',
  'user-wallet-transactions',
  'user-verified',
  'user-junior-verified',
  'user-loan',
  'user-change-password',
  'user-bind-email',
  'user-two-factor',
  'user-standards',
  'user-privacy',
  'user-service',
];

/**
 * The desktop menu: the hub itself first (it holds the balances, the real/demo switch and
 * sign-out), then what the phone reaches through the hub and the wallet hub in one list.
 */
const desktopEntries: readonly RouteName[] = [
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
  'user-loan',
  'user-change-password',
  'user-bind-email',
  'user-two-factor',
  'user-invite',
  'user-standards',
  'user-privacy',
  'user-service',
];

/** Sub-pages highlight the menu entry they belong to. */
const parentEntry: Partial<Record<RouteName, RouteName>> = {
  'user-wallet-add-crypto': 'user-wallet-crypto',
  'user-wallet-delete-crypto': 'user-wallet-crypto',
  'user-wallet-add-bank-card': 'user-wallet-bank-card',
  'user-wallet-edit-bank-card': 'user-wallet-bank-card',
};

export interface AccountMenuContext extends GuardContext {
  /** The account's profile, once read: the e-mail binding entry waits for it. */
  user: Pick<UserInfo, 'registerType' | 'email'> | null;
}

export type AccountMenuEntry = RouteDefinition & { name: RouteName };

function offered(name: RouteName, context: AccountMenuContext, switches: Switches): boolean {
  if (name === 'user-bind-email') return context.user !== null && mayBindEmail(context.user, switches['user/bindEmail']);
  // The crypto wallet entry is hidden when the brand withdraws without one.
  if (name === 'user-wallet-crypto') return !switches.NO_WALLET_WITHDRAW;
  return true;
}

function entriesOf(order: readonly RouteName[], context: AccountMenuContext, hidden: (name: RouteName) => boolean): AccountMenuEntry[] {
  const opens = (route: AccountMenuEntry) => resolveGuard(route.pattern, '', context).kind === 'render';
  return routes
    .filter((route) => order.includes(route.name) && !hidden(route.name) && offered(route.name, context, context.switches) && opens(route))
    .sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
}

/** The wallet hub's shortcuts to the money pages. */
const walletShortcuts: readonly RouteName[] = ['user-my-wallet', 'user-deposit', 'user-withdraw', 'user-wallet-crypto', 'user-wallet-bank-card'];

export function walletHubShortcuts(context: AccountMenuContext): AccountMenuEntry[] {
  return entriesOf(walletShortcuts, context, () => false);
}

/** The phone hub's list. A demo account keeps the wallet hub: it offers the demo reset there. */
export function hubMenuEntries(context: AccountMenuContext): AccountMenuEntry[] {
  return entriesOf(hubEntries, context, () => false);
}

/**
 * The desktop dialog's menu. A demo account has no wallet, bank, deposit, withdrawal or
 * loan entries (the route table's `demo: false`, and the wallet hub too: the demo reset is
 * on the positions panel and the hub).
 */
export function desktopMenuEntries(context: AccountMenuContext): AccountMenuEntry[] {
  const demo = isDemoSession(context);
  return entriesOf(desktopEntries, context, (name) => demo && name === 'user-wallet');
}

/** The menu entry a route belongs to (itself, or the list a sub-page was opened from). */
export function menuEntryOf(name: RouteName): RouteName {
  return parentEntry[name] ?? name;
}
