import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { walletRecords, type WalletRecord } from '../../../../shared/api/wallet';
import { useApp } from '../../../app-context';
import { VirtualList } from '../../../components/virtual-list';
import { useBrandFormat } from '../../../format/use-brand-format';
import { usePagedList } from '../../trading/history/use-paged-list';
import '../../../styles/money.css';

/** The spec's page size of record lists. */
export const recordsPageSize = 10;
/** The spec: after more than 5 failures in a row, infinite scroll stops. */
const failureCap = 5;

type RecordFilter = 'all' | 0 | 1 | 2;
const filters: readonly RecordFilter[] = ['all', 0, 1, 2];
/** A record's row: type and amount, the time under them. */
const recordRowHeight = 62;

/** A record's label: a deposit or a withdrawal in its own words (their type, 2, reads "order"), else its type. */
function recordLabelKey(record: WalletRecord): string {
  if (record.movement === 'deposit') return 'deposit.records_type_deposit';
  if (record.movement === 'withdrawal') return 'deposit.records_type_withdraw';
  if (record.movement === 'withdrawalReturned') return 'wallet.record_withdrawal_returned';
  return `wallet.record_type_${record.orderType}`;
}

function recordKey(record: WalletRecord): string {
  return `${record.uid}:${record.currency}:${record.orderQuantity}`;
}

/** The wallet record tab: a type filter (all, transfer in, transfer out, order) over an infinitely scrolling list. */
export function WalletRecords() {
  const { t } = useTranslation();
  const { http } = useApp();
  const format = useBrandFormat();
  const [filter, setFilter] = useState<RecordFilter>('all');
  const { state, list } = usePagedList<WalletRecord, { items: WalletRecord[]; pages: number }>({
    resetKey: String(filter),
    fetchPage: async (page, signal) => {
      const answer = await http.call(walletRecords, { page, limit: recordsPageSize, ...(filter === 'all' ? {} : { type: filter }) }, { silent: true, signal });
      return { items: answer.list, pages: answer.pages };
    },
    keyOf: recordKey,
    failureCap,
    retryDelayMs: (failures) => Math.min(8_000, 500 * 2 ** failures),
  });

  return (
    <div className="wallet-records">
      <label className="wallet-record-filter">
        <span>{t('wallet.record_type')}</span>
        <select value={String(filter)} onChange={(event) => setFilter(event.target.value === 'all' ? 'all' : (Number(event.target.value) as 0 | 1 | 2))}>
          {filters.map((value) => (
            <option key={String(value)} value={String(value)}>
              {t(`wallet.record_type_${value}`)}
            </option>
          ))}
        </select>
      </label>
      <VirtualList
        label={t('wallet.wallet_record')}
        items={state.items}
        itemKey={recordKey}
        sizing={{ estimatePx: recordRowHeight }}
        scrollerClassName="wallet-record-scroller"
        listClassName="wallet-record-list"
        testId="wallet-records"
        onEndReached={list.loadMore}
        endCheckKey={state.status}
        renderRow={({ item: record, key, props }) => (
          <li key={key} {...props} className="wallet-record">
            <span className="wallet-record-type">{t(recordLabelKey(record))}</span>
            <span className={`numeric ${record.orderQuantity.startsWith('-') ? 'down' : 'up'}`}>
              {record.orderQuantity.startsWith('-') ? '' : '+'}
              {record.orderQuantity} {record.unit}
            </span>
            <time className="wallet-record-time numeric">{format.listTime(record.orderTime)}</time>
          </li>
        )}
        footer={
          <p className="wallet-record-status">
            {state.status === 'loading' ? t('common.loading') : null}
            {state.status === 'retrying' ? t('wallet.records_retrying') : null}
            {state.status === 'stopped' ? (
              <button type="button" className="link-button" onClick={() => list.retry()}>
                {t('common.retry')}
              </button>
            ) : null}
            {state.status === 'end' ? (state.items.length === 0 ? t('wallet.no_records') : t('wallet.records_end')) : null}
          </p>
        }
      />
    </div>
  );
}
