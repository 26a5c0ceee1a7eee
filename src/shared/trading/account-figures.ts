import { money, type Units } from '../money/money';
import { accountEquity, belowStopOut, lockedMargin, marginLevelPercent, type Holding } from './account-risk';

/** The trading account's currency: every balance, margin and profit is kept in it. */
export const accountCurrency = 'USD';

/** What an order of the positions feed contributes to the account's figures (its `tradeOrder` fields). */
export interface HeldOrder {
  status: number;
  /** The margin it locked. */
  securityDepositInitial: string;
  /** A position's open profit (negative: loss); a pending order's expected one, which does not count. */
  profitLoss: string | null;
}

/**
 * The account strip's numbers, in exact units. Balance is the cash with the orders' margin
 * (what the equity would be with every position flat); equity adds the open positions'
 * profit and loss; free margin is equity less the margin used; the margin level is
 * equity ÷ used margin (null without margin: shown as "—"). The same formulas as stop-out
 * (`account-risk.ts`), so that the warning the strip shows and the close the server makes
 * agree.
 */
export interface AccountFigures {
  balance: Units;
  equity: Units;
  usedMargin: Units;
  freeMargin: Units;
  marginLevelPercent: Units | null;
  openProfitLoss: Units;
}

/** The account's figures from its cash (the balance push's `balanceAmount`) and its open positions and pending orders. */
export function accountFigures(cash: string, orders: readonly HeldOrder[]): AccountFigures {
  const cashUnits = money(cash);
  const holdings: Holding[] = orders.map((order) => ({
    status: order.status,
    margin: money(order.securityDepositInitial),
    profitLoss: order.profitLoss === null ? null : money(order.profitLoss),
  }));
  const equity = accountEquity(cashUnits, holdings);
  const usedMargin = lockedMargin(holdings);
  return {
    balance: cashUnits + usedMargin,
    equity,
    usedMargin,
    freeMargin: equity - usedMargin,
    marginLevelPercent: marginLevelPercent(equity, usedMargin),
    openProfitLoss: equity - cashUnits - usedMargin,
  };
}

/**
 * Margin call: the margin level is below `levelPercent` (the brand's `marginCallLevelPercent`);
 * an account without margin is never called. Stop-out's own comparison, at the brand's higher level.
 */
export function belowMarginCall(figures: Pick<AccountFigures, 'equity' | 'usedMargin'>, levelPercent: number): boolean {
  return belowStopOut(figures.equity, figures.usedMargin, levelPercent);
}

/**
 * Whether a margin call is newly crossed: true only on the step from not called (or not yet
 * known) to called, so that the notice shows once per crossing and not at every price move.
 */
export function marginCallCrossed(wasCalled: boolean | null, isCalled: boolean): boolean {
  return isCalled && wasCalled !== true;
}
