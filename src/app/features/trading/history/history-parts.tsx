import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBrandFormat } from '../../../format/use-brand-format';
import { useApp } from '../../../app-context';
import { changeTone } from '../../catalogue/price-tone';
import type { PagedListStatus } from './use-paged-list';

type Range = 'today' | 'total';

/**
 * The realized profit and loss of today or of all time, toggled. Brands that hide today's
 * figure (`showTodayWinLoss` off) show the total alone.
 */
export function ProfitLossSummary(props: { today: string | null; total: string | null }) {
  const { t } = useTranslation();
  const { config } = useApp();
  const format = useBrandFormat();
  const [range, setRange] = useState<Range>(config.showTodayWinLoss ? 'today' : 'total');
  const value = range === 'today' && config.showTodayWinLoss ? props.today : props.total;
  const shown = value === null ? null : format.amount(value);
  return (
    <div className="history-summary">
      <div className="history-summary-figure">
        <span className="history-summary-label">
          {t(range === 'today' && config.showTodayWinLoss ? 'history.profit_loss_today' : 'history.profit_loss_total')}
        </span>
        <strong className={`history-summary-amount numeric ${shown ? changeTone(shown) : ''}`} data-testid="history-pnl">
          {shown ?? '—'}
        </strong>
      </div>
      {config.showTodayWinLoss ? (
        <div className="segmented" role="group" aria-label={t('history.range')}>
          {(['today', 'total'] as const).map((each) => (
            <button key={each} type="button" aria-pressed={each === range} onClick={() => setRange(each)}>
              {t(`history.${each}`)}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}

/**
 * What a paged list says below its rows, or instead of them: loading, trying again after
 * a failure, stopped after too many (with the retry button), the end, or empty.
 */
export function PagedListFooter(props: { status: PagedListStatus; count: number; emptyText: string; endText: string; onRetry: () => void }) {
  const { t } = useTranslation();
  switch (props.status) {
    case 'loading':
      return (
        <p className="list-state history-footer" aria-busy="true">
          {t(props.count === 0 ? 'common.loading' : 'history.loading_more')}
        </p>
      );
    case 'retrying':
      return (
        <p className="list-state history-footer" role="status">
          {t('history.retrying')}
        </p>
      );
    case 'stopped':
      return (
        <div className="list-state history-footer" role="alert">
          <span>{t('history.load_failed')}</span>
          <button type="button" className="button secondary" onClick={props.onRetry}>
            {t('common.retry')}
          </button>
        </div>
      );
    case 'end':
      return <p className="list-state history-footer">{props.count === 0 ? props.emptyText : props.endText}</p>;
    case 'idle':
      return null;
  }
}
