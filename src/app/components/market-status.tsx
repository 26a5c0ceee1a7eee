import { useSignals } from '@preact/signals-react/runtime';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadingScreen } from '../boot/blocking-overlay';
import { marketSignal, positionsSignal } from '../engine/signals';
import { confirmDialog } from './confirm';

/**
 * The market connection as the user sees it: the loading screen until the all-prices
 * feed first arrives, a notice while prices are stale or the socket reconnects, and the
 * alert whose confirm reloads after more than 10 failed reconnections of either socket (it
 * goes once the connection is back; the engine never stops trying).
 */
export function MarketStatus() {
  useSignals();
  const { t } = useTranslation();
  const market = marketSignal.value;
  // Either socket failing (prices, or the account's exchange socket) raises the same alert.
  const connectionFailed = market.connectionFailed || positionsSignal.value.connectionFailed;

  useEffect(() => {
    if (!connectionFailed) return;
    // The engine keeps trying meanwhile: once a connection opens the alert goes by itself.
    const answered = new AbortController();
    void confirmDialog({ title: t('notice.network_abnormal'), message: t('market.connection_failed') }, answered.signal).then((confirmed) => {
      if (confirmed) window.location.reload();
    });
    return () => answered.abort();
  }, [connectionFailed, t]);

  // Old prices must not look live: while stale (silent, or no connection) the price cells are greyed (layout.css).
  const stale = market.ready && market.stale;
  useEffect(() => {
    document.documentElement.toggleAttribute('data-prices-stale', stale);
  }, [stale]);

  if (!market.ready) return <LoadingScreen label={t('boot.loading')} />;
  const notice = market.status !== 'open' && !market.connectionFailed ? t('notice.reconnecting') : market.stale ? t('market.stale') : null;
  // The live region stays in the page while the notice comes and goes: a region added
  // together with its text is often not read out; a change inside one is, once.
  return (
    <div className="market-notice-region" role="status">
      {notice !== null ? <div className="market-notice">{notice}</div> : null}
    </div>
  );
}
