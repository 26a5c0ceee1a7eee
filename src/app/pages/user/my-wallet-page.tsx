import { useSignals } from '@preact/signals-react/runtime';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { WalletBalanceItem } from '../../../shared/api/wallet';
import { totalAssets } from '../../../shared/money/balance';
import { money } from '../../../shared/money/money';
import { TransferType } from '../../../shared/money/transfer-quote';
import { PageFrame } from '../../components/page-frame';
import { useAccountBalance } from '../../features/account/account-balance';
import { TransferDrawer } from '../../features/money/wallet/transfer-drawer';
import { useWalletBalances } from '../../features/money/wallet/use-wallet-balances';
import { WalletRecords } from '../../features/money/wallet/wallet-records';
import { useBrandFormat } from '../../format/use-brand-format';
import '../../styles/money.css';

type Tab = 'my_wallet' | 'wallet_record';

/**
 * `/user/myWallet`: total assets in USD (the currency wallets and the trading account, shown beneath, added up), a row per
 * currency with its transfer-in and transfer-out drawers (8 s refresh while this tab is shown and the page visible), and
 * the record tab.
 */
export function MyWalletPage() {
  useSignals();
  const { t } = useTranslation();
  const format = useBrandFormat();
  const [tab, setTab] = useState<Tab>('my_wallet');
  // The spec's drawer type: closed, or a currency with the direction.
  const [drawer, setDrawer] = useState<{ item: WalletBalanceItem; type: TransferType } | null>(null);
  // The 8 s refresh runs on the my_wallet tab only (the spec: "while the tab is visible").
  const { data, reload } = useWalletBalances({ refreshing: tab === 'my_wallet' });
  const trading = useAccountBalance();

  return (
    <PageFrame title={t('page.my_wallet')} fill={tab === 'wallet_record'}>
      <div className="type-tabs" role="tablist" aria-label={t('page.my_wallet')}>
        {(['my_wallet', 'wallet_record'] as const).map((name) => (
          <button key={name} type="button" role="tab" aria-selected={tab === name} className="type-tab" onClick={() => setTab(name)}>
            {t(`wallet.${name}`)}
          </button>
        ))}
      </div>
      {tab === 'wallet_record' ? (
        <WalletRecords />
      ) : (
        <>
          <section className="user-hub-balances" aria-label={t('wallet.total_assets')}>
            <dl className="balance-lines numeric">
              <div>
                <dt>{t('wallet.total_assets')}</dt>
                <dd data-testid="wallet-total">{data && trading ? `${format.amount(totalAssets(data.totalBalance, trading))} USD` : '…'}</dd>
              </div>
              <div>
                <dt>{t('wallet.wallets_total')}</dt>
                <dd data-testid="wallet-currencies-total">{data ? `${format.amount(data.totalBalance)} USD` : '…'}</dd>
              </div>
              <div>
                <dt>{t('wallet.trading_account')}</dt>
                <dd data-testid="wallet-trading-cash">
                  {trading ? `${format.amount(trading.total)} USD` : '…'}
                  {trading && money(trading.lockMargin) !== 0n ? <small className="balance-line-note">{t('wallet.trading_locked', { amount: format.amount(trading.lockMargin) })}</small> : null}
                </dd>
              </div>
            </dl>
          </section>
          <ul className="wallet-list">
            {(data?.list ?? []).map((item) => (
              <li key={item.currencyId} className="wallet-row" data-testid={`wallet-${item.currency}`}>
                <img className="wallet-icon" src={item.icon} alt="" width={32} height={32} />
                <div className="wallet-amounts">
                  <strong>{item.currency}</strong>
                  <span className="numeric" data-testid={`wallet-${item.currency}-balance`}>
                    {item.balance} {item.unit}
                  </span>
                  <span className="numeric wallet-usd">≈ {format.amount(item.usdBalance)} USD</span>
                </div>
                <div className="wallet-actions">
                  <button type="button" className="button secondary" onClick={() => setDrawer({ item, type: TransferType.in })}>
                    {t('wallet.transfer_in')}
                  </button>
                  <button type="button" className="button secondary" onClick={() => setDrawer({ item, type: TransferType.out })}>
                    {t('wallet.transfer_out')}
                  </button>
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
      {drawer ? (
        <TransferDrawer
          item={drawer.item}
          type={drawer.type}
          available={drawer.type === TransferType.in ? drawer.item.balance : (trading?.balanceAmount ?? null)}
          onClose={() => setDrawer(null)}
          onDone={reload}
        />
      ) : null}
    </PageFrame>
  );
}
