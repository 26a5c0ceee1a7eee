import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fundRecords, type FundRecord } from '../../../../shared/api/deposit';
import { withdrawCancel } from '../../../../shared/api/withdraw';
import { fundRecordsPageSize, PayState } from '../../../../shared/money/deposit-rules';
import { useApp } from '../../../app-context';
import { DetailList } from '../../../components/detail-list';
import { confirmDialog } from '../../../components/confirm';
import { Dialog } from '../../../components/dialog';
import { showToast } from '../../../components/toasts';
import { VirtualList } from '../../../components/virtual-list';
import { useBrandFormat } from '../../../format/use-brand-format';
import { useIsDesktop } from '../../../layouts/use-viewport';
import { listFailureCap, listRetryDelayMs, usePagedList } from '../../trading/history/use-paged-list';
import '../../../styles/money.css';

type TypeFilter = 'all' | 0 | 1;
type StatusFilter = 'all' | 0 | 1 | 2;

const typeOptions: readonly TypeFilter[] = ['all', 0, 1];
const statusOptions: readonly StatusFilter[] = ['all', PayState.waiting, PayState.success, PayState.fail];
const stateTone: Record<FundRecord['payState'], string> = { 0: 'state-waiting', 1: 'up', 2: 'down' };
/** A record's row before it is measured (a failed one adds its reason, which may wrap). */
const recordRowEstimatePx = 66;

/** A record's state as the customer reads it: a withdrawal they canceled says so rather than "Fail". */
export function fundRecordStateKey(record: FundRecord): string {
  return record.canceled ? 'deposit.status_canceled' : `deposit.status_${record.payState}`;
}

/** The withdrawal's number in `withdraw/cancel` from the record's id (`withdraw:7`); null for a deposit or another shape. */
export function cancelableWithdrawalId(record: FundRecord): number | null {
  if (record.actionType !== 1 || record.payState !== PayState.waiting || record.canceled) return null;
  const match = /^withdraw:(\d+)$/.exec(record.id);
  return match ? Number(match[1]) : null;
}

/** A record after its withdrawal was canceled, as the records list would read it again. */
function canceledRecord(record: FundRecord, atMs: number): FundRecord {
  return { ...record, payState: PayState.fail, canceled: true, decidedTimeTs: atMs };
}

/**
 * A pending withdrawal's cancel: asked first, then `withdraw/cancel`; the record reads
 * canceled at once. A refusal (staff decided it meanwhile) is told by the request client
 * and changes nothing here.
 */
function CancelWithdrawal(props: { record: FundRecord; withdrawalId: number; onCanceled: (record: FundRecord) => void }) {
  const { t } = useTranslation();
  const { http } = useApp();
  const [busy, setBusy] = useState(false);
  async function cancel() {
    const confirmed = await confirmDialog({
      title: t('deposit.cancel_withdrawal_title'),
      message: t('deposit.cancel_withdrawal_message', { amount: props.record.payPrice, currency: props.record.currency }),
      confirmLabel: t('deposit.cancel_withdrawal'),
      cancelLabel: t('deposit.keep_withdrawal'),
    });
    if (!confirmed) return;
    setBusy(true);
    try {
      await http.call(withdrawCancel, { id: props.withdrawalId });
      showToast('success', t('deposit.withdrawal_canceled'));
      props.onCanceled(canceledRecord(props.record, Date.now()));
    } catch {
      // Told by the request client.
    } finally {
      setBusy(false);
    }
  }
  return (
    <button type="button" className="button danger block" disabled={busy} onClick={() => void cancel()}>
      {t('deposit.cancel_withdrawal')}
    </button>
  );
}

function RecordDetails(props: { record: FundRecord; onCanceled: (record: FundRecord) => void }) {
  const { t } = useTranslation();
  const format = useBrandFormat();
  const { record } = props;
  const withdrawalId = cancelableWithdrawalId(record);
  return (
    <>
      <DetailList
        rows={[
          { label: t('deposit.records_type'), value: t(record.actionType === 0 ? 'deposit.records_type_deposit' : 'deposit.records_type_withdraw') },
          { label: t('deposit.records_amount'), value: `${record.payPrice} ${record.currency}` },
          { label: t('deposit.network'), value: record.network },
          ...(record.actionType === 1
            ? [
                { label: t('deposit.records_destination'), value: record.destination },
                { label: t('deposit.records_fee'), value: record.fee === null ? null : `${record.fee} ${record.currency}` },
                { label: t('deposit.records_practical'), value: record.practical === null ? null : `${record.practical} ${record.currency}` },
              ]
            : []),
          { label: t('deposit.amount_usd'), value: format.amount(record.depositUsdPrice ?? record.withdrawUsdPrice ?? '0') },
          { label: t('deposit.records_status'), value: t(fundRecordStateKey(record)), tone: stateTone[record.payState] },
          { label: t('deposit.submit_time'), value: format.time(record.submitTimeTs) },
          { label: t('deposit.decided_time'), value: format.time(record.decidedTimeTs) },
          ...(record.payState === PayState.fail && !record.canceled ? [{ label: t('deposit.fail_reason'), value: record.failReason }] : []),
        ]}
      />
      {withdrawalId !== null ? <CancelWithdrawal record={record} withdrawalId={withdrawalId} onCanceled={props.onCanceled} /> : null}
    </>
  );
}

/**
 * The deposit and withdrawal records (`fund/records`): type and status filters, pages of 10
 * loaded as the list's end scrolls into view, and a record's details in a sheet on phones or
 * a panel beside the list on desktop (a withdrawal's with its masked destination, fee and
 * amount received). A failed record shows its reason; a canceled withdrawal reads canceled;
 * a pending withdrawal's details offer to cancel it.
 */
export function FundRecords() {
  const { t } = useTranslation();
  const { http } = useApp();
  const format = useBrandFormat();
  const isDesktop = useIsDesktop();
  const [type, setType] = useState<TypeFilter>('all');
  const [status, setStatus] = useState<StatusFilter>('all');
  const [selected, setSelected] = useState<FundRecord | null>(null);
  // Records canceled here since they loaded, shown as canceled without reloading the pages.
  const [canceled, setCanceled] = useState<ReadonlyMap<string, FundRecord>>(new Map());
  // A filter change starts a new list from page 1 (answers for the old filters are dropped); a
  // failed page is tried again, and loading stops after more than 5 failures in a row (spec §4 "Paging").
  const { state, list: pages } = usePagedList<FundRecord, { items: FundRecord[]; pages: number }>({
    resetKey: `${type}:${status}`,
    fetchPage: async (page, signal) => {
      const answer = await http.call(
        fundRecords,
        { pageNum: page, pageSize: fundRecordsPageSize, ...(type === 'all' ? {} : { type }), ...(status === 'all' ? {} : { status }) },
        { silent: true, signal },
      );
      return { items: answer.list, pages: answer.pages };
    },
    keyOf: (record) => record.id,
    failureCap: listFailureCap,
    retryDelayMs: listRetryDelayMs,
  });
  const records = state.items.map((record) => canceled.get(record.id) ?? record);
  const done = state.status === 'end';

  function changeFilters(next: { type: TypeFilter; status: StatusFilter }) {
    setType(next.type);
    setStatus(next.status);
    setSelected(null);
  }

  function showCanceled(record: FundRecord) {
    setCanceled((shown) => new Map(shown).set(record.id, record));
    setSelected((current) => (current?.id === record.id ? record : current));
  }

  const list = (
    <div className="fund-records-list">
      <div className="fund-records-filters" role="group">
        <select aria-label={t('deposit.records_type_all')} value={String(type)} onChange={(event) => changeFilters({ type: event.target.value === 'all' ? 'all' : (Number(event.target.value) as 0 | 1), status })}>
          {typeOptions.map((option) => (
            <option key={option} value={String(option)}>
              {t(option === 'all' ? 'deposit.records_type_all' : option === 0 ? 'deposit.records_type_deposit' : 'deposit.records_type_withdraw')}
            </option>
          ))}
        </select>
        <select
          aria-label={t('deposit.records_status_all')}
          value={String(status)}
          onChange={(event) => changeFilters({ type, status: event.target.value === 'all' ? 'all' : (Number(event.target.value) as 0 | 1 | 2) })}
        >
          {statusOptions.map((option) => (
            <option key={option} value={String(option)}>
              {t(option === 'all' ? 'deposit.records_status_all' : `deposit.status_${option}`)}
            </option>
          ))}
        </select>
      </div>
      <VirtualList
        label={t('page.deposit_list')}
        items={records}
        itemKey={(record) => String(record.id)}
        sizing={{ estimatePx: recordRowEstimatePx }}
        scrollerClassName="fund-records-scroller"
        listClassName="fund-records"
        testId="fund-records"
        onEndReached={pages.loadMore}
        endCheckKey={state.status}
        renderRow={({ item: record, key, props }) => (
          <li key={key} {...props}>
            <button type="button" className={`fund-record${selected?.id === record.id ? ' selected' : ''}`} onClick={() => setSelected(record)} data-testid="fund-record">
              <span className="fund-record-what">
                <strong data-testid="fund-record-type">{t(record.actionType === 0 ? 'deposit.records_type_deposit' : 'deposit.records_type_withdraw')}</strong>
                <span>{format.listTime(record.submitTimeTs)}</span>
              </span>
              <span className="fund-record-amount numeric">
                <strong>
                  {record.payPrice} {record.currency}
                </strong>
                <span className={stateTone[record.payState]} data-testid="fund-record-state">
                  {t(fundRecordStateKey(record))}
                </span>
              </span>
              {record.payState === PayState.fail && record.failReason ? (
                <span className="fund-record-reason">
                  {t('deposit.fail_reason')}: {record.failReason}
                </span>
              ) : null}
            </button>
          </li>
        )}
        footer={
          <p className="list-end" data-testid="fund-records-status">
            {state.status === 'loading' ? t('common.loading') : null}
            {state.status === 'retrying' ? t('wallet.records_retrying') : null}
            {state.status === 'stopped' ? (
              <button type="button" className="link-button" onClick={() => pages.retry()}>
                {t('common.retry')}
              </button>
            ) : null}
            {done ? t(records.length === 0 ? 'deposit.no_records' : 'deposit.end') : null}
          </p>
        }
      />
    </div>
  );

  if (isDesktop) {
    return (
      <div className="fund-records-desktop">
        {list}
        <aside className="fund-record-panel" aria-label={t('deposit.detail')}>
          {selected ? <RecordDetails record={selected} onCanceled={showCanceled} /> : null}
        </aside>
      </div>
    );
  }
  return (
    <>
      {list}
      {selected ? (
        <Dialog title={t('deposit.detail')} onClose={() => setSelected(null)}>
          <RecordDetails record={selected} onCanceled={showCanceled} />
        </Dialog>
      ) : null}
    </>
  );
}
