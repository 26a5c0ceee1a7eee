import { OrderStatus } from './order-rules';

/**
 * The history's filters (specification: all, unsettled, deal, canceled, exception), mapped
 * onto what an order records — its status and, once ended, why (`closeReason`):
 * - all: every status;
 * - unsettled: still running, pending (1) or an open position (2);
 * - deal: closed (3);
 * - canceled: canceled (4);
 * - exception: ended by the system rather than the trader, whatever the status it ended in —
 *   stop-out and negative-balance protection ('stop_out'), a pending order that could not
 *   be filled for want of balance ('insufficient-balance'), the demo account's reset
 *   ('demo-reset'). Stop loss and take profit are the trader's own orders, so not exceptions.
 */
export const historyFilters = ['all', 'unsettled', 'deal', 'canceled', 'exception'] as const;
export type HistoryFilter = (typeof historyFilters)[number];

/** The close reasons of orders the system ended on the trader's behalf. */
export const systemCloseReasons = ['stop_out', 'insufficient-balance', 'demo-reset'] as const;

const everyStatus = [OrderStatus.pending, OrderStatus.position, OrderStatus.deal, OrderStatus.canceled] as const;

export interface HistorySelection {
  /** The statuses an order may have. */
  statuses: readonly number[];
  /** When set, only orders ended for one of these reasons. */
  closeReasons?: readonly string[];
}

/** Which orders a filter shows. */
export function historySelectionOf(filter: HistoryFilter): HistorySelection {
  switch (filter) {
    case 'all':
      return { statuses: everyStatus };
    case 'unsettled':
      return { statuses: [OrderStatus.pending, OrderStatus.position] };
    case 'deal':
      return { statuses: [OrderStatus.deal] };
    case 'canceled':
      return { statuses: [OrderStatus.canceled] };
    case 'exception':
      return { statuses: [OrderStatus.deal, OrderStatus.canceled], closeReasons: systemCloseReasons };
  }
}

/** Whether an order belongs under a filter (the same rule the server's query applies). */
export function isInHistoryFilter(filter: HistoryFilter, order: { status: number; closeReason: string | null }): boolean {
  const selection = historySelectionOf(filter);
  if (!selection.statuses.includes(order.status)) return false;
  return selection.closeReasons === undefined || (order.closeReason !== null && selection.closeReasons.includes(order.closeReason));
}
