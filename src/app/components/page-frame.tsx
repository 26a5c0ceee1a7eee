import { createContext, useContext, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { Icon } from './icons';

/**
 * True where a page is opened from a menu beside it (the desktop account dialog's left
 * menu): the menu is the way elsewhere, so the page shows no back button.
 */
export const OpenedFromSideMenu = createContext(false);

/**
 * A page's header (back button, title, actions) above its content, one height on every
 * screen; `back={false}` only on a tab's root screen. `back` is a path to go to, or what
 * going back does (the crypto pages' trail, `routing/back-trail.ts`).
 */
export function PageFrame(props: {
  title: ReactNode;
  back?: string | (() => void) | false;
  actions?: ReactNode;
  children?: ReactNode;
  /** The content fills the screen's height and scrolls inside (virtualized lists). */
  fill?: boolean;
}) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const back = useContext(OpenedFromSideMenu) ? false : props.back;
  return (
    <section className={props.fill ? 'page fill' : 'page'}>
      <header className="page-header">
        {/* A tab's root has no way back: its title starts at the edge, as every tab's does. */}
        {back === false ? null : (
          <button
            type="button"
            className="icon-button"
            aria-label={t('common.back')}
            onClick={() => {
              if (typeof back === 'string') navigate(back);
              else if (back) back();
              else if (window.history.length > 1) window.history.back();
              else navigate('/');
            }}
          >
            <Icon name="back" />
          </button>
        )}
        <h1 className="page-title">{props.title}</h1>
        <div className="page-actions">{props.actions}</div>
      </header>
      <div className="page-content">{props.children}</div>
    </section>
  );
}
