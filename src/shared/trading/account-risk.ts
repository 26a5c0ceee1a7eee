import { divideMoney, divideRounded, moneyScale, type Units } from '../money/money';
import { Direction, OrderStatus } from './order-rules';

/**
 * The account's risk, defined once: the number the live feed shows the user (net worth,
 * margin level), the number stop-out closes positions on, and the number negative-balance
 * protection covers a loss with are the same.
 */
export interface Holding {
  /** OrderStatus.pending or OrderStatus.position. */
  status: number;
  /** The margin the order locked. */
  margin: Units;
  /** A position's profit (negative: loss) at the server's price; pending orders have none. */
  profitLoss: Units | null;
}

/** Equity = cash + the margin of every open order + the open positions' profit and loss. */
export function accountEquity(cash: Units, holdings: readonly Holding[]): Units {
  let equity = cash;
  for (const holding of holdings) {
    equity += holding.margin;
    if (holding.status === OrderStatus.position) equity += holding.profitLoss ?? 0n;
  }
  return equity;
}

/** The margin every open order locks. */
export function lockedMargin(holdings: readonly Holding[]): Units {
  return holdings.reduce((sum, holding) => sum + holding.margin, 0n);
}

/** Margin level in percent (equity ÷ margin × 100) to two decimals; null without margin. */
export function marginLevelPercent(equity: Units, margin: Units): Units | null {
  if (margin <= 0n) return null;
  return divideRounded(divideMoney(equity * 100n, margin), 1_000_000n) * 1_000_000n;
}

/** Stop-out: the margin level is below `levelPercent` (an account without margin never stops out). */
export function belowStopOut(equity: Units, margin: Units, levelPercent: number): boolean {
  if (margin <= 0n) return false;
  return equity * 10_000n < margin * BigInt(Math.round(levelPercent * 100));
}

/**
 * Negative-balance protection belongs to the account: what a closed position loses beyond
 * the cash and its own margin is covered by everything else the account holds, and the
 * house absorbs only what is left once nothing is open. `shortfall` is what the close
 * leaves uncovered (0 when cash and the position's margin cover it).
 */
export function closeShortfall(cash: Units, positionMargin: Units, profitLoss: Units): Units {
  const after = cash + positionMargin + profitLoss;
  return after < 0n ? -after : 0n;
}

/**
 * Open positions of one symbol and direction summed exactly (what a database sums in one
 * read): Σ volume × contract size, in 10^-16, and Σ open price × volume × contract size,
 * in 10^-24. Their profit at `closePrice` is the sum of the positions' own, without the
 * per-position rounding to 10^-8 (so it may differ from that sum by a few 10^-8).
 */
export interface PositionGroup {
  direction: Direction;
  quantity: bigint;
  cost: bigint;
}
export const groupQuantityScale = 2 * moneyScale;
export const groupCostScale = 3 * moneyScale;

export function groupProfitLoss(group: PositionGroup, closePrice: Units): Units {
  const value = closePrice * group.quantity;
  const move = group.direction === Direction.buy ? value - group.cost : group.cost - value;
  return divideRounded(move, 10n ** BigInt(groupCostScale - moneyScale));
}
