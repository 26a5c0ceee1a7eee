import { useSignals } from '@preact/signals-react/runtime';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { logout } from '../../../shared/api/auth';
import { useBrandFormat } from '../../format/use-brand-format';
import { switchesSignal, useApp } from '../../app-context';
import { useAccountBalance } from '../../features/account/account-balance';
import { BookSwitch } from '../../features/account/book-switch';
import { confirmDialog } from '../../components/confirm';
import { copyText } from '../../components/copy-text';
import { PageFrame } from '../../components/page-frame';
import { UserAvatar } from '../../features/profile/user-avatar';
import { useUserInfo } from '../../features/profile/use-user-info';
import { adoptSession, loggedOutHereSignal, sessionSignal } from '../../engine/signals';
import { hasScreen } from '../../routing/routes';
import { hubMenuEntries } from '../../features/account/account-entries';
import { ResetDemoButton } from '../../features/trading/positions/position-parts';
import { useIsDesktop } from '../../layouts/use-viewport';
import { isDemoSession } from '../../../shared/protocol/engine';

/**
 * `/user`: the profile hub. Who is signed in (nick, uid, invite code), the balances of
 * the account in use, the real/demo switch, the account pages this brand and this
 * account may open, and sign-out.
 */
export function UserHubPage() {
  useSignals();
  const { t } = useTranslation();
  const { http, engine } = useApp();
  const format = useBrandFormat();
  const [, navigate] = useLocation();
  const session = sessionSignal.value;
  const info = useUserInfo();
  const balance = useAccountBalance();
  const isDesktop = useIsDesktop();

  // Only screens that open are offered: never a link to an empty page. On desktop the
  // account dialog's menu beside this page lists them instead.
  const entries = isDesktop ? [] : hubMenuEntries({ signedIn: true, book: session.book, switches: switchesSignal.value, hasScreen, user: info });

  const amount = format.amount;

  async function signOut() {
    if (!(await confirmDialog({ title: t('user.logout'), message: t('user.logout_confirm') }))) return;
    // Before the call: the server ends the session family and closes the account socket, which
    // may end this tab's session before the call answers; this tab still goes to plain sign-in.
    loggedOutHereSignal.value = true;
    // The server ends the session family; the engine clears every tab either way.
    await http.call(logout, {}, { silent: true }).catch(() => undefined);
    adoptSession(await engine.signOut('logout'));
    navigate('/login', { replace: true });
  }

  return (
    <PageFrame back={false} title={t('page.user')}>
      <section className="user-hub-card" aria-label={t('user.profile')}>
        <UserAvatar avator={info?.avator} nick={info?.nick} />
        <div className="user-hub-who">
          <strong>{info ? info.nick || t('desktop.signed_in_as', { uid: info.uid }) : t('common.loading')}</strong>
          <span className="numeric">{t('user.uid', { uid: info?.uid ?? session.uid ?? '' })}</span>
          {info?.inviteCode ? (
            <span>
              {t('user.invite_code')}: <span className="numeric">{info.inviteCode}</span>{' '}
              <button type="button" className="link-button" onClick={() => void copyText(info.inviteCode, { copied: t('user.copied'), failed: t('user.copy_failed') })}>
                {t('common.copy')}
              </button>
            </span>
          ) : null}
        </div>
        <span className={`account-badge account-${session.book}`}>{t(`mode.${session.book ?? 'real'}`)}</span>
      </section>

      <section className="user-hub-balances" aria-label={t('desktop.balances')}>
        <dl className="balance-lines numeric">
          <div>
            <dt>{t('desktop.total_balance')}</dt>
            <dd data-testid="hub-total-balance">{balance ? amount(balance.total) : '…'}</dd>
          </div>
          <div>
            <dt>{t('desktop.available_balance')}</dt>
            <dd data-testid="hub-available-balance">{balance ? amount(balance.balanceAmount) : '…'}</dd>
          </div>
          <div>
            <dt>{t('user.locked_funds')}</dt>
            <dd data-testid="hub-locked-balance">{balance ? amount(balance.lockMargin) : '…'}</dd>
          </div>
        </dl>
        <BookSwitch />
        {/* The desktop menu has no wallet hub for a demo account: its reset is here. */}
        {isDesktop && isDemoSession(session) ? <ResetDemoButton /> : null}
      </section>

      {entries.length > 0 ? (
        <nav aria-label={t('user.menu')}>
          <ul className="user-hub-menu">
            {entries.map((route) => (
              <li key={route.name}>
                <Link href={route.pattern}>{t(route.titleKey)}</Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      <button type="button" className="button secondary user-hub-logout" onClick={() => void signOut()}>
        {t('user.logout')}
      </button>
    </PageFrame>
  );
}
