import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { SchemeToggle } from '../../app/components/theme-controls';
import { sectionsFor } from '../navigation';
import { useStaff } from '../session/staff-context';
import { StaffLanguagePicker } from './language-select';
import { BrandLogo } from '../../app/components/brand-logo';

/** The desktop console: a top bar (brand, member, language, theme, sign out), side navigation, content. */
export function ConsoleLayout(props: { children: ReactNode }) {
  const { t } = useTranslation();
  const { me, config, signOut } = useStaff();
  const [location] = useLocation();
  const sections = sectionsFor(me.roles);
  const isCurrent = (href: string) => (href === '/' ? location === '/' : location === href || location.startsWith(`${href}/`));
  // On a phone the menu is one scrolling row: the current section is brought into it, never left cut at the edge.
  const navigation = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    const nav = navigation.current;
    const current = nav?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!nav || !current || nav.scrollWidth <= nav.clientWidth) return;
    const row = nav.getBoundingClientRect();
    const link = current.getBoundingClientRect();
    if (link.right > row.right) nav.scrollLeft += link.right - row.right + 8;
    else if (link.left < row.left) nav.scrollLeft -= row.left - link.left + 8;
  }, [location]);
  return (
    <div className="desktop-layout staff-console">
      <header className="top-bar staff-top-bar">
        <span className="brand">
          <BrandLogo src={config.logo} />
          {config.siteName}
        </span>
        <span className="staff-badge">{t('staff.console')}</span>
        <span className="top-bar-spacer" />
        <span className="staff-who" aria-label={t('staff.signed_in_as')}>
          {me.email} · {me.roles.map((role) => t(`staff.roles.${role}`)).join(', ')}
        </span>
        <StaffLanguagePicker />
        <SchemeToggle />
        <Link href="/password" className="button secondary staff-small-button">
          {t('staff.password.change')}
        </Link>
        <button type="button" className="button secondary staff-small-button" onClick={signOut}>
          {t('staff.sign_out')}
        </button>
      </header>
      <div className="desktop-body">
        <nav ref={navigation} className="staff-nav" aria-label={t('staff.nav.label')}>
          <ul>
            {sections.map((section) => (
              <li key={section.id}>
                <Link href={section.href} className="side-link" aria-current={isCurrent(section.href) ? 'page' : undefined}>
                  {t(section.labelKey)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <main className="desktop-main staff-main">{props.children}</main>
      </div>
    </div>
  );
}
