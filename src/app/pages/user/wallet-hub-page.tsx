import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { orderList, type TradeOrder } from '../../../shared/api/trading';
import { fundRecords, type FundRecord } from '../../../shared/api/deposit';
import { isDemoSession } from '../../../shared/protocol/engine';
import { switchesSignal, useApp } from '../../app-context';
import { PageFrame } from '../../components/page-frame';
import { sessionSignal } from '../../engine/signals';
import { fundRecordStateKey } from '../../features/money/records/fund-records';
import { ResetDemoButton } from '../../features/trading/positions/position-parts';
import { useBrandFormat } from '../../format/use-brand-format';
import { walletHubShortcuts } from '../../features/account/account-entries';
import { hasScreen } from '../../routing/routes';
import '../../styles/money.css';

/** The spec: the hub shows the 5 latest entries per list. */
const latestCount = 5;

/** One of the hub's lists of latest entries: its title with a link to the whole list, then the entries (loading, none, or each). */
function LatestSection(props: { title: string; allHref: string; allLabel: string; testId: string; items: readonly unknown[] | null; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <section aria-label={props.title}>
      <div className="wallet-section-head">
        <h2 className="wallet-section-title">{props.title}</h2>
        <Link href={props.allHref} className="link-button">
          {props.allLabel}
        </Link>
      </div>
      <ul className="wallet-record-list" data-testid={props.testId}>
        {props.items === null ? <li className="wallet-record-status">{t('common.loading')}</li> : null}
        {props.items?.length === 0 ? <li className="wallet-record-status">{t('common.no_data')}</li> : null}
        {props.children}
      </ul>
    </section>
  );
}

/**
 * `/user/wallet`: shortcuts to the money pages, the 5 latest trades (`order/list`) and the
 * 5 latest deposit and withdrawal records (`fund/records`: each with its state, as the
 * records page lists them). A demo account sees only the reset tile.
 */
export function WalletHubPage() {
  useSignals();
  const { t } = useTranslation();
  const { http } = useApp();
  const format = useBrandFormat();
  const session = sessionSignal.value;
  const demo = isDemoSession(session);
  const [trades, setTrades] = useState<TradeOrder[] | null>(null);
  const [funds, setFunds] = useState<FundRecord[] | null>(null);

  useEffect(() => {
    if (demo) return;
    let stopped = false;
    http
      .call(orderList, { page: 1, limit: latestCount }, { silent: true })
      .then((answer) => !stopped && setTrades(answer.list))
      .catch(() => !stopped && setTrades([]));
    http
      .call(fundRecords, { pageNum: 1, pageSize: latestCount }, { silent: true })
      .then((answer) => !stopped && setFunds(answer.list))
      .catch(() => !stopped && setFunds([]));
    return () => {
      stopped = true;
    };
  }, [http, demo, session.version]);

  // Each shows only where its route would open (flags, demo, a built screen).
  const shortcuts = walletHubShortcuts({ signedIn: true, book: session.book, switches: switchesSignal.value, hasScreen, user: null });

  if (demo) {
    return (
      <PageFrame title={t('page.wallet')}>
        <div className="wallet-tiles">
          <ResetDemoButton />
        </div>
      </PageFrame>
    );
  }

  return (
    <PageFrame title={t('page.wallet')}>
      <nav aria-label={t('wallet.shortcuts')}>
        <ul className="wallet-tiles">
          {shortcuts.map((route) => (
            <li key={route.name}>
              <Link href={route.pattern} className="wallet-tile">
                {t(route.titleKey)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <LatestSection title={t('wallet.latest_trades')} allHref="/user/wallet/transactionList" allLabel={t('wallet.see_all_trades')} testId="hub-latest-trades" items={trades}>
        {trades?.map((trade) => (
          <li key={trade.uid}>
            <Link href={`/user/wallet/transactionList?uid=${encodeURIComponent(trade.uid)}`} className="wallet-record">
              <span>{trade.productName}</span>
              <span className="numeric">
                {trade.orderQuantity} · {t(`history.status_${trade.status}`)}
              </span>
              <time className="wallet-record-time numeric">{format.listTime(trade.orderTime ?? null)}</time>
            </Link>
          </li>
        ))}
      </LatestSection>
      <LatestSection title={t('wallet.latest_funds')} allHref="/user/wallet/depositList" allLabel={t('wallet.see_all_funds')} testId="hub-latest-funds" items={funds}>
        {funds?.map((record) => (
          <li key={record.id} className="wallet-record">
            <span>{t(record.actionType === 0 ? 'deposit.records_type_deposit' : 'deposit.records_type_withdraw')}</span>
            <span className={`numeric ${record.actionType === 0 ? 'up' : 'down'}`}>
              {record.actionType === 0 ? '+' : '-'}
              {record.payPrice} {record.currency} · {t(fundRecordStateKey(record))}
            </span>
            <time className="wallet-record-time numeric">{format.listTime(record.submitTimeTs)}</time>
          </li>
        ))}
      </LatestSection>
    </PageFrame>
  );
}
