import { useSignals } from '@preact/signals-react/runtime';
import { useId, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { sessionSignal } from '../../engine/signals';
import { useBrandFormat } from '../../format/use-brand-format';
import { Icon } from '../../components/icons';
import { NoticeBadge } from '../notices/notice-alerts';
import { accountCurrency } from '../../../shared/trading/account-figures';
import { useAccountBalance } from './account-balance';

/**
 * The desktop user card: "let's sign in" for visitors, else the account with its balance
 * popover. `compact` (a crowded top bar): the name shows as an icon, kept as the card's
 * accessible name and tooltip.
 */
export function AccountMenu(props: { compact?: boolean }) {
  useSignals();
  const { t } = useTranslation();
  const session = sessionSignal.value;
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);

  // Listening from before paint, so an Escape or a click right after it opens is not missed.
  useLayoutEffect(() => {
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
  const chip = t(session.book === 'demo' ? 'desktop.account_chip_demo' : 'desktop.account_chip_real', { uid: session.uid, currency: accountCurrency });
  return (
    <div className="menu account-menu" ref={root}>
      <button
        type="button"
        className="user-card"
        aria-expanded={open}
        aria-controls={panelId}
        title={props.compact ? chip : undefined}
        onClick={() => setOpen(!open)}
      >
        {/* Folded, the badge alone says which book; unfolded, the chip names it in words. */}
        {props.compact ? <span className={`account-badge account-${session.book}`} aria-hidden="true">{t(`mode.${session.book}`)}</span> : <span className={`account-book-mark account-${session.book}`} aria-hidden="true" />}
        <NoticeBadge />
        {props.compact ? <Icon name="user" /> : null}
        <span className={props.compact ? 'visually-hidden' : undefined}>{chip}</span>
      </button>
      {open ? <BalancePopover id={panelId} onClose={() => setOpen(false)} /> : null}
    </div>
  );
}

/** The balances, read only while the popover shows them (so a closed menu asks the server nothing). */
function BalancePopover(props: { id: string; onClose: () => void }) {
  useSignals();
  const { t } = useTranslation();
  const amount = useBrandFormat().amount;
  const balance = useAccountBalance();
  return (
    <div className="menu-list balance-popover" id={props.id} role="group" aria-label={t('desktop.balances')}>
      <dl className="balance-lines numeric">
        <div>
          <dt>{t('desktop.total_balance')}</dt>
          <dd data-testid="total-balance">{balance ? amount(balance.total) : '…'}</dd>
        </div>
        <div>
          <dt>{t('desktop.available_balance')}</dt>
          <dd data-testid="available-balance">{balance ? amount(balance.balanceAmount) : '…'}</dd>
        </div>
        <div>
          <dt>{t('user.locked_funds')}</dt>
          <dd data-testid="locked-balance">{balance ? amount(balance.lockMargin) : '…'}</dd>
        </div>
      </dl>
      {/* The unread badge on this menu leads here. */}
      <Link href="/user/notification" className="button secondary" onClick={props.onClose}>
        {t('page.notification')}
      </Link>
      <Link href="/user" className="button secondary" onClick={props.onClose}>
        {t('page.user')}
      </Link>
    </div>
  );
}
