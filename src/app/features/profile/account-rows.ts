import type { Switches } from '../../../shared/config/switches';
import { mayBindEmail } from '../account/account-entries';

export type AccountRow = 'bindEmail' | 'changePassword' | 'inviteCode' | 'invite' | 'privacy' | 'serviceEmail';

/**
 * Which rows the account page shows (specification, `/user/account`): bind e-mail only for a
 * phone-registered account without an e-mail while the switch is on; the invite code and the
 * service e-mail (to copy) only on desktop; privacy only when the brand's switch allows it.
 * `opens` says whether a path would render (its screen built, its switch on, the account
 * allowed): no row leads to an empty page.
 */
export function accountRows(context: {
  user: { registerType: 'E' | 'P'; email: string; inviteCode: string } | null;
  switches: Pick<Switches, 'user/bindEmail' | 'user/privacy'>;
  isDesktop: boolean;
  serviceEmail: string;
  opens: (path: string) => boolean;
}): AccountRow[] {
  const { user, switches, isDesktop, opens } = context;
  const rows: AccountRow[] = [];
  if (user && mayBindEmail(user, switches['user/bindEmail']) && opens('/user/bindEmail')) rows.push('bindEmail');
  if (opens('/user/changePassword')) rows.push('changePassword');
  if (isDesktop && user?.inviteCode) rows.push('inviteCode');
  if (opens('/user/invite')) rows.push('invite');
  if (switches['user/privacy'] && opens('/user/privacy')) rows.push('privacy');
  if (isDesktop && context.serviceEmail) rows.push('serviceEmail');
  return rows;
}
