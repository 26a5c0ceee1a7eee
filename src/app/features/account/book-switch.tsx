import { useSignals } from '@preact/signals-react/runtime';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { switchAccount } from '../../../shared/api/auth';
import type { Book } from '../../../shared/session/token';
import { switchesSignal, useApp } from '../../app-context';
import { confirmDialog } from '../../components/confirm';
import { showToast } from '../../components/toasts';
import { adoptSession, sessionSignal } from '../../engine/signals';

/** The specification's mobile height of the account switch warning. */
const switchWarningHeightPx = 270;

/**
 * Switching real ⇄ demo: asks first, then adopts the new tokens for every tab (the
 * engine reopens the positions feed for the other account). Used by the switch and by
 * whatever offers the demo account as a way forward (an order refused for its balance).
 */
export function useBookSwitch() {
  const { t } = useTranslation();
  const { http, engine } = useApp();
  const [busy, setBusy] = useState(false);

  async function choose(book: Book) {
    const current = sessionSignal.peek().book ?? 'real';
    if (book === current || busy) return;
    const confirmed = await confirmDialog({
      title: t('mode.switch_title'),
      message: t(book === 'demo' ? 'mode.switch_to_demo' : 'mode.switch_to_real'),
      heightPx: switchWarningHeightPx,
    });
    if (!confirmed) return;
    setBusy(true);
    try {
      const tokens = await http.call(switchAccount, {});
      adoptSession(await engine.signIn(tokens));
      showToast('success', t('mode.switched', { mode: t(`mode.${book}`) }));
    } catch {
      // The request client has told the user why.
    } finally {
      setBusy(false);
    }
  }

  return { busy, choose };
}

/** Real ⇄ demo, when the brand allows demo trading. */
export function BookSwitch() {
  useSignals();
  const { t } = useTranslation();
  const { busy, choose } = useBookSwitch();
  const session = sessionSignal.value;
  if (!session.signedIn || !switchesSignal.value.VIRTUAL_CURRENCY_TRADE) return null;
  const current = session.book ?? 'real';

  return (
    <div className="segmented" role="group" aria-label={t('mode.account_mode')}>
      {(['real', 'demo'] as const satisfies readonly Book[]).map((book) => (
        <button key={book} type="button" aria-pressed={book === current} disabled={busy} onClick={() => void choose(book)}>
          {t(`mode.${book}`)}
        </button>
      ))}
    </div>
  );
}
