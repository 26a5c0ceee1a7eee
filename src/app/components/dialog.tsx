import { useId, useLayoutEffect, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { keepTabInside } from './focus-trap';
import { Icon } from './icons';

/**
 * A modal surface: a drawer from the bottom on mobile, a centred dialog on desktop
 * (the layout sets `data-layout` on the root, and the stylesheet places it). It is
 * mounted at the end of the body (of the desktop's phone view, whose drawers stay in its
 * frame), above whatever opened it, so a surface beneath (the desktop account dialog) can
 * be made inert without taking this one with it.
 */
export function Dialog(props: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  heightPx?: number;
  /** Its body is short and is the point (a question, a result): read out with the title when it opens. */
  describe?: boolean;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const bodyId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const backdrop = useRef<HTMLDivElement>(null);
  const { onClose } = props;

  // Modal: everything else in its container is inert while it shows, so Tab stays inside and
  // nothing behind it can be clicked or read out (as a native modal <dialog> does). Layout
  // effects, here and for focus: they run before the dialog is painted, so nothing can be typed
  // or clicked in it before focus has moved in (a plain effect may run a frame later, and a
  // late move would blur a field already being typed in, whose check then undid the typing).
  useLayoutEffect(() => {
    const own = backdrop.current;
    const others = Array.from(own?.parentElement?.children ?? []).filter((element): element is HTMLElement => element !== own && element instanceof HTMLElement && !element.inert);
    for (const element of others) element.inert = true;
    return () => {
      for (const element of others) element.inert = false;
    };
  }, []);

  // Focus moves in once, when it opens, and back when it closes. Not on a new `onClose`: an
  // opener re-rendering with each tick passes a new one every time, and moving focus then
  // would take it from the field being typed in (whose blur check could then undo the typing).
  useLayoutEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    panel.current?.focus();
    return () => previous?.focus?.();
  }, []);

  // The newest onClose, read when a key comes: the listener stays the same for the dialog's life.
  const latestOnClose = useRef(onClose);
  useLayoutEffect(() => {
    latestOnClose.current = onClose;
  }, [onClose]);
  // Listening from before paint: Escape pressed as soon as the dialog shows closes it.
  useLayoutEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') latestOnClose.current();
      keepTabInside(event, panel.current);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  return createPortal(
    <div ref={backdrop} className="dialog-backdrop" onClick={onClose}>
      <div
        ref={panel}
        className="dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={props.describe ? bodyId : undefined}
        tabIndex={-1}
        style={props.heightPx ? { ['--drawer-height' as string]: `${props.heightPx}px` } : undefined}
        onClick={(event) => event.stopPropagation()}
      >
        <header className="dialog-header">
          <h2 id={titleId}>{props.title}</h2>
          <button type="button" className="icon-button" aria-label={t('common.close')} onClick={onClose}>
            <Icon name="close" />
          </button>
        </header>
        <div className="dialog-body" id={bodyId}>
          {props.children}
        </div>
        {props.footer ? <footer className="dialog-footer">{props.footer}</footer> : null}
      </div>
    </div>,
    document.querySelector('.phone-view') ?? document.body,
  );
}
