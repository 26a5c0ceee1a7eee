import type { Units } from '../../../src/shared/money/money';
import { accountEquity, belowStopOut, lockedMargin } from '../../../src/shared/trading/account-risk';
import type { Book } from '../../db/schema';
import type { MarketDataService } from '../market/market-data-service';
import type { Ledger } from '../ledger/ledger';
import type { PositionClosing } from './position-closing';
import { holdingsOf, valueOpenOrders } from './position-value';
import type { OrderRow, TradingRepository } from './trading-repository';

/**
 * Stop-out: an account whose margin level (the shared formula: equity ÷ the margin of
 * every open order, at the server's quotes; the number the feed shows) is below the
 * configured level has its worst position closed, then is looked at again, until the
 * level is restored or nothing is open.
 */
export function createStopOut(deps: {
  orders: TradingRepository;
  ledger: Ledger;
  market: MarketDataService;
  closing: PositionClosing;
  stopOutLevelPercent: number;
  fresh: (tickMs: number) => boolean;
}) {
  const { orders, ledger, market } = deps;

  /** The position to close first if the account is below the level: the largest loss with a fresh quote. */
  function worstIfBelow(open: readonly OrderRow[], cash: Units) {
    const valued = valueOpenOrders(market, open);
    const holdings = holdingsOf(valued);
    if (!belowStopOut(accountEquity(cash, holdings), lockedMargin(holdings), deps.stopOutLevelPercent)) return null;
    // Worst first: the largest loss frees the most margin per unit of harm.
    // Only positions with a fresh quote: none is closed at an old price.
    return valued.flatMap(({ row, at }) => (at === null || !deps.fresh(at.tickMs) ? [] : [{ row, at }])).sort((a, b) => (a.at.pnl < b.at.pnl ? -1 : a.at.pnl > b.at.pnl ? 1 : 0))[0] ?? null;
  }

  /** Looks at every account with open orders; answers how many positions it closed. */
  async function checkStopOuts(): Promise<number> {
    // One read of every open order and one of the cash behind them; only accounts below the level read again.
    const open = await orders.allOpen();
    const byAccount = new Map<string, OrderRow[]>();
    for (const row of open) {
      const key = `${row.uid}|${row.book}`;
      const list = byAccount.get(key);
      if (list) list.push(row);
      else byAccount.set(key, [row]);
    }
    const cashOf = new Map<string, Units>();
    for (const book of ['real', 'demo'] as const satisfies readonly Book[]) {
      const uids = [...new Set(open.filter((row) => row.book === book).map((row) => row.uid))];
      for (const [uid, cash] of await ledger.cashOf(uids, book)) cashOf.set(`${uid}|${book}`, cash);
    }
    let closed = 0;
    for (const [key, accountOrders] of byAccount) {
      let worst = worstIfBelow(accountOrders, cashOf.get(key) ?? 0n);
      while (worst) {
        if ((await deps.closing.close(worst.row, worst.at.price, worst.at.tickMs, 'stop_out', null, true)) !== 'closed') break;
        closed += 1;
        const { uid, book } = worst.row;
        worst = worstIfBelow(await orders.openOf(uid, book), await ledger.cashBalance(uid, book));
      }
    }
    return closed;
  }

  return { checkStopOuts };
}
