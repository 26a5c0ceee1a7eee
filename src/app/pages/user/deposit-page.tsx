import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { depositStatus } from '../../../shared/api/deposit';
import { walletCoinNetworks, walletSelfNetworks } from '../../../shared/api/wallet';
import { useApp } from '../../app-context';
import { PageFrame } from '../../components/page-frame';
import { showToast } from '../../components/toasts';
import { DepositForm, type DepositCoinOption } from '../../features/money/deposit/deposit-form';
import { useUserInfo } from '../../features/profile/use-user-info';
import { useIsDesktop } from '../../layouts/use-viewport';
import '../../styles/money.css';

/** user/info's walletType of a self-owned wallet: its deposits go to the customer's own addresses. */
const selfOwnedWalletType = 1;

/**
 * `/user/deposit`: the deposit form over the coin networks that take deposits (for a
 * self-owned wallet, walletType 1, the self wallet list: the customer's own addresses). When
 * deposits are off for the account (deposit/status), phones go home (the specification)
 * and desktop says so in place.
 */
export function DepositPage() {
  const { t } = useTranslation();
  const { http } = useApp();
  const [, navigate] = useLocation();
  const isDesktop = useIsDesktop();
  const [coins, setCoins] = useState<DepositCoinOption[] | null>(null);
  const [enabled, setEnabled] = useState<boolean | null>(null);
  const walletType = useUserInfo()?.walletType ?? null;

  useEffect(() => {
    if (walletType === null) return;
    let stopped = false;
    const networks = walletType === selfOwnedWalletType ? http.call(walletSelfNetworks, {}) : http.call(walletCoinNetworks, {});
    Promise.all([http.call(depositStatus, {}), networks])
      .then(([status, networks]) => {
        if (stopped) return;
        setEnabled(status.enabled);
        setCoins(networks.dtoList);
      })
      .catch(() => undefined);
    return () => {
      stopped = true;
    };
  }, [http, walletType]);

  useEffect(() => {
    if (enabled !== false || isDesktop) return;
    showToast('info', t('deposit.disabled'));
    navigate('/', { replace: true });
  }, [enabled, isDesktop, navigate, t]);

  return (
    <PageFrame title={t('page.deposit')} actions={null}>
      {enabled === false ? <p className="empty-state">{t('deposit.disabled')}</p> : coins === null ? <p className="list-end">{t('common.loading')}</p> : <DepositForm coins={coins} />}
    </PageFrame>
  );
}
