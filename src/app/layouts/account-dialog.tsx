import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { switchesSignal } from '../app-context';
import { keepTabInside } from '../components/focus-trap';
import { Icon } from '../components/icons';
import { OpenedFromSideMenu } from '../components/page-frame';
import { sessionSignal } from '../engine/signals';
import { desktopMenuEntries, menuEntryOf } from '../features/account/account-entries';
import { NoticeBadge } from '../features/notices/notice-alerts';
import { useUserInfo } from '../features/profile/use-user-info';
import { hasScreen, type RouteName } from '../routing/routes';
import '../styles/account-dialog.css';

/** Whether a modal surface other than `own` is open (a confirmation, a detail): it is on top, and `own` waits beneath. */
function otherModalOpen(own: HTMLElement | null): boolean {
  return Array.from(document.querySelectorAll('[role="dialog"][aria-modal="true"]')).some((element) => element !== own && !own?.contains(element));
}

/** True while another modal surface covers `own`; follows dialogs as they mount at the end of the body. */
function useCoveredByOtherModal(own: RefObject<HTMLElement | null>): boolean {
  const [covered, setCovered] = useState(false);
  useEffect(() => {
    const check = () => setCovered(otherModalOpen(own.current));
    check();
    const observer = new MutationObserver(check);
    observer.observe(document.body, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [own]);
  return covered;
}

/**
 * The desktop account area: one dialog over the terminal with a left menu (the entries the
 * brand's switches and the account allow) and the account page beside it. The menu moves
 * between pages in place (it replaces the address instead of stacking history), so closing
 * or going back returns to the page the dialog was opened over; every page keeps its own
 * address, so a link or a reload opens the same dialog.
 */
export function AccountDialog(props: { route: RouteName; onClose: () => void; children: ReactNode }) {
  useSignals();
  const { t } = useTranslation();
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const session = sessionSignal.value;
  const user = useUserInfo();
  const covered = useCoveredByOtherModal(panel);
  const { onClose } = props;

  const entries = session.signedIn ? desktopMenuEntries({ signedIn: true, book: session.book, switches: switchesSignal.value, hasScreen, user }) : [];
  const current = menuEntryOf(props.route);
  const pageIsMenuEntry = entries.some((entry) => entry.name === props.route);

  // Before paint, as the shared Dialog does: focus is inside before anything can be typed there.
  useLayoutEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    panel.current?.focus();
    return () => previous?.focus?.();
  }, []);

  useLayoutEffect(() => {
    // A confirmation on top takes Escape and Tab for itself.
    const onKey = (event: KeyboardEvent) => {
      if (otherModalOpen(panel.current)) return;
      if (event.key === 'Escape') onClose();
      keepTabInside(event, panel.current);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);

  return (
    <div className="account-dialog-backdrop">
      <div ref={panel} className="account-dialog" role="dialog" aria-modal="true" aria-labelledby={titleId} tabIndex={-1} inert={covered} aria-hidden={covered || undefined}>
        <header className="account-dialog-header">
          <h2 id={titleId}>{t('page.user')}</h2>
          <button type="button" className="icon-button" aria-label={t('common.close')} onClick={onClose}>
            <Icon name="close" />
          </button>
        </header>
        <div className="account-dialog-body">
          {entries.length > 0 ? (
            <nav className="account-dialog-menu" aria-label={t('user.menu')}>
              <ul>
                {entries.map((entry) => (
                  <li key={entry.name}>
                    <Link href={entry.pattern} replace aria-current={entry.name === current ? 'page' : undefined}>
                      {entry.name === 'user' ? t('user.overview') : t(entry.titleKey)}
                      {/* The top bar's unread badge is beneath the dialog: the entry carries it. */}
                      {entry.name === 'user-notification' ? <NoticeBadge /> : null}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          ) : null}
          {/* It scrolls on its own, so a keyboard user can focus it to scroll a page without controls (a static text). */}
          <div className="account-dialog-pane" tabIndex={0}>
            <OpenedFromSideMenu.Provider value={pageIsMenuEntry}>{props.children}</OpenedFromSideMenu.Provider>
          </div>
        </div>
      </div>
    </div>
  );
}
