import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loanCheck, loanInsert, loanRepaymentGet, loanRepaymentInsert, type LoanDto, type RepaymentDto } from '../../../../shared/api/loan';
import { loanAmount, loanDays, loanRemarkMax, loanViewOf, owedAmountOf, RepaymentStatus, repaymentBlock, repaymentProblem, repaymentStep } from '../../../../shared/money/loan-rules';
import { newIdempotencyKey } from '../../../api/http-client';
import { useApp } from '../../../app-context';
import { showToast } from '../../../components/toasts';
import { TextField } from '../../../components/text-field';
import { useBrandFormat } from '../../../format/use-brand-format';
import { LoanSlider } from './loan-slider';
import '../../../styles/loan.css';

/** Whole dollars of an answer's exact amount ("30000.00" → 30000); amounts owed are whole hundreds. */
const wholeDollars = (value: string) => Math.floor(Number(value.split('.')[0] ?? '0'));

/**
 * `/user/loan`: the request form (amount and term sliders with their marks, the guarantor's
 * UID, a remark) while there is no loan or the last one ended or was refused; read-only with
 * a waiting button while a request is under review; the repayment view while a loan is
 * active (1, or 4 overdue, shown in red).
 */
export function LoanScreen() {
  const { t } = useTranslation();
  const { http } = useApp();
  const [loan, setLoan] = useState<LoanDto | null | undefined>(undefined);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let stopped = false;
    http
      .call(loanCheck, {})
      .then((answer) => !stopped && setLoan(answer.dto))
      .catch(() => undefined);
    return () => {
      stopped = true;
    };
  }, [http, version]);

  const reload = () => setVersion((value) => value + 1);
  const view = loanViewOf(loan === undefined ? -1 : loan === null ? null : loan.status);
  if (view === 'loading') return <p className="money-form">{t('common.loading')}</p>;
  if (view === 'repayment' && loan) return <RepaymentView loan={loan} onChanged={reload} />;
  return <LoanRequestForm loan={loan ?? null} waiting={view === 'waiting'} onSubmitted={reload} />;
}

function LoanRequestForm(props: { loan: LoanDto | null; waiting: boolean; onSubmitted: () => void }) {
  const { t } = useTranslation();
  const { http } = useApp();
  const format = useBrandFormat();
  const { loan, waiting } = props;
  const [amount, setAmount] = useState<number>(waiting && loan ? wholeDollars(loan.amount) : loanAmount.initial);
  const [days, setDays] = useState<number>(waiting && loan ? loan.days : loanDays.initial);
  const [guarantor, setGuarantor] = useState(waiting && loan ? String(loan.guarantor) : '');
  const [remark, setRemark] = useState(waiting && loan ? loan.remark : '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit() {
    if (guarantor.trim() === '') {
      setError(t('loan.p_loan_guarantor'));
      return;
    }
    setBusy(true);
    try {
      await http.call(loanInsert, { amount, days, guarantor: guarantor.trim(), remark: remark.trim() }, { idempotencyKey: newIdempotencyKey() });
      showToast('success', t('loan.submit_success_please_wait'));
      props.onSubmitted();
    } catch {
      // The request client told the user.
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className="money-form loan-screen"
      data-testid="loan-request-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (!waiting) void submit();
      }}
    >
      {loan?.status === 2 && loan.rejectReason ? <p className="loan-alert">{t('loan.rejected_before', { reason: loan.rejectReason })}</p> : null}
      <LoanSlider
        label={t('loan.amount')}
        value={amount}
        min={loanAmount.min}
        max={loanAmount.max}
        step={loanAmount.step}
        marks={loanAmount.marks}
        display={(value) => format.amount(String(value)).replace(/\.00$/, '')}
        onChange={setAmount}
        disabled={waiting}
        testId="loan-amount"
      />
      <LoanSlider
        label={t('loan.days')}
        value={days}
        min={loanDays.min}
        max={loanDays.max}
        step={loanDays.step}
        marks={loanDays.marks}
        display={(value) => t('loan.days_value', { days: value })}
        onChange={setDays}
        disabled={waiting}
        testId="loan-days"
      />
      <TextField
        label={t('loan.guarantor')}
        placeholder={t('loan.guarantor_placeholder')}
        value={guarantor}
        inputMode="numeric"
        maxLength={20}
        disabled={waiting}
        onChange={(value) => {
          setGuarantor(value);
          setError(null);
        }}
        error={error}
      />
      <TextField label={t('loan.remark')} placeholder={t('loan.remark_placeholder')} value={remark} maxLength={loanRemarkMax} disabled={waiting} onChange={setRemark} />
      <button type="submit" className="button primary" disabled={busy || waiting} data-testid="loan-submit">
        {waiting ? t('loan.waiting') : t('loan.submit')}
      </button>
    </form>
  );
}

function RepaymentView(props: { loan: LoanDto; onChanged: () => void }) {
  const { t } = useTranslation();
  const { http } = useApp();
  const format = useBrandFormat();
  const { loan } = props;
  const [records, setRecords] = useState<RepaymentDto[] | null>(null);
  const [sliding, setSliding] = useState(false);
  const [amount, setAmount] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [recordsVersion, setRecordsVersion] = useState(0);
  const [repayAfterRejection, setRepayAfterRejection] = useState(false);
  const overdue = loan.status === 4;

  useEffect(() => {
    let stopped = false;
    http
      .call(loanRepaymentGet, { loanId: loan.id, loanUid: loan.uid })
      .then((answer) => {
        if (stopped) return;
        setRecords(answer.dtoList);
        setRepayAfterRejection(answer.repayAfterRejection ?? false);
      })
      .catch(() => !stopped && setRecords([]));
    return () => {
      stopped = true;
    };
  }, [http, loan.id, loan.uid, loan.amountOwed, recordsVersion]);

  useEffect(() => {
    if (overdue) showToast('error', t('loan.overdue'));
  }, [overdue, t]);

  const list = records ?? [];
  const latest = list[0];
  const owed = owedAmountOf(loan, list);
  const owedDollars = wholeDollars(owed);
  // Only after an approved repayment or none (a waiting one is decided first; a rejected one says so, and is tried again only where the brand allows it).
  const canRepay = records !== null && repaymentBlock(list, { repayAfterRejection }) === null && owedDollars > 0;

  async function repay() {
    if (!sliding) {
      setSliding(true);
      return;
    }
    const problem = repaymentProblem(amount, owedDollars);
    if (problem === 'zero') {
      setError(t('loan.p_loan_repayment_no_zero'));
      return;
    }
    setBusy(true);
    try {
      await http.call(loanRepaymentInsert, { loanId: loan.id, loanUid: loan.uid, amount }, { idempotencyKey: newIdempotencyKey() });
      showToast('success', t('loan.submit_success_please_wait'));
      setSliding(false);
      setAmount(0);
      setRecordsVersion((value) => value + 1);
      props.onChanged();
    } catch {
      // The request client told the user.
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="money-form loan-screen" data-testid="loan-repayment-view">
      <div className="loan-summary">
        <span className="loan-summary-label">{t('loan.owed')}</span>
        <strong className="numeric" data-testid="loan-owed">
          {format.amount(owed)}
        </strong>
        <span className="loan-summary-label">
          {t('loan.loan_amount')}: <span className="numeric">{format.amount(loan.amount)}</span> · {t('loan.repayment_date')}: <span className="numeric">{format.time(loan.repaymentDate)}</span>
        </span>
      </div>
      {overdue ? <p className="loan-alert">{t('loan.overdue')}</p> : null}
      {latest?.status === RepaymentStatus.rejected ? (
        <p className="loan-alert" role="alert">
          {t('loan.p_loan_repayment_reject')}
        </p>
      ) : null}
      {sliding ? (
        <>
          <LoanSlider
            label={t('loan.repay_amount')}
            value={amount}
            min={0}
            max={owedDollars}
            step={repaymentStep}
            marks={[0, owedDollars]}
            display={(value) => format.amount(String(value))}
            onChange={(value) => {
              setAmount(value);
              setError(null);
            }}
            testId="loan-repay-amount"
          />
          {error ? (
            <p className="field-error" role="alert">
              {error}
            </p>
          ) : null}
        </>
      ) : null}
      <button type="button" className="button primary" disabled={busy || !canRepay} onClick={() => void repay()} data-testid="loan-repay">
        {sliding ? t('loan.confirm_repay') : t('loan.repay')}
      </button>
      <h2 className="loan-records-title">{t('loan.records')}</h2>
      {records !== null && list.length === 0 ? <p className="money-empty">{t('loan.no_records')}</p> : null}
      <ul className="loan-records" data-testid="loan-records">
        {list.map((record) => (
          <li key={record.id} className="loan-record">
            <strong className="numeric">{format.amount(record.amount)}</strong>
            <span className="loan-record-status" data-status={record.status}>
              {t(`loan.repayment_status_${record.status}`)}
            </span>
            <span className="loan-record-time numeric">{format.listTime(record.createTime)}</span>
            <span className="loan-record-owed">
              {t('loan.record_owed')}: <span className="numeric">{format.amount(record.amountOwed)}</span>
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
