import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';

const tabs = [
  { path: '/', labelKey: 'nav.home', icon: '⌂' },
  { path: '/position', labelKey: 'nav.position', icon: '◧' },
  { path: '/history', labelKey: 'nav.history', icon: '◷' },
  { path: '/user', labelKey: 'nav.user', icon: '◉' },
] as const;

/** Phones: the page fills the screen; the bottom tab bar shows on the four top pages. */
export function MobileLayout(props: { children: ReactNode; showTabBar: boolean }) {
  const { t } = useTranslation();
  const [location] = useLocation();
  return (
    <div className="mobile-layout">
      <main className="mobile-main">{props.children}</main>
      {props.showTabBar ? (
        <nav className="tab-bar" aria-label={t('nav.main')}>
          {tabs.map((tab) => {
            const active = tab.path === '/' ? location === '/' : location.startsWith(tab.path);
            return (
              <Link key={tab.path} href={tab.path} className="tab" aria-current={active ? 'page' : undefined}>
                <span className="tab-icon" aria-hidden="true">
                  {tab.icon}
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
