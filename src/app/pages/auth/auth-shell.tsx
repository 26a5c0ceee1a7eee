import { lazy, Suspense, useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { useSignals } from '@preact/signals-react/runtime';
import { switchesSignal, useApp } from '../../app-context';
import { LanguagePicker } from '../../components/language-picker';
import { PageFrame } from '../../components/page-frame';
import { useIsDesktop } from '../../layouts/use-viewport';
import { Icon } from '../../components/icons';
import { BrandLogo } from '../../components/brand-logo';

// Desktops only (phones sign in on a page of their own); fetched with the desktop terminal at start-up.
const Workspace = lazy(() => import('../../features/workspace/workspace').then((module) => ({ default: module.Workspace })));

function HeadsetIcon() {
  return (
    <svg width={20} height={20} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <path d="M4 14v-2a8 8 0 0 1 16 0v2" />
      <path d="M4 14h3v5H5a1 1 0 0 1-1-1zM20 14h-3v5h2a1 1 0 0 0 1-1z" />
      <path d="M17 19c0 1.5-2 2-5 2" />
    </svg>
  );
}

/** The header's shortcuts: customer service and the language picker. */
function AuthActions() {
  useSignals();
  const { t } = useTranslation();
  return (
    <>
      {switchesSignal.value['user/service'] ? (
        <Link href="/user/service" className="icon-button" aria-label={t('common.customer_service')}>
          <HeadsetIcon />
        </Link>
      ) : null}
      <LanguagePicker compact />
    </>
  );
}

/**
 * Sign-in, sign-up and reset: a page on phones; on desktop a panel of the one overlay
 * card (420 px) over the desktop layout, with the site name and version at its foot (on
 * phones the brand's logo and name head the page).
 */
export function AuthShell(props: { title: string; back: string; children: ReactNode }) {
  const { t } = useTranslation();
  const { config } = useApp();
  const [, navigate] = useLocation();
  const isDesktop = useIsDesktop();
  const titleId = useId();

  if (!isDesktop) {
    return (
      <PageFrame back={props.back} title={props.title} actions={<AuthActions />}>
        <p className="auth-brand auth-phone-brand">
          <BrandLogo src={config.logo} />
          {config.siteName}
        </p>
        <div className="auth-panel">{props.children}</div>
      </PageFrame>
    );
  }
  return (
    <div className="auth-desktop">
      {/* The trading workspace stays in view behind the card, out of reach until signed in. */}
      <div className="auth-behind" inert aria-hidden="true">
        <Suspense fallback={null}>
          <Workspace />
        </Suspense>
      </div>
      <div className="auth-overlay">
        <section className="auth-card" aria-labelledby={titleId}>
          <header className="auth-card-header">
            <button type="button" className="icon-button" aria-label={t('common.back')} onClick={() => navigate(props.back)}>
              <Icon name="back" />
            </button>
            <h1 id={titleId} className="page-title">
              {props.title}
            </h1>
            <div className="page-actions">
              <AuthActions />
            </div>
          </header>
          <div className="auth-panel">{props.children}</div>
          <footer className="auth-card-footer">
            <span className="auth-brand">
              <BrandLogo src={config.logo} />
              {config.siteName}
            </span>
            <span>{t('common.version', { version: __APP_VERSION__ })}</span>
          </footer>
        </section>
      </div>
    </div>
  );
}
