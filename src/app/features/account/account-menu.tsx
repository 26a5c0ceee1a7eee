import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { useBrandFormat } from '../../format/use-brand-format';
import { userBalance, type AccountBalance } from '../../../shared/api/account';
import { switchAccount } from '../../../shared/api/auth';
import { money, formatMoney } from '../../../shared/money/money';
import { switchesSignal, useApp } from '../../app-context';
import { adoptSession, sessionSignal } from '../../engine/signals';
import { confirmDialog } from '../../components/confirm';
import { showToast } from '../../components/toasts';

/** The specification's mobile height of the account switch warning. */
const switchWarningHeightPx = 270;

/** How often the open balance popover refreshes. */
const balanceRefreshMs = 5_000;

/** Total (balance plus locked margin) and available balance of the signed-in account. */
export function useAccountBalance(active: boolean, refreshMs = balanceRefreshMs): AccountBalance | null {
  const { http } = useApp();
  const [balance, setBalance] = useState<AccountBalance | null>(null);
  useEffect(() => {
    if (!active) return;
    let stopped = false;
    const load = () =>
      http
        .call(userBalance, {}, { silent: true })
        .then((next) => !stopped && setBalance(next))
        .catch(() => undefined);
    void load();
    const timer = setInterval(load, refreshMs);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [http, active, refreshMs]);
  return balance;
}

/** The desktop user card: "let's sign in" for visitors, else the account with its balance popover. */
export function AccountMenu() {
  useSignals();
  const { t } = useTranslation();
  const format = useBrandFormat();
  const session = sessionSignal.value;
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const balance = useAccountBalance(open && session.signedIn);

  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent | KeyboardEvent) => {
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);

  if (!session.signedIn) {
    return (
      <Link href="/login" className="user-card">
        {t('desktop.lets_sign_in')}
      </Link>
    );
  }
  const amount = format.amount;
  const total = balance ? formatMoney(money(balance.balanceAmount) + money(balance.lockMargin)) : null;
  return (
    <div className="menu account-menu" ref={root}>
      <button type="button" className="user-card" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen(!open)}>
        <span className={`account-badge account-${session.book}`}>{t(`mode.${session.book}`)}</span>
        <span>{t('desktop.signed_in_as', { uid: session.uid })}</span>
      </button>
      {open ? (
        <div className="menu-list balance-popover" id={panelId} role="group" aria-label={t('desktop.balances')}>
          <dl className="balance-lines numeric">
            <div>
              <dt>{t('desktop.total_balance')}</dt>
              <dd data-testid="total-balance">{total ? amount(total) : '…'}</dd>
            </div>
            <div>
              <dt>{t('desktop.available_balance')}</dt>
              <dd data-testid="available-balance">{balance ? amount(balance.balanceAmount) : '…'}</dd>
            </div>
          </dl>
          <Link href="/user" className="button secondary" onClick={() => setOpen(false)}>
            {t('page.user')}
          </Link>
        </div>
      ) : null}
    </div>
  );
}

/**
 * Real ⇄ demo, when the brand allows demo trading: asks first, then adopts the new
 * tokens for every tab (the engine reopens the positions feed for the other account).
 */
export function BookSwitch() {
  useSignals();
  const { t } = useTranslation();
  const { http, engine } = useApp();
  const session = sessionSignal.value;
  const [busy, setBusy] = useState(false);
  if (!session.signedIn || !switchesSignal.value.VIRTUAL_CURRENCY_TRADE) return null;
  const current = session.book ?? 'real';

  async function choose(mode: 'real' | 'demo') {
    if (mode === current || busy) return;
    const confirmed = await confirmDialog({
      title: t('mode.switch_title'),
      message: t(mode === 'demo' ? 'mode.switch_to_demo' : 'mode.switch_to_real'),
      heightPx: switchWarningHeightPx,
    });
    if (!confirmed) return;
    setBusy(true);
    try {
      const tokens = await http.call(switchAccount, {});
      adoptSession(await engine.signIn(tokens));
      showToast('success', t('mode.switched', { mode: t(`mode.${mode}`) }));
    } catch {
      // The request client has told the user why.
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="segmented" role="group" aria-label={t('mode.account_mode')}>
      {(['real', 'demo'] as const).map((mode) => (
        <button key={mode} type="button" aria-pressed={mode === current} disabled={busy} onClick={() => void choose(mode)}>
          {t(`mode.${mode}`)}
        </button>
      ))}
    </div>
  );
}
