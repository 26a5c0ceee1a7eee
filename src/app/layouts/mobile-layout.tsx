import { lazy, Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { Icon, type IconName } from '../components/icons';
import { NoticeBadge } from '../features/notices/notice-alerts';

const tabs = [
  { path: '/', labelKey: 'nav.home', icon: 'home' },
  { path: '/position', labelKey: 'nav.position', icon: 'positions' },
  { path: '/history', labelKey: 'nav.history', icon: 'history' },
  { path: '/user', labelKey: 'nav.user', icon: 'user' },
] as const satisfies readonly { path: string; labelKey: string; icon: IconName }[];

/**
 * The strip comes in its own chunk after the first screen: it reads the account's contracts,
 * which the first load keeps out (a frame of its height stands in, so nothing moves).
 */
const AccountStrip = lazy(() => import('../features/account/account-strip').then((module) => ({ default: module.AccountStrip })));

/**
 * Phones: the page fills the screen; the bottom tab bar shows on the four top pages, the
 * account strip (with the connection) at the top of the trading screens.
 */
export function MobileLayout(props: { children: ReactNode; showTabBar: boolean; accountStrip: boolean }) {
  const { t } = useTranslation();
  const [location] = useLocation();
  return (
    <div className={props.accountStrip ? 'mobile-layout with-account-strip' : 'mobile-layout'}>
      {props.accountStrip ? (
        <Suspense fallback={<div className="account-strip" aria-hidden="true" />}>
          <AccountStrip withConnection />
        </Suspense>
      ) : null}
      <main className="mobile-main">{props.children}</main>
      {props.showTabBar ? (
        <nav className="tab-bar" aria-label={t('nav.main')}>
          {tabs.map((tab) => {
            const active = tab.path === '/' ? location === '/' : location.startsWith(tab.path);
            return (
              <Link key={tab.path} href={tab.path} className="tab" aria-current={active ? 'page' : undefined}>
                <span className="tab-icon">
                  <Icon name={tab.icon} size={22} />
                  {tab.path === '/user' ? <NoticeBadge /> : null}
                </span>
                <span>{t(tab.labelKey)}</span>
              </Link>
            );
          })}
        </nav>
      ) : null}
    </div>
  );
}
