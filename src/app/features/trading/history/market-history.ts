import { orderHistory, orderHistoryMock, type TradeOrder } from '../../../../shared/api/trading';
import { OrderStatus } from '../../../../shared/trading/order-rules';
import { useApp } from '../../../app-context';
import { sessionSignal } from '../../../engine/signals';
import { useTranslation } from 'react-i18next';
import type { HistorySource } from './history-list';
import { usePagedList, type PageOf } from './use-paged-list';
import { isDemoSession, sessionAccount } from '../../../../shared/protocol/engine';

/** The specification's page size for history lists. */
export const historyPageSize = 10;
/** Loading stops for good after more than this many failed loads in a row (the retry button resets it). */
export const historyFailureCap = 5;
/** A failed load is tried again after this many ms per failure so far, up to the ceiling. */
const retryDelayStepMs = 500;
const retryDelayMaxMs = 3_000;

/** A page of closed market orders with the account's realized profit and loss. */
export interface MarketHistoryPage extends PageOf<TradeOrder> {
  profitLossToday: string;
  profitLossTotal: string;
}

/**
 * Closed market orders of the signed-in account, page by page: `order/history` for a real
 * session, `order/historyMock` for a demo one. A new list starts from page 1 when the
 * account (user or real/demo mode) changes; a token refresh keeps the list.
 * The caller's component must track signals (`useSignals`).
 */
export function useMarketHistory() {
  const { http } = useApp();
  const session = sessionSignal.value;
  const demo = isDemoSession(session);
  return usePagedList<TradeOrder, MarketHistoryPage>({
    resetKey: sessionAccount(session) ?? '',
    fetchPage: async (page, signal) => {
      // Failures are told in the list (retrying, then stopped with a retry button), not as toasts.
      const data = await http.call(
        demo ? orderHistoryMock : orderHistory,
        { page, limit: historyPageSize, positionStatus: OrderStatus.deal, columns: 'closingTime' },
        { silent: true, signal },
      );
      return { items: data.list, pages: data.pages, profitLossToday: data.profitLossToday, profitLossTotal: data.profitLossTotal };
    },
    keyOf: orderKey,
    failureCap: historyFailureCap,
    retryDelayMs: (failures) => Math.min(retryDelayStepMs * failures, retryDelayMaxMs),
  });
}

function orderKey(order: TradeOrder): string {
  return order.uid;
}

/** Closed market orders as the history list and grid show them. */
export function useMarketHistorySource(): HistorySource<TradeOrder, MarketHistoryPage> {
  const { t } = useTranslation();
  const paged = useMarketHistory();
  return {
    paged,
    today: paged.state.lastPage?.profitLossToday ?? null,
    total: paged.state.lastPage?.profitLossTotal ?? null,
    label: t('history.closed_orders'),
    emptyText: t('history.empty'),
    endText: t('history.end'),
    keyOf: orderKey,
  };
}
