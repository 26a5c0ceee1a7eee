import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { showToast } from '../../components/toasts';
import { useIsDesktop } from '../../layouts/use-viewport';

/**
 * On phones, an order form for a product that cannot be traded in its mode (market: trade
 * status off; option: option product off) says "closed" and goes back, or to the product's
 * chart when there is no page to go back to. The desktop shows the form's closed state.
 */
export function useLeaveWhenClosed(closed: boolean, symbol: string) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const isDesktop = useIsDesktop();
  useEffect(() => {
    if (!closed || isDesktop) return;
    showToast('error', t('chart.closed'));
    if (window.history.length > 1) window.history.back();
    else navigate(`/${symbol}/chart`, { replace: true });
  }, [closed, isDesktop, navigate, symbol, t]);
}
