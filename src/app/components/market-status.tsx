import { useSignals } from '@preact/signals-react/runtime';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadingScreen } from '../boot/blocking-overlay';
import { marketSignal, positionsSignal } from '../engine/signals';
import { confirmDialog } from './confirm';

/**
 * The market connection as the user sees it: the loading screen until the all-prices
 * feed first arrives, a notice while prices are stale or the socket reconnects, and the
 * alert whose confirm reloads once reconnection of either socket gave up.
 */
export function MarketStatus() {
  useSignals();
  const { t } = useTranslation();
  const market = marketSignal.value;
  // Either socket giving up (prices, or the account's exchange socket) ends in the same alert.
  const gaveUp = market.gaveUp || positionsSignal.value.gaveUp;

  useEffect(() => {
    if (!gaveUp) return;
    void confirmDialog({ title: t('notice.network_abnormal'), message: t('market.connection_failed') }).then((confirmed) => {
      if (confirmed) window.location.reload();
    });
  }, [gaveUp, t]);

  if (!market.ready) return <LoadingScreen label={t('boot.loading')} />;
  if (market.status !== 'open' && !market.gaveUp) {
    return (
      <div className="market-notice" role="status">
        {t('notice.reconnecting')}
      </div>
    );
  }
  if (market.stale) {
    return (
      <div className="market-notice" role="status">
        {t('market.stale')}
      </div>
    );
  }
  return null;
}
