import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { optionOrderByUid, OptionStatus, type OptionOrder } from '../../../../shared/api/options';
import type { TradeOrder } from '../../../../shared/api/trading';
import type { TradeMode } from '../../../../shared/config/trade-mode';
import { useApp } from '../../../app-context';
import { Dialog } from '../../../components/dialog';
import { sessionSignal } from '../../../engine/signals';
import { useIsDesktop } from '../../../layouts/use-viewport';
import { HistoryGrid } from '../../trading/history/history-grid';
import { HistoryList } from '../../trading/history/history-list';
import { HistoryDetails } from '../../trading/history/history-parts';
import { findTransactionOrder, historyStatuses, transactionOrdersOf, type HistoryStatus } from '../../trading/history/market-history';
import { transactionOptionsOf } from '../../trading/history/option-history';
import type { OptionStatusTab } from '../../trading/options/option-status-tabs';
import { useTradeMode } from '../../trading/trade-mode';
import type { TransactionQuery } from './transaction-query';
import '../../../styles/money.css';

/** The item whose details show, with the list it belongs to. */
type Selected = { mode: 'market'; item: TradeOrder } | { mode: 'option'; item: OptionOrder };

/** A market status filter: every order, or one status (1 to 4). */
type MarketFilter = HistoryStatus | 'all';

/** Kinds made once per filter, so that a list keeps its pages while it shows. */
const marketKinds = new Map<MarketFilter, ReturnType<typeof transactionOrdersOf>>([
  ['all', transactionOrdersOf(null)],
  ...historyStatuses.map((status) => [status, transactionOrdersOf(status)] as const),
]);
const optionKinds = new Map<OptionStatusTab, ReturnType<typeof transactionOptionsOf>>([
  [OptionStatus.running, transactionOptionsOf(OptionStatus.running)],
  [OptionStatus.settled, transactionOptionsOf(OptionStatus.settled)],
]);

function marketKindOf(filter: MarketFilter) {
  const kind = marketKinds.get(filter);
  if (!kind) throw new Error(`no transaction list for ${String(filter)}`);
  return kind;
}

function optionKindOf(status: OptionStatusTab) {
  const kind = optionKinds.get(status);
  if (!kind) throw new Error(`no option list for ${String(status)}`);
  return kind;
}

/**
 * The transaction list (`/user/wallet/transactionList`): the book's market orders (`order/list`,
 * all or one status) or its options (`option/orderList`, running or settled), for the trade
 * mode in force or the one chosen here; pages of 10 loaded as the end comes into view; an
 * item's details in a sheet on phones and a panel beside the list on desktop. `?uid=` opens
 * a market order's details at once, `?optionUID=` an option's; an id the account does not
 * have says so.
 */
export function TransactionList(props: { query: TransactionQuery; onQueryDone: () => void }) {
  useSignals();
  const { t } = useTranslation();
  const { http } = useApp();
  const isDesktop = useIsDesktop();
  const trade = useTradeMode();
  const session = sessionSignal.value;
  const { query, onQueryDone } = props;
  const [mode, setMode] = useState<TradeMode>(query === null ? trade.mode : 'option' in query ? 'option' : 'market');
  const [marketFilter, setMarketFilter] = useState<MarketFilter>('all');
  const [optionStatus, setOptionStatus] = useState<OptionStatusTab>(OptionStatus.settled);
  const [selected, setSelected] = useState<Selected | null>(null);
  const [lookup, setLookup] = useState<'loading' | 'missing' | null>(query === null ? null : 'loading');

  // The detail the address asks for is looked up by its id, whether or not its page is loaded.
  const queryKey = query === null ? '' : 'option' in query ? `option:${query.option}` : `market:${query.market}`;
  useEffect(() => {
    if (query === null) return;
    let stopped = false;
    const found: Promise<Selected | null> =
      'option' in query
        ? http.call(optionOrderByUid, { uid: query.option }, { silent: true }).then((item) => ({ mode: 'option' as const, item }))
        : findTransactionOrder(http, session, query.market).then((item) => (item === null ? null : { mode: 'market' as const, item }));
    found
      .catch(() => null)
      .then((answer) => {
        if (stopped) return;
        setSelected(answer);
        setLookup(answer === null ? 'missing' : null);
      });
    return () => {
      stopped = true;
    };
    // Looked up again only when the id asked for (or the account) changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [http, queryKey, session.book, session.uid]);

  function closeDetails() {
    setSelected(null);
    setLookup(null);
    if (query !== null) onQueryDone();
  }

  function chooseMode(next: TradeMode) {
    setMode(next);
    setSelected(null);
  }

  const marketKind = marketKindOf(marketFilter);
  const optionKind = optionKindOf(optionStatus);
  const openMarket = useMemo(() => (item: TradeOrder) => setSelected({ mode: 'market', item }), []);
  const openOption = useMemo(() => (item: OptionOrder) => setSelected({ mode: 'option', item }), []);
  const accountKey = `${session.uid ?? ''}:${session.book}`;

  const list =
    mode === 'market' ? (
      isDesktop ? (
        <HistoryGrid key={`${accountKey}:market:${marketFilter}`} kind={marketKind} onOpen={openMarket} />
      ) : (
        <HistoryList key={`${accountKey}:market:${marketFilter}`} kind={marketKind} onOpen={openMarket} />
      )
    ) : isDesktop ? (
      <HistoryGrid key={`${accountKey}:option:${optionStatus}`} kind={optionKind} onOpen={openOption} />
    ) : (
      <HistoryList key={`${accountKey}:option:${optionStatus}`} kind={optionKind} onOpen={openOption} />
    );

  const details =
    selected === null ? null : selected.mode === 'market' ? (
      <HistoryDetails kind={marketKindOf('all')} item={selected.item} />
    ) : (
      <HistoryDetails kind={optionKind} item={selected.item} />
    );
  const detailTitle = selected === null ? t('transactions.detail') : `${selected.item.productName} · ${t('position.details')}`;
  const lookupText = lookup === 'loading' ? t('common.loading') : lookup === 'missing' ? t('transactions.not_found') : null;

  const controls = (
    <div className="transaction-controls" role="group" aria-label={t('history.filters')}>
      {trade.modes.length > 1 ? (
        <div className="segmented" role="group" aria-label={t('mode.trade_mode')}>
          {trade.modes.map((candidate) => (
            <button key={candidate} type="button" aria-pressed={candidate === mode} onClick={() => chooseMode(candidate)}>
              {t(`mode.${candidate}`)}
            </button>
          ))}
        </div>
      ) : null}
      {mode === 'market' ? (
        <select aria-label={t('transactions.status_filter')} value={String(marketFilter)} onChange={(event) => setMarketFilter(event.target.value === 'all' ? 'all' : (Number(event.target.value) as HistoryStatus))}>
          <option value="all">{t('transactions.status_all')}</option>
          {historyStatuses.map((status) => (
            <option key={status} value={String(status)}>
              {t(`history.status_${status}`)}
            </option>
          ))}
        </select>
      ) : (
        <select aria-label={t('transactions.status_filter')} value={String(optionStatus)} onChange={(event) => setOptionStatus(Number(event.target.value) as OptionStatusTab)}>
          <option value={String(OptionStatus.running)}>{t('option.unsettled')}</option>
          <option value={String(OptionStatus.settled)}>{t('option.settled')}</option>
        </select>
      )}
    </div>
  );

  if (isDesktop) {
    return (
      <div className="transaction-list transaction-list-desktop">
        <div className="transaction-list-main">
          {controls}
          {list}
        </div>
        <aside className="transaction-panel" aria-label={t('transactions.detail')}>
          {details ? (
            <>
              <div className="transaction-panel-head">
                <h2>{detailTitle}</h2>
                <button type="button" className="link-button" onClick={closeDetails}>
                  {t('common.close')}
                </button>
              </div>
              {details}
            </>
          ) : (
            <p className="list-state">{lookupText ?? t('transactions.pick')}</p>
          )}
        </aside>
      </div>
    );
  }
  return (
    <div className="transaction-list">
      {controls}
      {list}
      {details ? (
        <Dialog title={detailTitle} onClose={closeDetails}>
          {details}
        </Dialog>
      ) : lookupText ? (
        <Dialog title={t('transactions.detail')} onClose={closeDetails}>
          <p className="list-state">{lookupText}</p>
        </Dialog>
      ) : null}
    </div>
  );
}
