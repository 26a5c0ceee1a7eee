import type { Kysely, Transaction } from 'kysely';
import { formatMoney, money, type Units } from '../../../src/shared/money/money';
import { accountEquity, belowStopOut, closeShortfall, lockedMargin } from '../../../src/shared/trading/account-risk';
import { coverFromHeldMargin } from '../../../src/shared/trading/protection-cover';
import { OrderStatus } from '../../../src/shared/trading/order-rules';
import type { Book, Database } from '../../db/schema';
import type { MarketDataService } from '../market/market-data-service';
import type { JournalInput, Ledger } from '../ledger/ledger';
import { orderEndedJournal } from '../ledger/ledger-journals';
import { holdingsOf, resultAt, valueAtMarket, type MarketValue } from './position-value';
import type { TriggerArming } from './trigger-arming';
import type { OrderRow, TradingRepository } from './trading-repository';

/**
 * What negative-balance protection needs of timed options (the options service): their
 * rows locked first (the lock order), and, when the account is closed out, their amounts
 * back to cash.
 */
export interface OptionCover {
  lockRunningIn(trx: Transaction<Database>, uid: number, book: Book): Promise<{ voidIn(reason: string): Promise<{ amount: Units; journals: JournalInput[]; after: () => void }> } | null>;
}

export type CloseReason = 'manual' | 'stop_loss' | 'take_profit' | 'stop_out';
export type CloseOutcome = 'closed' | 'not-open';

const endedJournal = (row: OrderRow, profitLoss: Units | null) => orderEndedJournal({ uid: row.uid, book: row.book, orderNo: row.order_no, margin: money(String(row.margin)), profitLoss });

/**
 * Closing a position, with negative-balance protection at the level of the account: a
 * loss that the cash and the position's own margin cannot carry is covered by everything
 * else the account holds, so its running options end void (their amount back to cash, the
 * fee kept), its other positions close with it at the server's latest quotes (their
 * reason 'stop_out') and its pending orders are canceled; the house absorbs only what is
 * still missing, and the account ends at exactly 0. Everything is read after the account's
 * locks (options first, then its ledger accounts), so two closes of a hedged pair cannot
 * both pass. A position elsewhere without a fresh quote (its market closed) is never closed
 * at an old one: it is held, its margin covering the shortfall first, and the close goes
 * ahead (the rule: src/shared/trading/protection-cover.ts).
 */
export function createPositionClosing(deps: {
  db: Kysely<Database>;
  orders: TradingRepository;
  ledger: Ledger;
  market: MarketDataService;
  options: OptionCover;
  arming: TriggerArming;
  stopOutLevelPercent: number;
  /** Whether a quote of this time is recent enough to trade on. */
  fresh: (tickMs: number) => boolean;
  nowMs: () => number;
  changed: (uid: number, book: Book) => void;
  /** A stop-out is a job: its transaction is fenced under the jobs lease first (throws LeaseLostError when lost). */
  stopOutFence?: (trx: Kysely<Database>) => Promise<void>;
}) {
  const { db, orders, ledger, market } = deps;

  /**
   * Closes `row` at `price` (the tick `tickMs`). `onlyBelowStopOut` (the stop-out) closes
   * only if the account is still below the level under its lock; `armed` (a stop loss or
   * take profit firing) closes only if the position still holds that level under its lock:
   * an edit that moved or removed it meanwhile armed the new one instead.
   */
  async function close(
    row: OrderRow,
    price: Units,
    tickMs: number,
    reason: CloseReason,
    armed: { level: 'stop_loss' | 'take_profit'; at: Units } | null = null,
    onlyBelowStopOut = false,
  ): Promise<CloseOutcome> {
    const { uid, book } = row;
    const outcome = await db.transaction().execute(async (trx) => {
      // The lease row before the account's rows, as in every fenced job: one lock order.
      if (onlyBelowStopOut) await deps.stopOutFence?.(trx);
      const options = await deps.options.lockRunningIn(trx, uid, book);
      const cash = await ledger.lockCash(trx, uid, book);
      const open = await orders.lockOpenIn(trx, uid, book);
      const self = open.find((each) => each.id === row.id && each.status === OrderStatus.position);
      if (!self) return { result: 'not-open' as const };
      if (armed !== null) {
        const held = self[armed.level];
        if (held === null || money(String(held)) !== armed.at) return { result: 'not-open' as const };
      }
      const pnl = resultAt(self, money(String(self.open_price)), price);
      const valued = open.map((each): { row: OrderRow; at: MarketValue | null } => {
        if (each.id === self.id) return { row: each, at: { price, pnl, tickMs } };
        return { row: each, at: each.status === OrderStatus.position ? valueAtMarket(market, each) : null };
      });
      if (onlyBelowStopOut) {
        const holdings = holdingsOf(valued);
        if (!belowStopOut(accountEquity(cash, holdings), lockedMargin(holdings), deps.stopOutLevelPercent)) return { result: 'not-open' as const };
      }
      const closedAt = new Date(deps.nowMs());
      const closeStatement = (order: OrderRow, at: MarketValue, why: string) =>
        orders.closeStatement(trx, order.id, { closePrice: formatMoney(at.price, 0), closeTickMs: String(at.tickMs), profitLoss: formatMoney(at.pnl, 0), reason: why, closedAt });
      const closeRow = (order: OrderRow, at: MarketValue, why: string) => closeStatement(order, at, why).execute();
      if (closeShortfall(cash, money(String(self.margin)), pnl) === 0n) {
        // The row and its money in one statement.
        await ledger.settlePositionClosing(trx, { uid, book, orderNo: self.order_no, margin: money(String(self.margin)), profitLoss: pnl }, closeStatement(self, { price, pnl, tickMs }, reason));
        return { result: 'closed' as const, ended: [self], after: null };
      }
      // The account cannot carry this loss on its cash: everything it holds covers it.
      const unpriced = (each: { row: OrderRow; at: MarketValue | null }) => each.row.status === OrderStatus.position && (each.at === null || !deps.fresh(each.at.tickMs));
      const held = valued.filter((each) => each.row.id !== self.id && unpriced(each)).map((each) => each.row);
      const others = valued.filter((each) => each.row.id !== self.id && !unpriced(each));
      const voided = options ? await options.voidIn('stop_out') : { amount: 0n, journals: [], after: () => undefined };
      const equity = accountEquity(cash + voided.amount, holdingsOf([{ row: self, at: { price, pnl, tickMs } }, ...others]));
      // The held positions' margin covers the shortfall first; the house absorbs what it cannot.
      const cover = coverFromHeldMargin(equity < 0n ? -equity : 0n, held.map((row) => money(String(row.margin))));
      for (const [index, row] of held.entries()) {
        const take = cover.taken[index] ?? 0n;
        if (take === 0n) continue;
        const margin = money(String(row.margin));
        await ledger.adjustMargin(trx, { uid, book, orderNo: row.order_no, from: margin, to: margin - take });
        if (!(await orders.setPositionMarginIn(trx, row.id, formatMoney(margin - take, 0)))) throw new Error(`held position ${row.order_no} is no longer open under its lock`);
      }
      const absorbed = cover.absorbed;
      // What the house absorbs is recorded on the close that caused it: its profit and loss is what the user lost.
      const selfPnl = pnl + absorbed;
      await closeRow(self, { price, pnl: selfPnl, tickMs }, reason);
      const journals = [...voided.journals, endedJournal(self, selfPnl)];
      for (const { row: other, at } of others) {
        if (at === null) {
          await orders.cancelIn(trx, other.id, 'stop_out', closedAt);
          journals.push(endedJournal(other, null));
        } else {
          await closeRow(other, at, 'stop_out');
          journals.push(endedJournal(other, at.pnl));
        }
      }
      // One balance update per account for the whole set: the cash never passes through a negative value.
      await ledger.postBatch(trx, journals);
      const heldIds = new Set(held.map((row) => row.id));
      return { result: 'closed' as const, ended: open.filter((row) => !heldIds.has(row.id)), after: voided.after };
    });
    if (outcome.result !== 'closed') return outcome.result;
    for (const each of outcome.ended) deps.arming.disarm(each);
    outcome.after?.();
    deps.changed(uid, book);
    return 'closed';
  }

  return { close };
}

export type PositionClosing = ReturnType<typeof createPositionClosing>;
