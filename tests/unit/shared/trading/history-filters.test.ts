import { describe, expect, it } from 'vitest';
import { historyFilters, isInHistoryFilter } from '../../../../src/shared/trading/history-filters';

const pending = { status: 1, closeReason: null };
const open = { status: 2, closeReason: null };
const closedByHand = { status: 3, closeReason: 'manual' };
const stopLoss = { status: 3, closeReason: 'stop_loss' };
const stoppedOut = { status: 3, closeReason: 'stop_out' };
const canceledByHand = { status: 4, closeReason: 'canceled' };
const canceledForBalance = { status: 4, closeReason: 'insufficient-balance' };
const demoReset = { status: 3, closeReason: 'demo-reset' };
const orders = { pending, open, closedByHand, stopLoss, stoppedOut, canceledByHand, canceledForBalance, demoReset };

function shownBy(filter: (typeof historyFilters)[number]): string[] {
  return Object.entries(orders)
    .filter(([, order]) => isInHistoryFilter(filter, order))
    .map(([name]) => name);
}

describe('history filters', () => {
  it('are the five of the specification, in its order', () => {
    expect(historyFilters).toEqual(['all', 'unsettled', 'deal', 'canceled', 'exception']);
  });

  it('all shows every order; unsettled the pending ones and open positions', () => {
    expect(shownBy('all')).toEqual(Object.keys(orders));
    expect(shownBy('unsettled')).toEqual(['pending', 'open']);
  });

  it('deal shows closed orders and canceled the canceled ones, whoever ended them', () => {
    expect(shownBy('deal')).toEqual(['closedByHand', 'stopLoss', 'stoppedOut', 'demoReset']);
    expect(shownBy('canceled')).toEqual(['canceledByHand', 'canceledForBalance']);
  });

  it('exception shows only orders the system ended: stop-out, a fill without balance, the demo reset', () => {
    expect(shownBy('exception')).toEqual(['stoppedOut', 'canceledForBalance', 'demoReset']);
  });
});
