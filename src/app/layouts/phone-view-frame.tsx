import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { choosePhoneView } from './use-viewport';

/**
 * The phone layout in a centred column of the given width on a desktop window. The
 * column is a containing block (transform), so the tab bar and drawers fixed to the
 * "screen" stay inside it; the way back to the desktop layout sits beside it.
 */
export function PhoneViewFrame(props: { width: number; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="phone-view-backdrop">
      <div className="phone-view" style={{ width: props.width }} data-testid="phone-view">
        {props.children}
      </div>
      <button type="button" className="tool-button phone-view-exit" onClick={() => choosePhoneView(false)}>
        {t('desktop.desktop_view')}
      </button>
    </div>
  );
}

/** The desktop top bar's switch to the phone layout. */
export function PhoneViewButton() {
  const { t } = useTranslation();
  return (
    <button type="button" className="tool-button" onClick={() => choosePhoneView(true)}>
      {t('desktop.phone_view')}
    </button>
  );
}
