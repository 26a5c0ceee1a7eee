import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Product } from '../../../src/shared/api/market';
import type { AddOrderBody, TradeOrder } from '../../../src/shared/api/trading';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { formatFixed } from '../../../src/shared/market/kline';
import { decimalToUnits } from '../../../src/shared/market/decimal';
import { formatMoney, minMoney, money, multiplyMoney, parseMoney, parseScaled, type Units } from '../../../src/shared/money/money';
import { accountEquity, belowStopOut, closeShortfall, groupCostScale, groupProfitLoss, groupQuantityScale, lockedMargin, type Holding } from '../../../src/shared/trading/account-risk';
import { feeFor, marginFor, OrderStatus, orderRuleViolation, pendingPriceBandPercent, pendingPriceOutsideBand, profitLossFor, type Direction } from '../../../src/shared/trading/order-rules';
import type { Book, Database, TradeOrderTable } from '../../db/schema';
import { AppError, clientOrderReusedError } from '../../http/app-error';
import type { MarketDataService } from '../../market/market-data-service';
import type { RawTick } from '../../market/sources/market-data-source';
import { cashKind, marginKind } from '../account/account-service';
import type { JournalInput, Ledger, Posting } from '../ledger/ledger';
import { nextOrderNumberSql } from './order-number';
import { createTriggerIndex, type Crossing, type PriceSide, type TriggerIndex } from './trigger-index';

export type OrderRow = Selectable<TradeOrderTable>;

/**
 * What negative-balance protection needs of timed options: their rows locked first (the
 * lock order), and, when the account is closed out, their amounts back to cash.
 */
export interface OptionCover {
  lockRunningIn(trx: Transaction<Database>, uid: number, book: Book): Promise<{ voidIn(reason: string): Promise<{ amount: Units; journals: JournalInput[]; after: () => void }> } | null>;
}
type TriggerKind = 'stop_loss' | 'take_profit' | 'fill';
interface TriggerPayload {
  orderId: number;
  kind: TriggerKind;
}

const checkViolation = '23514';
const uniqueViolation = '23505';
/** Thrown to roll back an overnight charge whose day was charged already. */
const alreadyCharged = new Error('overnight fee already charged today');
const pnlKind = 'trading-pnl';
const feesKind = 'fees';

function priceUnits(value: Units, precision: number): number {
  return decimalToUnits(formatMoney(value, 0), precision) ?? 0;
}

export function quotePrice(units: number, precision: number): Units {
  return money(formatFixed(units, precision));
}

export function orderView(row: OrderRow, productName: string, live: { currentPrice: Units; profitLoss: Units } | null = null): TradeOrder {
  const decimal = (value: string | null) => (value === null ? null : formatMoney(money(String(value))));
  return {
    id: row.id,
    uid: row.order_no,
    orderType: row.direction,
    buyPoint: row.price_type,
    status: row.status,
    tradePair: row.symbol,
    productName,
    orderQuantity: formatMoney(money(String(row.volume))),
    lever: row.leverage,
    securityDepositInitial: formatMoney(money(String(row.margin))),
    openingPrice: decimal(row.open_price),
    limitPrice: decimal(row.limit_price),
    currentPrice: live ? formatMoney(live.currentPrice) : null,
    closingPrice: decimal(row.close_price),
    stopPrice: decimal(row.stop_loss),
    takeProfitPrice: decimal(row.take_profit),
    profitLoss: live ? formatMoney(live.profitLoss) : decimal(row.profit_loss),
    feeAmount: formatMoney(money(String(row.fee))),
    closeReason: row.close_reason,
    orderTime: row.created_at.getTime(),
    transactionTime: row.opened_at?.getTime() ?? null,
    transactionTimeTs: row.opened_at?.getTime() ?? null,
    closingTimeTs: row.closed_at?.getTime() ?? null,
  };
}

/**
 * Market contracts: orders filled at the server's own latest tick, margin and fees moved
 * in the ledger in the same transaction as the order, pending orders and stop loss / take
 * profit fired from the trigger index at the first tick that crosses them.
 */
export function createTradingService(deps: {
  db: Kysely<Database>;
  ledger: Ledger;
  market: MarketDataService;
  stalePriceMs: number;
  minHoldSeconds: number;
  /** Real forex trading needs this much in total deposits (320); "0" turns the rule off. */
  forexMinDeposit: string;
  /** Stop-out below this margin level, in percent. */
  stopOutLevelPercent: number;
  /** Pending orders one account may have waiting at once. */
  maxPendingOrders: number;
  nowMs?: () => number;
  log?: (message: string, error?: unknown) => void;
  /** Told after any change to a user's orders or money in a book (the live positions feed). */
  onChange?: (uid: number, book: Book) => void;
}) {
  const { db, ledger, market } = deps;
  const changed = (uid: number, book: Book) => deps.onChange?.(uid, book);
  const nowMs = deps.nowMs ?? Date.now;
  const indexes = new Map<string, TriggerIndex<TriggerPayload>>();
  /** The account's running options, which negative-balance protection ends to cover a loss (set once options start). */
  let optionCover: OptionCover | null = null;
  /** Trigger executions in flight, so that tests and shutdown can wait for them. */
  const inFlight = new Set<Promise<void>>();

  function indexOf(symbol: string) {
    let index = indexes.get(symbol);
    if (!index) {
      index = createTriggerIndex<TriggerPayload>();
      indexes.set(symbol, index);
    }
    return index;
  }

  function productOf(symbol: string): Product {
    const product = market.products().find((item) => item.productCode === symbol);
    if (!product) throw new AppError(ErrorCode.TRADING_PAIR_CONFIG_NOT_FOUND);
    return product;
  }

  function freshQuote(symbol: string): RawTick {
    const quote = market.latestQuote(symbol);
    if (!quote || nowMs() - quote.timeMs > deps.stalePriceMs) throw new AppError(ErrorCode.GET_CURRENT_PRICE_ERROR);
    return quote;
  }

  /** Where each open order waits: a pending fill, or its position's stop loss and take profit. */
  function arm(row: OrderRow, precision: number) {
    const index = indexOf(row.symbol);
    const buy = row.direction === 0;
    const add = (kind: TriggerKind, side: PriceSide, crossing: Crossing, level: string | null) => {
      if (level === null) return;
      index.add({ id: `${row.id}:${kind}`, side, crossing, level: priceUnits(money(String(level)), precision), payload: { orderId: row.id, kind } });
    };
    if (row.status === OrderStatus.pending) add('fill', buy ? 'ask' : 'bid', buy ? 'below' : 'above', row.limit_price);
    if (row.status === OrderStatus.position) {
      // A buy closes at the bid, a sell at the ask.
      add('stop_loss', buy ? 'bid' : 'ask', buy ? 'below' : 'above', row.stop_loss);
      add('take_profit', buy ? 'bid' : 'ask', buy ? 'above' : 'below', row.take_profit);
    }
  }

  function disarm(row: OrderRow) {
    const index = indexes.get(row.symbol);
    for (const kind of ['fill', 'stop_loss', 'take_profit'] as const) index?.remove(`${row.id}:${kind}`);
  }

  async function postIn(trx: Transaction<Database>, key: string, book: Book, kind: string, uid: number, reference: string, postings: Posting[]) {
    await ledger.postInTransaction(trx, { idempotencyKey: key, book, kind, uid, reference, postings });
  }

  function mapInsufficient(error: unknown): never {
    if ((error as { code?: string }).code === checkViolation) throw new AppError(ErrorCode.INSUFFICIENT_BALANCE);
    throw error;
  }

  /** The open orders (pending and positions) of an account, locked, inside a transaction that holds its accounts. */
  function openOrdersIn(trx: Transaction<Database>, uid: number, book: Book) {
    return trx.selectFrom('trade_order').selectAll().where('uid', '=', uid).where('book', '=', book).where('status', 'in', [OrderStatus.pending, OrderStatus.position]).orderBy('id').forUpdate().execute();
  }

  /** A position's close price and profit at the server's latest quote (a buy closes at the bid, a sell at the ask). */
  function valueAtMarket(row: OrderRow): { price: Units; pnl: Units; tickMs: number } | null {
    const quote = market.latestQuote(row.symbol);
    const product = market.products().find((item) => item.productCode === row.symbol);
    if (!quote || !product) return null;
    const price = quotePrice(row.direction === 0 ? quote.bid : quote.ask, product.pricePrecision);
    return { price, pnl: profitLossFor(row.direction as Direction, money(String(row.open_price)), price, money(String(row.volume)), { contractSize: String(row.contract_size) }), tickMs: quote.timeMs };
  }

  /**
   * The journal that ends an order: its margin back to cash, with a position's result
   * (`pnl`, the house's trading P/L the other side) or none for a canceled pending order.
   */
  function endJournal(row: OrderRow, pnl: Units | null): JournalInput {
    const margin = money(String(row.margin));
    const kind = pnl === null ? 'order-cancel' : 'order-close';
    const postings: Posting[] = [
      { account: { owner: row.uid, book: row.book, kind: marginKind }, amount: -margin },
      { account: { owner: row.uid, book: row.book, kind: cashKind }, amount: margin + (pnl ?? 0n) },
    ];
    if (pnl !== null) postings.push({ account: { owner: null, book: row.book, kind: pnlKind }, amount: -pnl });
    return { idempotencyKey: `${kind}:${row.order_no}`, book: row.book, kind, uid: row.uid, reference: row.order_no, postings };
  }

  /** Whether a quote is recent enough to trade on (the same threshold as every fill). */
  function fresh(tickMs: number) {
    return nowMs() - tickMs <= deps.stalePriceMs;
  }

  /**
   * The account's free margin (equity − the margin its orders lock, the shared formula)
   * inside a transaction that holds its accounts, from one grouped read: an account with
   * hundreds of open orders costs one short query on every placement, not hundreds of rows.
   */
  async function freeMarginIn(trx: Transaction<Database>, uid: number, book: Book, lockedCash?: Units): Promise<Units> {
    const groups = await sql<{ status: number; symbol: string; direction: number; margin: string; quantity: string; cost: string }>`
      select status, symbol, direction, sum(margin)::text as margin, sum(volume * contract_size)::text as quantity,
        sum(coalesce(open_price, 0) * volume * contract_size)::text as cost
      from trade_order where uid = ${uid} and book = ${book} and status in (${OrderStatus.pending}, ${OrderStatus.position})
      group by status, symbol, direction`.execute(trx);
    const products = new Map(market.products().map((product) => [product.productCode, product]));
    const holdings: Holding[] = groups.rows.map((group) => {
      const margin = money(group.margin);
      if (group.status !== OrderStatus.position) return { status: group.status, margin, profitLoss: null };
      const quote = market.latestQuote(group.symbol);
      const product = products.get(group.symbol);
      const quantity = parseScaled(group.quantity, groupQuantityScale);
      const cost = parseScaled(group.cost, groupCostScale);
      if (!quote || !product || quantity === null || cost === null) return { status: group.status, margin, profitLoss: 0n };
      const price = quotePrice(group.direction === 0 ? quote.bid : quote.ask, product.pricePrecision);
      return { status: group.status, margin, profitLoss: groupProfitLoss({ direction: group.direction as Direction, quantity, cost }, price) };
    });
    const cash = lockedCash ?? (await ledger.balance({ owner: uid, book, kind: cashKind }, trx));
    return accountEquity(cash, holdings) - lockedMargin(holdings);
  }

  /**
   * Closes a position at `price` (the tick `tickMs`), with negative-balance protection
   * at the level of the account: a loss that the cash and the position's own margin
   * cannot carry is covered by everything else the account holds, so its running options
   * end void (their amount back to cash, the fee kept), its other positions close with it
   * at the server's latest quotes (their reason 'stop_out') and its pending orders are
   * canceled; the house absorbs only what is still missing once nothing is open, and the
   * account ends at exactly 0. Everything is read after the account's locks (options
   * first, then its ledger accounts), so two closes of a hedged pair cannot both pass.
   * A position elsewhere without a fresh quote is never closed at an old one: the whole
   * close waits (a manual close answers 202; a trigger fires again on the next tick).
   * `onlyBelowStopOut` (the stop-out) closes only if the account is still below the level.
   */
  async function executeClose(
    row: OrderRow,
    price: Units,
    tickMs: number,
    reason: 'manual' | 'stop_loss' | 'take_profit' | 'stop_out',
    onlyBelowStopOut = false,
  ): Promise<'closed' | 'not-open' | 'no-fresh-price'> {
    const { uid, book } = row;
    const outcome = await db.transaction().execute(async (trx) => {
      const options = (await optionCover?.lockRunningIn(trx, uid, book)) ?? null;
      const balances = await ledger.lockOwnerAccounts(trx, uid, book);
      const open = await openOrdersIn(trx, uid, book);
      const self = open.find((each) => each.id === row.id && each.status === OrderStatus.position);
      if (!self) return { result: 'not-open' as const };
      const cash = balances.get(cashKind) ?? 0n;
      const pnl = profitLossFor(self.direction as Direction, money(String(self.open_price)), price, money(String(self.volume)), { contractSize: String(self.contract_size) });
      const valued = open.map((each) => {
        if (each.id === self.id) return { row: each, at: { price, pnl, tickMs } };
        return { row: each, at: each.status === OrderStatus.position ? valueAtMarket(each) : null };
      });
      if (onlyBelowStopOut) {
        const holdings: Holding[] = valued.map(({ row: each, at }) => ({ status: each.status, margin: money(String(each.margin)), profitLoss: at?.pnl ?? null }));
        if (!belowStopOut(accountEquity(cash, holdings), lockedMargin(holdings), deps.stopOutLevelPercent)) return { result: 'not-open' as const };
      }
      const closedAt = new Date(nowMs());
      const close = (order: OrderRow, at: { price: Units; pnl: Units; tickMs: number }, why: string) =>
        trx
          .updateTable('trade_order')
          .set({ status: OrderStatus.deal, close_price: formatMoney(at.price, 0), close_tick_ms: String(at.tickMs), profit_loss: formatMoney(at.pnl, 0), close_reason: why, closed_at: closedAt })
          .where('id', '=', order.id)
          .where('status', '=', OrderStatus.position)
          .execute();
      if (closeShortfall(cash, money(String(self.margin)), pnl) === 0n) {
        await close(self, { price, pnl, tickMs }, reason);
        await ledger.postInTransaction(trx, endJournal(self, pnl));
        return { result: 'closed' as const, ended: [self], after: null };
      }
      // The account cannot carry this loss on its cash: everything it holds covers it.
      const others = valued.filter((each) => each.row.id !== self.id);
      if (others.some(({ row: each, at }) => each.status === OrderStatus.position && (at === null || !fresh(at.tickMs)))) return { result: 'no-fresh-price' as const };
      const voided = options ? await options.voidIn('stop_out') : { amount: 0n, journals: [], after: () => undefined };
      const holdings: Holding[] = valued.map(({ row: each, at }) => ({ status: each.status, margin: money(String(each.margin)), profitLoss: at?.pnl ?? null }));
      const equity = accountEquity(cash + voided.amount, holdings);
      const absorbed = equity < 0n ? -equity : 0n;
      // What the house absorbs is recorded on the close that caused it: its profit and loss is what the user lost.
      const selfPnl = pnl + absorbed;
      await close(self, { price, pnl: selfPnl, tickMs }, reason);
      const journals = [...voided.journals, endJournal(self, selfPnl)];
      for (const { row: other, at } of others) {
        if (at === null) {
          await trx.updateTable('trade_order').set({ status: OrderStatus.canceled, close_reason: 'stop_out', closed_at: closedAt }).where('id', '=', other.id).where('status', '=', OrderStatus.pending).execute();
          journals.push(endJournal(other, null));
        } else {
          await close(other, at, 'stop_out');
          journals.push(endJournal(other, at.pnl));
        }
      }
      // One balance update per account for the whole set: the cash never passes through a negative value.
      await ledger.postManyInTransaction(trx, journals);
      return { result: 'closed' as const, ended: open, after: voided.after };
    });
    if (outcome.result !== 'closed') return outcome.result;
    for (const each of outcome.ended) disarm(each);
    outcome.after?.();
    changed(uid, book);
    return 'closed';
  }

  /** Fills a pending order at `price` (the tick `tickMs`): its fee is charged now. */
  async function executeFill(row: OrderRow, price: Units, tickMs: number) {
    const product = productOf(row.symbol);
    const volume = money(String(row.volume));
    const fee = feeFor(price, volume, product);
    const book = row.book;
    const filled = await db
      .transaction()
      .execute(async (trx) => {
        await ledger.lockOwnerAccounts(trx, row.uid, book);
        const updated = await trx
          .updateTable('trade_order')
          .set({ status: OrderStatus.position, open_price: formatMoney(price, 0), open_tick_ms: String(tickMs), fee: formatMoney(fee, 0), opened_at: new Date(nowMs()) })
          .where('id', '=', row.id)
          .where('status', '=', OrderStatus.pending)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) !== 1) return false;
        await postIn(trx, `order-fill-fee:${row.order_no}`, book, 'order-fee', row.uid, row.order_no, [
          { account: { owner: row.uid, book, kind: cashKind }, amount: -fee },
          { account: { owner: null, book, kind: feesKind }, amount: fee },
        ]);
        return true;
      })
      .catch(async (error: unknown) => {
        // Not enough cash left for the fee: the order cannot fill and is canceled.
        if ((error as { code?: string }).code === checkViolation) {
          await cancelRow(row, 'insufficient-balance');
          return false;
        }
        throw error;
      });
    if (!filled) return;
    changed(row.uid, book);
    const fresh = await db.selectFrom('trade_order').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
    arm(fresh, product.pricePrecision);
  }

  async function cancelRow(row: OrderRow, reason: string) {
    const book = row.book;
    const canceled = await db.transaction().execute(async (trx) => {
      await ledger.lockOwnerAccounts(trx, row.uid, book);
      const updated = await trx
        .updateTable('trade_order')
        .set({ status: OrderStatus.canceled, close_reason: reason, closed_at: new Date(nowMs()) })
        .where('id', '=', row.id)
        .where('status', '=', OrderStatus.pending)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) return false;
      await ledger.postInTransaction(trx, endJournal(row, null));
      return true;
    });
    if (canceled) {
      disarm(row);
      changed(row.uid, book);
    }
    return canceled;
  }

  async function ownOrder(uid: number, book: Book, orderNo: string): Promise<OrderRow> {
    const row = await db.selectFrom('trade_order').selectAll().where('order_no', '=', orderNo).executeTakeFirst();
    // Another user's order answers as a missing one: order numbers reveal nothing.
    if (!row || row.book !== book || row.uid !== uid) throw new AppError(ErrorCode.ORDER_NOT_FOUND);
    return row;
  }

  /** What the user has deposited to the real book (journals of kind 'deposit'). */
  async function totalDeposits(uid: number): Promise<Units> {
    const row = await db
      .selectFrom('ledger_entry')
      .innerJoin('ledger_journal', 'ledger_journal.id', 'ledger_entry.journal_id')
      .innerJoin('ledger_account', 'ledger_account.id', 'ledger_entry.account_id')
      .select(({ fn }) => fn.sum<string>('ledger_entry.amount').as('total'))
      .where('ledger_journal.kind', '=', 'deposit')
      .where('ledger_journal.book', '=', 'real')
      .where('ledger_account.owner_uid', '=', uid)
      .executeTakeFirst();
    return row?.total ? (parseMoney(String(row.total)) ?? 0n) : 0n;
  }

  function orderOfClient(uid: number, book: Book, clientOrderId: string) {
    return db.selectFrom('trade_order').selectAll().where('uid', '=', uid).where('book', '=', book).where('client_order_id', '=', clientOrderId).executeTakeFirst();
  }

  /**
   * A retry with a clientOrderId already used answers the order it placed, but only when it
   * asks for the same order: another order under a used id is refused (the client's bug,
   * or a replay with a changed body), never answered with the first one's success.
   */
  function sameOrder(row: OrderRow, body: AddOrderBody): string {
    const equal = (stored: string | null, sent: string | undefined) => {
      const wanted = sent === undefined ? null : parseMoney(sent);
      const given = wanted !== null && wanted > 0n ? wanted : null;
      return (stored === null ? null : money(String(stored))) === given;
    };
    const same =
      row.symbol === body.tradePair &&
      row.direction === body.orderType &&
      row.price_type === body.buyPoint &&
      row.leverage === body.multiple &&
      money(String(row.volume)) === parseMoney(body.orderQuantity) &&
      (body.buyPoint === 2 || equal(row.limit_price, body.price)) &&
      equal(row.stop_loss, body.stopPrice) &&
      equal(row.take_profit, body.takeProfitPrice);
    if (!same) throw clientOrderReusedError();
    return row.order_no;
  }

  function onQuote(tick: RawTick) {
    const index = indexes.get(tick.symbol);
    if (!index || index.size === 0) return;
    for (const trigger of index.fire(tick.bid, tick.ask)) {
      const work = (async () => {
        const row = await db.selectFrom('trade_order').selectAll().where('id', '=', trigger.payload.orderId).executeTakeFirst();
        if (!row) return;
        const precision = productOf(row.symbol).pricePrecision;
        const buy = row.direction === 0;
        if (trigger.payload.kind === 'fill') {
          await executeFill(row, quotePrice(buy ? tick.ask : tick.bid, precision), tick.timeMs);
        } else {
          const closed = await executeClose(row, quotePrice(buy ? tick.bid : tick.ask, precision), tick.timeMs, trigger.payload.kind);
          // The account's other positions had no fresh price to close at: the trigger waits for the next tick.
          if (closed === 'no-fresh-price') arm(row, precision);
        }
      })()
        .catch((error: unknown) => deps.log?.('trigger execution failed', error))
        .finally(() => inFlight.delete(work));
      inFlight.add(work);
    }
  }

  const stopListening = market.onQuote(onQuote);

  return {
    /** Timed options join negative-balance protection (they start after trading). */
    coverWithOptions(cover: OptionCover) {
      optionCover = cover;
    },

    freeMarginIn,

    /** Arms the triggers of every open order (at start). */
    async restore() {
      const open = await db.selectFrom('trade_order').selectAll().where('status', 'in', [OrderStatus.pending, OrderStatus.position]).execute();
      for (const row of open) {
        const product = market.products().find((item) => item.productCode === row.symbol);
        if (product) arm(row, product.pricePrecision);
      }
    },

    async addOrder(uid: number, book: Book, body: AddOrderBody): Promise<string> {
      const placedBefore = await orderOfClient(uid, book, body.clientOrderId);
      if (placedBefore) return sameOrder(placedBefore, body);
      const product = productOf(body.tradePair);
      const user = await db.selectFrom('app_user').select(['trade_prohibited']).where('uid', '=', uid).executeTakeFirst();
      if (!user || user.trade_prohibited) throw new AppError(ErrorCode.USER_PROHIBITED_FROM_TRADING);
      if (book === 'real' && product.productType === 1 && money(deps.forexMinDeposit) > 0n) {
        const deposited = await totalDeposits(uid);
        if (deposited < money(deps.forexMinDeposit)) throw new AppError(ErrorCode.FOREX_DEPOSIT_REQUIRED);
      }
      const volume = parseMoney(body.orderQuantity);
      if (volume === null || volume <= 0n) throw new AppError(ErrorCode.QUANTITY_NOT_POSITIVE);
      if (body.multiple !== product.multiple) throw new AppError(ErrorCode.INCORRECT_PARAMETER_VALUE, 'leverage');
      if (product.tradeStatus !== 1 || market.status(product.productCode) !== 'open') throw new AppError(ErrorCode.PAIR_PROHIBITED);
      const quote = freshQuote(product.productCode);
      const direction = body.orderType as Direction;
      const current = quotePrice(direction === 0 ? quote.ask : quote.bid, product.pricePrecision);
      const limitPrice = body.buyPoint === 1 ? money(body.price) : null;
      const request = {
        direction,
        priceType: body.buyPoint,
        volume,
        limitPrice,
        stopLoss: body.stopPrice && money(body.stopPrice) > 0n ? money(body.stopPrice) : null,
        takeProfit: body.takeProfitPrice && money(body.takeProfitPrice) > 0n ? money(body.takeProfitPrice) : null,
      };
      const violation = orderRuleViolation(request, product, current);
      if (violation !== null) throw new AppError(violation as ErrorCode);
      if (limitPrice !== null && pendingPriceOutsideBand(direction, limitPrice, current)) {
        throw new AppError(ErrorCode.INCORRECT_PARAMETER_VALUE, 'pending price band', 200, null, { key: 'trade.pending_price_band', params: { percent: pendingPriceBandPercent } });
      }
      const fillPrice = limitPrice ?? current;
      const margin = marginFor(fillPrice, volume, product);
      // An order that locks nothing could be placed without limit (a buy limit at 0.00000001).
      if (margin <= 0n) throw new AppError(ErrorCode.LOT_SIZE_BELOW_LIMIT);
      const fee = body.buyPoint === 2 ? feeFor(fillPrice, volume, product) : 0n;
      const at = new Date(nowMs());
      const row = await db
        .transaction()
        .execute(async (trx) => {
          const balances = await ledger.lockOwnerAccounts(trx, uid, book);
          if (body.buyPoint === 1) {
            // Counted under the account's lock: two parallel placements cannot both pass it.
            const pending = await trx.selectFrom('trade_order').select(({ fn }) => fn.countAll<string>().as('count')).where('uid', '=', uid).where('book', '=', book).where('status', '=', OrderStatus.pending).executeTakeFirstOrThrow();
            if (Number(pending.count) >= deps.maxPendingOrders) {
              throw new AppError(ErrorCode.MAXIMUM_TARGET_VALUE_REACHED, 'pending orders', 200, null, { key: 'trade.pending_orders_limit', params: { count: deps.maxPendingOrders } });
            }
          }
          // Free margin, not only cash: an account whose open losses eat its equity opens nothing new.
          if ((await freeMarginIn(trx, uid, book, balances.get(cashKind) ?? 0n)) < margin + fee) throw new AppError(ErrorCode.INSUFFICIENT_BALANCE);
          const inserted = await trx
            .insertInto('trade_order')
            .values({
              order_no: nextOrderNumberSql(),
              uid,
              book,
              client_order_id: body.clientOrderId,
              symbol: product.productCode,
              direction,
              price_type: body.buyPoint,
              status: body.buyPoint === 2 ? OrderStatus.position : OrderStatus.pending,
              volume: formatMoney(volume, 0),
              leverage: product.multiple,
              contract_size: product.contractSize,
              limit_price: limitPrice === null ? null : formatMoney(limitPrice, 0),
              open_price: body.buyPoint === 2 ? formatMoney(current, 0) : null,
              stop_loss: request.stopLoss === null ? null : formatMoney(request.stopLoss, 0),
              take_profit: request.takeProfit === null ? null : formatMoney(request.takeProfit, 0),
              margin: formatMoney(margin, 0),
              fee: formatMoney(fee, 0),
              open_tick_ms: body.buyPoint === 2 ? String(quote.timeMs) : null,
              created_at: at,
              opened_at: body.buyPoint === 2 ? at : null,
            })
            .returningAll()
            .executeTakeFirstOrThrow();
          const orderNo = inserted.order_no;
          await postIn(trx, `order-open:${orderNo}`, book, 'order-open', uid, orderNo, [
            { account: { owner: uid, book, kind: cashKind }, amount: -(margin + fee) },
            { account: { owner: uid, book, kind: marginKind }, amount: margin },
            { account: { owner: null, book, kind: feesKind }, amount: fee },
          ]);
          return inserted;
        })
        .catch((error: unknown) => {
          // A concurrent retry with the same clientOrderId won (the order number comes from a sequence and never collides).
          if ((error as { code?: string }).code === uniqueViolation) return null;
          return mapInsufficient(error);
        });
      if (!row) {
        const winner = await orderOfClient(uid, book, body.clientOrderId);
        if (!winner) throw new AppError(ErrorCode.ORDER_SUBMISSION_FAILED);
        return sameOrder(winner, body);
      }
      arm(row, product.pricePrecision);
      changed(uid, book);
      return row.order_no;
    },

    async closeOrder(uid: number, book: Book, orderNo: string) {
      const row = await ownOrder(uid, book, orderNo);
      if (row.status !== OrderStatus.position) throw new AppError(ErrorCode.ORDER_STATUS_NOT_CLOSABLE);
      if (row.opened_at && nowMs() - row.opened_at.getTime() < deps.minHoldSeconds * 1000) throw new AppError(ErrorCode.MINIMUM_HOLDING_TIME);
      const product = productOf(row.symbol);
      const quote = freshQuote(row.symbol);
      const price = quotePrice(row.direction === 0 ? quote.bid : quote.ask, product.pricePrecision);
      const closed = await executeClose(row, price, quote.timeMs, 'manual');
      if (closed === 'no-fresh-price') throw new AppError(ErrorCode.GET_CURRENT_PRICE_ERROR);
      if (closed !== 'closed') throw new AppError(ErrorCode.ORDER_STATUS_NOT_CLOSABLE);
    },

    async cancelOrder(uid: number, book: Book, orderNo: string) {
      const row = await ownOrder(uid, book, orderNo);
      if (row.price_type !== 1) throw new AppError(ErrorCode.ORDER_TYPE_NOT_CANCELLABLE);
      if (row.status !== OrderStatus.pending) throw new AppError(ErrorCode.ORDER_STATUS_NOT_CANCELLABLE);
      if (!(await cancelRow(row, 'canceled'))) throw new AppError(ErrorCode.ORDER_STATUS_NOT_CANCELLABLE);
    },

    async history(uid: number, book: Book, query: { page: number; limit: number; positionStatus: number }) {
      const base = db.selectFrom('trade_order').where('uid', '=', uid).where('book', '=', book).where('status', '=', query.positionStatus);
      const [rows, count] = await Promise.all([
        base.selectAll().orderBy('closed_at', 'desc').orderBy('id', 'desc').limit(query.limit).offset((query.page - 1) * query.limit).execute(),
        base.select(({ fn }) => fn.countAll<string>().as('count')).executeTakeFirstOrThrow(),
      ]);
      const dayStart = new Date(nowMs());
      dayStart.setUTCHours(0, 0, 0, 0);
      const closed = await db.selectFrom('trade_order').select(['profit_loss', 'closed_at']).where('uid', '=', uid).where('book', '=', book).where('status', '=', OrderStatus.deal).execute();
      let total = 0n;
      let today = 0n;
      for (const order of closed) {
        const pnl = money(String(order.profit_loss ?? '0'));
        total += pnl;
        if (order.closed_at && order.closed_at >= dayStart) today += pnl;
      }
      const names = new Map(market.products().map((product) => [product.productCode, product.productName]));
      return { list: rows.map((row) => orderView(row, names.get(row.symbol) ?? row.symbol)), pages: Math.ceil(Number(count.count) / query.limit), profitLossToday: formatMoney(today), profitLossTotal: formatMoney(total) };
    },

    /**
     * The transaction list: the book's orders newest first (by order time, then id so that
     * orders of one millisecond keep a stable order across pages), any status unless one is
     * asked for.
     */
    async list(uid: number, book: Book, query: { page: number; limit: number; positionStatus?: number | undefined }) {
      let base = db.selectFrom('trade_order').where('uid', '=', uid).where('book', '=', book);
      if (query.positionStatus !== undefined) base = base.where('status', '=', query.positionStatus);
      const [rows, count] = await Promise.all([
        base.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(query.limit).offset((query.page - 1) * query.limit).execute(),
        base.select(({ fn }) => fn.countAll<string>().as('count')).executeTakeFirstOrThrow(),
      ]);
      const names = new Map(market.products().map((product) => [product.productCode, product.productName]));
      return { list: rows.map((row) => orderView(row, names.get(row.symbol) ?? row.symbol)), pages: Math.ceil(Number(count.count) / query.limit) };
    },

    /**
     * Stop-out: an account whose margin level (the shared formula: equity ÷ the margin of
     * every open order, at the server's quotes; the number the feed shows) is below the
     * configured level has its worst position closed, then is looked at again, until the
     * level is restored or nothing is open.
     */
    async checkStopOuts(): Promise<number> {
      // One read of every open order and one of the cash behind them; only accounts below the level read again.
      const open = await db.selectFrom('trade_order').selectAll().where('status', 'in', [OrderStatus.pending, OrderStatus.position]).execute();
      const byAccount = new Map<string, OrderRow[]>();
      for (const row of open) {
        const key = `${row.uid}|${row.book}`;
        const list = byAccount.get(key);
        if (list) list.push(row);
        else byAccount.set(key, [row]);
      }
      const cashOf = new Map<string, Units>();
      for (const book of ['real', 'demo'] as const) {
        const uids = [...new Set(open.filter((row) => row.book === book).map((row) => row.uid))];
        for (const [uid, cash] of await ledger.balancesOf(uids, book, cashKind)) cashOf.set(`${uid}|${book}`, cash);
      }
      const below = (orders: readonly OrderRow[], cash: Units) => {
        const valued = orders.map((row) => ({ row, at: row.status === OrderStatus.position ? valueAtMarket(row) : null }));
        const holdings: Holding[] = valued.map(({ row, at }) => ({ status: row.status, margin: money(String(row.margin)), profitLoss: at?.pnl ?? null }));
        if (!belowStopOut(accountEquity(cash, holdings), lockedMargin(holdings), deps.stopOutLevelPercent)) return null;
        // Worst first: the largest loss frees the most margin per unit of harm.
        // Only positions with a fresh quote: none is closed at an old price.
        return valued.flatMap(({ row, at }) => (at === null || !fresh(at.tickMs) ? [] : [{ row, at }])).sort((a, b) => (a.at.pnl < b.at.pnl ? -1 : a.at.pnl > b.at.pnl ? 1 : 0))[0] ?? null;
      };
      let closed = 0;
      for (const [key, orders] of byAccount) {
        let worst = below(orders, cashOf.get(key) ?? 0n);
        while (worst) {
          if ((await executeClose(worst.row, worst.at.price, worst.at.tickMs, 'stop_out', true)) !== 'closed') break;
          closed += 1;
          const { uid, book } = worst.row;
          const now = await db.selectFrom('trade_order').selectAll().where('uid', '=', uid).where('book', '=', book).where('status', 'in', [OrderStatus.pending, OrderStatus.position]).execute();
          worst = below(now, await ledger.balance({ owner: uid, book, kind: cashKind }));
        }
      }
      return closed;
    },

    /**
     * The daily rollover: every open position pays its product's overnight rate on its
     * notional, once per day (the key), never more than the cash it has.
     */
    async chargeOvernight(day: string): Promise<number> {
      const open = await db.selectFrom('trade_order').selectAll().where('status', '=', OrderStatus.position).execute();
      let charged = 0;
      for (const row of open) {
        const product = market.products().find((item) => item.productCode === row.symbol);
        if (!product) continue;
        const notional = multiplyMoney(multiplyMoney(money(String(row.open_price)), money(String(row.volume))), money(String(row.contract_size)));
        const due = multiplyMoney(notional, parseMoney(product.overnightRate) ?? 0n);
        if (due <= 0n) continue;
        const done = await db
          .transaction()
          .execute(async (trx) => {
            const balances = await ledger.lockOwnerAccounts(trx, row.uid, row.book);
            const fee = minMoney(due, balances.get(cashKind) ?? 0n);
            if (fee <= 0n) return false;
            // Only a position still open pays: one closed since the list was read pays nothing.
            const stillOpen = await trx.updateTable('trade_order').set({ fee: sql<string>`fee + ${formatMoney(fee, 0)}::numeric` }).where('id', '=', row.id).where('status', '=', OrderStatus.position).executeTakeFirst();
            if (Number(stillOpen.numUpdatedRows) !== 1) return false;
            const journal = await ledger.postInTransaction(trx, {
              idempotencyKey: `overnight:${row.order_no}:${day}`,
              book: row.book,
              kind: 'overnight-fee',
              uid: row.uid,
              reference: row.order_no,
              postings: [
                { account: { owner: row.uid, book: row.book, kind: cashKind }, amount: -fee },
                { account: { owner: null, book: row.book, kind: 'overnight' }, amount: fee },
              ],
            });
            // Charged today already: the fee added above is rolled back with the transaction.
            if (journal.replayed) throw alreadyCharged;
            return true;
          })
          .catch((error: unknown) => {
            if (error === alreadyCharged) return false;
            throw error;
          });
        if (done) {
          charged += 1;
          changed(row.uid, row.book);
        }
      }
      return charged;
    },

    /**
     * Demo reset, inside the reset's transaction (which holds the demo accounts): open demo
     * orders end without money moving; the reset's one journal then sets the demo balance
     * and clears the margin they held. Answers what to do once the reset has committed.
     */
    async endDemoOrdersIn(trx: Transaction<Database>, uid: number): Promise<() => void> {
      const open = await openOrdersIn(trx, uid, 'demo');
      const closedAt = new Date(nowMs());
      for (const row of open) {
        await trx
          .updateTable('trade_order')
          .set({ status: row.status === OrderStatus.pending ? OrderStatus.canceled : OrderStatus.deal, profit_loss: '0', close_reason: 'demo-reset', closed_at: closedAt })
          .where('id', '=', row.id)
          .execute();
      }
      return () => {
        for (const row of open) disarm(row);
        changed(uid, 'demo');
      };
    },

    /** Waits for trigger executions under way (tests, shutdown). */
    async settled() {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
    stop() {
      stopListening();
    },
  };
}

export type TradingService = ReturnType<typeof createTradingService>;
