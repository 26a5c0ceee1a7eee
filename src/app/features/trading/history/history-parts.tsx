import { useSignals } from '@preact/signals-react/runtime';
import { memo, useCallback, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useBrandFormat } from '../../../format/use-brand-format';
import { useApp } from '../../../app-context';
import { DetailList } from '../../../components/detail-list';
import { Dialog } from '../../../components/dialog';
import type { GridColumn } from '../../../components/virtual-grid';
import { StatusBadge } from '../../../components/status-badge';
import { changeTone } from '../../catalogue/price-tone';
import { historyDirection, historyKey, historyRowLabel, type HistoryItem, type HistoryKind, type HistoryLook, type HistoryResult } from './history-kind';
import type { PagedListStatus, PageOf } from './use-paged-list';

/** The specification's mobile height of the history drawer, in px. */
const historyDrawerHeightPx = 362;

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

/** How the views word and format an item. */
export function useHistoryLook(): HistoryLook {
  const { t } = useTranslation();
  const format = useBrandFormat();
  return { t, format };
}

/** An item in the phone list: product, direction and detail, start → end price; its result and end time. */
function HistoryRowView<Item extends HistoryItem>(props: { kind: HistoryKind<Item, PageOf<Item>>; item: Item; onOpen: (item: Item) => void }) {
  // Tracks the catalogue its prices' digits come from: a row drawn before it arrived is drawn again.
  useSignals();
  const look = useHistoryLook();
  const { kind, item } = props;
  const parts = kind.rowOf(item, look);
  const direction = historyDirection(kind, item, look.t);
  const result = kind.resultOf(item, look);
  const status = kind.statusOf(item, look);
  return (
    <button type="button" className="history-row-button" onClick={() => props.onOpen(item)} aria-label={historyRowLabel(item)}>
      <span className="history-row-main">
        <span className="order-name">
          <strong>{item.productName}</strong>
          <span className={`order-direction ${direction.up ? 'up' : 'down'}`}>{direction.text}</span>
          <span className="numeric">{parts.detail}</span>
          <StatusBadge text={status.text} tone={status.tone} />
        </span>
        <span className="history-row-prices numeric">{parts.prices}</span>
      </span>
      <span className="history-row-side">
        <span className={`order-pnl numeric ${result.tone}`} data-testid={result.testId}>
          <ResultParts result={result} />
        </span>
        <span className="history-row-time numeric">{parts.time}</span>
      </span>
    </button>
  );
}

/** Rows are drawn again only when their item changes. */
export const HistoryRow = memo(HistoryRowView) as typeof HistoryRowView;

/** A result's words (when it has them) above its figure. */
function ResultParts(props: { result: HistoryResult }) {
  const { note, text } = props.result;
  return (
    <>
      {note ? <span className="history-result-note">{note}</span> : null}
      {text ? <span className="history-result-figure">{text}</span> : null}
    </>
  );
}

/** An item's result in the desktop grid, toned by the amount shown. */
export function HistoryResultText(props: { result: HistoryResult }) {
  return (
    <span className={`history-result ${props.result.tone}`} data-testid={props.result.testId}>
      <ResultParts result={props.result} />
    </span>
  );
}

/** An item's status in the desktop grid. */
export function HistoryStatusCell<Item extends HistoryItem>(props: { kind: Pick<HistoryKind<Item, PageOf<Item>>, 'statusOf'>; item: Item; look: HistoryLook }) {
  const status = props.kind.statusOf(props.item, props.look);
  return <StatusBadge text={status.text} tone={status.tone} />;
}

/** The desktop columns of a kind: product (pinned), id and direction first, then the kind's own, its result last (pinned). */
export function historyColumns<Item extends HistoryItem>(kind: HistoryKind<Item, PageOf<Item>>, look: HistoryLook): GridColumn<Item>[] {
  const { t } = look;
  return [
    { key: 'symbol', label: t('history.symbol'), width: 'minmax(70px, 1.2fr)', pin: 'start', cell: (item) => <strong>{item.productName}</strong> },
    { key: 'uid', label: t('position.order_id'), width: kind.leadingWidths.uid, numeric: true, hidePriority: 1, cell: (item) => item.uid },
    {
      key: 'direction',
      label: t('position.direction'),
      width: kind.leadingWidths.direction,
      cell: (item) => {
        const direction = historyDirection(kind, item, t);
        return <span className={direction.up ? 'up' : 'down'}>{direction.text}</span>;
      },
    },
    ...kind.columns(look),
  ];
}

/** The status column a grid of mixed statuses shows (the transaction list), in words and colour. */
export function historyStatusColumn<Item extends HistoryItem>(kind: Pick<HistoryKind<Item, PageOf<Item>>, 'statusOf'>, look: HistoryLook): GridColumn<Item> {
  return { key: 'status', label: look.t('transactions.status_filter'), width: 'minmax(72px, 0.6fr)', cell: (item) => <HistoryStatusCell kind={kind} item={item} look={look} /> };
}

/** Every field of an item for its details: id and direction, then the kind's own. */
export function HistoryDetails<Item extends HistoryItem>(props: { kind: HistoryKind<Item, PageOf<Item>>; item: Item }) {
  const look = useHistoryLook();
  const { kind, item } = props;
  const direction = historyDirection(kind, item, look.t);
  const rows = [
    { label: look.t('position.order_id'), value: item.uid },
    { label: look.t('position.direction'), value: direction.text, tone: direction.up ? 'up' : 'down' },
    { label: look.t('transactions.status_filter'), value: <HistoryStatusCell kind={kind} item={item} look={look} /> },
    ...kind.detailsOf(item, look),
  ];
  return <DetailList rows={rows} className="history-details" />;
}

/**
 * Which item's details drawer is open. Looked up in the list, so the drawer closes when the
 * list starts over for another account.
 */
export function useHistoryDrawer<Item extends HistoryItem>(kind: HistoryKind<Item, PageOf<Item>>, items: readonly Item[]): { openItem: (item: Item) => void; drawer: ReactNode } {
  const { t } = useTranslation();
  const [openKey, setOpenKey] = useState<string | null>(null);
  const openItem = useCallback((item: Item) => setOpenKey(historyKey(item)), []);
  const open = openKey === null ? undefined : items.find((item) => historyKey(item) === openKey);
  if (open === undefined) return { openItem, drawer: null };
  const drawer = (
    <Dialog title={`${open.productName} · ${t('position.details')}`} onClose={() => setOpenKey(null)} heightPx={historyDrawerHeightPx}>
      <HistoryDetails kind={kind} item={open} />
    </Dialog>
  );
  return { openItem, drawer };
}
