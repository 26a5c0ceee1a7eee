import type { Kysely, Transaction } from 'kysely';
import { productTypeNumber, type Product } from '../../../src/shared/api/market';
import { levelRemoved, type AddOrderBody, type OrderTimeColumn, type UpdateOrderBody } from '../../../src/shared/api/trading';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { isPriceFresh } from '../../../src/shared/market/price-freshness';
import { isTradable } from '../../../src/shared/market/tradability';
import { historySelectionOf, type HistoryFilter } from '../../../src/shared/trading/history-filters';
import { formatMoney, money, parseMoney, type Units } from '../../../src/shared/money/money';
import { formatAmount } from '../../../src/shared/format/amount';
import {
  closableAfterMs,
  type Direction,
  feeFor,
  fillPriceOf,
  leverageAllowed,
  marginFor,
  OrderStatus,
  orderRuleViolation,
  pendingPriceBandPercent,
  pendingPriceOutsideBand,
  pendingPriceViolation,
  PriceType,
  protectionRuleViolation,
} from '../../../src/shared/trading/order-rules';
import { isCheckViolation, isUniqueViolation } from '../../db/database-errors';
import type { Book, Database } from '../../db/schema';
import { AppError, clientOrderReusedError } from '../../http/app-error';
import type { LiveSession } from '../../http/signed-in';
import type { MarketDataService } from '../market/market-data-service';
import type { RawTick } from '../market/sources/market-data-source';
import type { Ledger } from '../ledger/ledger';
import { JournalKind } from '../ledger/ledger-kinds';
import type { FreeMarginRead } from './free-margin';
import { createOvernightFees } from './overnight';
import { createPositionClosing, type OptionCover } from './position-closing';
import { closePriceOn } from './position-value';
import { orderView, quotePrice } from './order-view';
import { createStopOut } from './stop-out';
import { createTriggerArming, type OrderTrigger } from './trigger-arming';
import type { OrderRow, TradingRepository } from './trading-repository';

export type { OptionCover } from './position-closing';
export type { OrderRow } from './trading-repository';

/**
 * Market contracts: orders filled at the server's own latest tick, margin and fees moved
 * by the ledger's verbs in the same transaction as the order, pending orders and stop
 * loss / take profit fired from the trigger index at the first tick that crosses them.
 */
export function createTradingService(deps: {
  db: Kysely<Database>;
  orders: TradingRepository;
  ledger: Ledger;
  market: MarketDataService;
  /** The account's free margin (created before trading: options need it too). */
  freeMarginIn: FreeMarginRead;
  /** The account's running options, which negative-balance protection ends to cover a loss (the options service). */
  options: OptionCover;
  /** Whether the user has a withdrawal awaiting review: the real account cannot trade then (406). */
  withdrawalUnderReview: (uid: number) => Promise<boolean>;
  /** What the customer has deposited in USD through approved deposits (the forex minimum, 320). */
  depositedUsd: (uid: number) => Promise<Units>;
  /** Whether the brand offers market mode now (its switches). */
  marketModeOffered: () => Promise<boolean>;
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
  /**
   * Fences a job's transaction under the jobs lease (the cluster's `jobs.fenceIn`): stop-outs
   * and overnight fees are refused in their own transaction once another process took the jobs over.
   */
  jobsFence?: (trx: Kysely<Database>) => Promise<void>;
}) {
  const { db, orders, ledger, market } = deps;
  const changed = (uid: number, book: Book) => deps.onChange?.(uid, book);
  const nowMs = deps.nowMs ?? Date.now;
  const arming = createTriggerArming();
  /** Trigger executions in flight, so that tests and shutdown can wait for them. */
  const inFlight = new Set<Promise<void>>();
  /** Whether a quote is recent enough to trade on (the same threshold as every fill). */
  const fresh = (tickMs: number) => isPriceFresh(tickMs, nowMs(), deps.stalePriceMs);
  const jobsFence = deps.jobsFence ?? (async () => undefined);
  const closing = createPositionClosing({ db, orders, ledger, market, options: deps.options, arming, stopOutLevelPercent: deps.stopOutLevelPercent, fresh, nowMs, changed, stopOutFence: jobsFence });
  const stopOut = createStopOut({ orders, ledger, market, closing, stopOutLevelPercent: deps.stopOutLevelPercent, fresh });
  const overnight = createOvernightFees({ db, orders, ledger, market, changed, fence: jobsFence });

  function productOf(symbol: string): Product {
    const product = market.products().find((item) => item.productCode === symbol);
    if (!product) throw new AppError(ErrorCode.TRADING_PAIR_CONFIG_NOT_FOUND);
    return product;
  }

  function freshQuote(symbol: string): RawTick {
    const quote = market.latestQuote(symbol);
    if (!quote || !fresh(quote.timeMs)) throw new AppError(ErrorCode.GET_CURRENT_PRICE_ERROR);
    return quote;
  }

  /**
   * A broken order rule as its error: a stop loss or take profit at or below 0 keeps its
   * code (313 / 314) and says so in words, rather than "below the limit price".
   */
  function ruleError(violation: number, levels: { stopLoss: Units | null; takeProfit: Units | null }): AppError {
    if (violation === ErrorCode.STOP_LOSS_BELOW_LIMIT && levels.stopLoss !== null && levels.stopLoss <= 0n) return new AppError(violation, 'stop loss not positive', 200, null, { key: 'trade.stoploss_positive_rule', params: {} });
    if (violation === ErrorCode.TAKE_PROFIT_BELOW_LIMIT && levels.takeProfit !== null && levels.takeProfit <= 0n) return new AppError(violation, 'take profit not positive', 200, null, { key: 'trade.takeprofit_positive_rule', params: {} });
    return new AppError(violation as ErrorCode);
  }

  const bandError = () => new AppError(ErrorCode.INCORRECT_PARAMETER_VALUE, 'pending price band', 200, null, { key: 'trade.pending_price_band', params: { percent: pendingPriceBandPercent } });

  const orderRef = (row: OrderRow) => ({ uid: row.uid, book: row.book, orderNo: row.order_no });

  /** Fills a pending order at `price` (the tick `tickMs`) if it still waits at `armedLimit`: its fee is charged now. */
  async function executeFill(row: OrderRow, price: Units, tickMs: number, armedLimit: Units) {
    const product = productOf(row.symbol);
    const fee = feeFor(price, money(String(row.volume)), product);
    const filled = await db
      .transaction()
      .execute(async (trx) => {
        await ledger.lockOwnerAccounts(trx, row.uid, row.book);
        const fill = { openPrice: formatMoney(price, 0), openTickMs: String(tickMs), fee: formatMoney(fee, 0), openedAt: new Date(nowMs()), limitPrice: formatMoney(armedLimit, 0) };
        if (!(await orders.fillIn(trx, row.id, fill))) return false;
        await ledger.chargeFee(trx, { ...orderRef(row), fee });
        return true;
      })
      .catch(async (error: unknown) => {
        // Not enough cash left for the fee: the order cannot fill and is canceled.
        if (isCheckViolation(error)) {
          await cancelRow(row, 'insufficient-balance');
          return false;
        }
        throw error;
      });
    if (!filled) return;
    changed(row.uid, row.book);
    const position = await orders.findById(row.id);
    if (!position) throw new Error(`order ${row.order_no} vanished after its fill`);
    arming.arm(position, product.pricePrecision);
  }

  async function cancelRow(row: OrderRow, reason: string) {
    const canceled = await db.transaction().execute(async (trx) => {
      await ledger.lockOwnerAccounts(trx, row.uid, row.book);
      const margin = await orders.cancelIn(trx, row.id, reason, new Date(nowMs()));
      if (margin === null) return false;
      await ledger.releaseMargin(trx, { ...orderRef(row), margin: money(margin) });
      return true;
    });
    if (canceled) {
      arming.disarm(row);
      changed(row.uid, row.book);
    }
    return canceled;
  }

  async function ownOrder(uid: number, book: Book, orderNo: string): Promise<OrderRow> {
    const row = await orders.findByOrderNo(orderNo);
    // Another user's order answers as a missing one: order numbers reveal nothing.
    if (!row || row.book !== book || row.uid !== uid) throw new AppError(ErrorCode.ORDER_NOT_FOUND);
    return row;
  }

  /**
   * A retry with a clientOrderId already used answers the order it placed, but only when it
   * asks for the same order: another order under a used id is refused (the client's bug,
   * or a replay with a changed body), never answered with the first one's success.
   */
  function sameOrder(row: OrderRow, body: AddOrderBody): string {
    // A level sent as 0 is not "none" (placement refuses it), so it is not the same as none here either.
    const equal = (stored: string | null, sent: string | undefined) => (stored === null ? null : money(String(stored))) === (sent === undefined ? null : parseMoney(sent));
    const same =
      row.symbol === body.tradePair &&
      row.direction === body.orderType &&
      row.price_type === body.buyPoint &&
      row.leverage === body.multiple &&
      money(String(row.volume)) === parseMoney(body.orderQuantity) &&
      (body.buyPoint === PriceType.market || equal(row.limit_price, body.price)) &&
      equal(row.stop_loss, body.stopPrice) &&
      equal(row.take_profit, body.takeProfitPrice);
    if (!same) throw clientOrderReusedError();
    return row.order_no;
  }

  async function execute(trigger: OrderTrigger, tick: RawTick) {
    const row = await orders.findById(trigger.payload.orderId);
    if (!row) return;
    const product = productOf(row.symbol);
    const { kind, armedLevel } = trigger.payload;
    if (kind === 'fill') {
      await executeFill(row, quotePrice(fillPriceOf(row.direction as Direction, tick), product.pricePrecision), tick.timeMs, armedLevel);
    } else {
      await closing.close(row, closePriceOn(row, tick, product), tick.timeMs, kind, { level: kind, at: armedLevel });
    }
  }

  const stopListening = market.onQuote((tick: RawTick) => {
    // A tick that arrives late (a follower's backlog after the broker came back) fires nothing: the triggers wait, armed, for a live one.
    if (!fresh(tick.timeMs)) return;
    for (const trigger of arming.fire(tick)) {
      const work = execute(trigger, tick)
        .catch((error: unknown) => deps.log?.('trigger execution failed', error))
        .finally(() => inFlight.delete(work));
      inFlight.add(work);
    }
  });

  return {
    /** Arms the triggers of every open order (at start). */
    async restore() {
      for (const row of await orders.allOpen()) {
        const product = market.products().find((item) => item.productCode === row.symbol);
        if (product) arming.arm(row, product.pricePrecision);
      }
    },

    /**
     * Another process changed the account's orders (several processes): its open orders are
     * armed here as they are stored now and the others disarmed, so that every process
     * watches them on the same ticks and one that dies leaves none unwatched. Executions are
     * conditional on the armed level under the order's lock, so one fires.
     */
    async rearm(uid: number, book: Book) {
      const open = await orders.openOf(uid, book);
      const openIds = new Set(open.map((row) => row.id));
      for (const row of arming.armedOf(uid, book)) if (!openIds.has(row.id)) arming.disarm(row);
      for (const row of open) {
        const product = market.products().find((item) => item.productCode === row.symbol);
        arming.disarm(row);
        if (product) arming.arm(row, product.pricePrecision);
      }
    },

    /**
     * Places a market or pending order. `sessionLives` is the caller's session check, still
     * running (signed-in.ts): it is awaited with the first reads, before anything is written,
     * and answers whether the user may trade (its read of the user, not asked twice).
     */
    async addOrder(uid: number, book: Book, body: AddOrderBody, sessionLives: Promise<LiveSession>): Promise<string> {
      // The reads before the rules go out together (one round trip's wait on PostgreSQL); they are judged in this order.
      const [{ placedBefore, orderNo }, session, underReview] = await Promise.all([
        // The number now, so that the order's insert and its journal (keyed by it) are one statement.
        orders.nextNumberAndEarlier(uid, book, body.clientOrderId),
        sessionLives,
        // Money under review may leave: the real account waits for the decision (the demo account trades play money).
        book === 'real' ? deps.withdrawalUnderReview(uid) : false,
      ]);
      if (placedBefore) return sameOrder(placedBefore, body);
      const prohibited = session.tradeProhibited;
      const product = productOf(body.tradePair);
      if (prohibited) throw new AppError(ErrorCode.USER_PROHIBITED_FROM_TRADING);
      if (underReview) throw new AppError(ErrorCode.UNREVIEWED_WITHDRAWAL);
      // The catalogue has no code for a mode the brand does not offer; 304 (pair prohibited from trading) is the closest.
      if (!(await deps.marketModeOffered())) throw new AppError(ErrorCode.PAIR_PROHIBITED, 'market mode is not offered');
      const forexMinDeposit = money(deps.forexMinDeposit);
      if (book === 'real' && product.productType === productTypeNumber('Forex') && forexMinDeposit > 0n) {
        // Approved deposits (credited to a currency wallet) and cash credited as a deposit straight to the trading account.
        const deposited = (await deps.depositedUsd(uid)) + (await ledger.totalByJournalKind(uid, 'real', JournalKind.deposit));
        // The figure the server enforces is the one the customer reads (FOREX_MIN_DEPOSIT), never a copy in the texts.
        if (deposited < forexMinDeposit) {
          const minimum = formatMoney(forexMinDeposit, 0);
          throw new AppError(ErrorCode.FOREX_DEPOSIT_REQUIRED, undefined, 200, null, {
            key: 'trade.forex_deposit_required',
            params: { amount: formatAmount(minimum, { grouping: true, decimals: minimum.split('.')[1]?.length ?? 0 }) },
          });
        }
      }
      const volume = parseMoney(body.orderQuantity);
      if (volume === null || volume <= 0n) throw new AppError(ErrorCode.QUANTITY_NOT_POSITIVE);
      // The product's leverage or one of the lower steps (more margin for the same volume).
      if (!leverageAllowed(body.multiple, product.multiple)) throw new AppError(ErrorCode.INCORRECT_PARAMETER_VALUE, 'leverage');
      if (!isTradable(product) || market.status(product.productCode) !== 'open') throw new AppError(ErrorCode.PAIR_PROHIBITED);
      const quote = freshQuote(product.productCode);
      const direction = body.orderType as Direction;
      const current = quotePrice(fillPriceOf(direction, quote), product.pricePrecision);
      const atMarket = body.buyPoint === PriceType.market;
      const limitPrice = atMarket ? null : money(body.price);
      const request = {
        direction,
        priceType: body.buyPoint,
        volume,
        limitPrice,
        // Left out means none; a level of 0 is refused by the rules (313 / 314), never read as none.
        stopLoss: body.stopPrice === undefined ? null : money(body.stopPrice),
        takeProfit: body.takeProfitPrice === undefined ? null : money(body.takeProfitPrice),
      };
      const violation = orderRuleViolation(request, product, current);
      if (violation !== null) throw ruleError(violation, request);
      if (limitPrice !== null && pendingPriceOutsideBand(direction, limitPrice, current)) throw bandError();
      const fillPrice = limitPrice ?? current;
      const margin = marginFor(fillPrice, volume, { contractSize: product.contractSize, multiple: body.multiple });
      // An order that locks nothing could be placed without limit (a buy limit at 0.00000001).
      if (margin <= 0n) throw new AppError(ErrorCode.LOT_SIZE_BELOW_LIMIT);
      const fee = atMarket ? feeFor(fillPrice, volume, product) : 0n;
      const at = new Date(nowMs());
      const row = await db
        .transaction()
        .execute(async (trx: Transaction<Database>) => {
          const cash = await ledger.lockCash(trx, uid, book);
          // Counted under the account's lock: two parallel placements cannot both pass it.
          if (!atMarket && (await orders.countPendingIn(trx, uid, book)) >= deps.maxPendingOrders) {
            throw new AppError(ErrorCode.MAXIMUM_TARGET_VALUE_REACHED, 'pending orders', 200, null, { key: 'trade.pending_orders_limit', params: { count: deps.maxPendingOrders } });
          }
          // Free margin, not only cash: an account whose open losses eat its equity opens nothing new.
          if ((await deps.freeMarginIn(trx, uid, book, cash)) < margin + fee) throw new AppError(ErrorCode.INSUFFICIENT_BALANCE);
          const placing = orders.insertStatement(trx, {
            order_no: orderNo,
            uid,
            book,
            client_order_id: body.clientOrderId,
            symbol: product.productCode,
            direction,
            price_type: body.buyPoint,
            status: atMarket ? OrderStatus.position : OrderStatus.pending,
            volume: formatMoney(volume, 0),
            leverage: body.multiple,
            contract_size: product.contractSize,
            limit_price: limitPrice === null ? null : formatMoney(limitPrice, 0),
            open_price: atMarket ? formatMoney(current, 0) : null,
            stop_loss: request.stopLoss === null ? null : formatMoney(request.stopLoss, 0),
            take_profit: request.takeProfit === null ? null : formatMoney(request.takeProfit, 0),
            margin: formatMoney(margin, 0),
            fee: formatMoney(fee, 0),
            open_tick_ms: atMarket ? String(quote.timeMs) : null,
            created_at: at,
            opened_at: atMarket ? at : null,
          });
          return ledger.lockMarginPlacing(trx, { uid, book, orderNo, margin, fee }, placing);
        })
        .catch((error: unknown) => {
          // A concurrent retry with the same clientOrderId won (the order number comes from a sequence and never collides).
          if (isUniqueViolation(error)) return null;
          if (isCheckViolation(error)) throw new AppError(ErrorCode.INSUFFICIENT_BALANCE);
          throw error;
        });
      if (!row) {
        const winner = await orders.findByClientOrderId(uid, book, body.clientOrderId);
        if (!winner) throw new AppError(ErrorCode.ORDER_SUBMISSION_FAILED);
        return sameOrder(winner, body);
      }
      arming.arm(row, product.pricePrecision);
      changed(uid, book);
      return row.order_no;
    },

    /** Closes an open position by hand at the server's latest price; `sessionLives` as for addOrder (a user barred from trading may still close). */
    async closeOrder(uid: number, book: Book, orderNo: string, sessionLives: Promise<LiveSession>) {
      const [row] = await Promise.all([ownOrder(uid, book, orderNo), sessionLives]);
      if (row.status === OrderStatus.deal) throw new AppError(ErrorCode.POSITION_ALREADY_CLOSED);
      if (row.status !== OrderStatus.position) throw new AppError(ErrorCode.ORDER_STATUS_NOT_CLOSABLE);
      if (row.opened_at && nowMs() < closableAfterMs(row.opened_at.getTime(), deps.minHoldSeconds)) throw new AppError(ErrorCode.MINIMUM_HOLDING_TIME);
      const product = productOf(row.symbol);
      const quote = freshQuote(row.symbol);
      const closed = await closing.close(row, closePriceOn(row, quote, product), quote.timeMs, 'manual');
      // Another close won under the account's locks (the stop-out, a stop loss, another tab): the row is closed, and this answer says so.
      if (closed !== 'closed') throw new AppError(ErrorCode.POSITION_ALREADY_CLOSED);
    },

    /**
     * Moves an open position's stop loss and take profit, or a pending order's limit price
     * and levels, under the placement rules: a position's levels against the price it closes
     * at now, a pending order's against its (new) limit, the limit itself on its side of the
     * market and within the band; a level sent as "" is removed. A moved limit locks the
     * margin it needs (the extra from free margin, else 203) or releases the excess. Under
     * the user's accounts lock and then the order's row lock (the ones a close takes), so a
     * closed or filled order is not edited as it was; the new levels are armed at once.
     * Asking for what the order already has changes nothing and succeeds (a repeat).
     */
    async updateOrder(uid: number, book: Book, body: UpdateOrderBody) {
      const found = await ownOrder(uid, book, body.orderId);
      const product = productOf(found.symbol);
      const direction = found.direction as Direction;
      const stored = (value: string | null) => (value === null ? null : money(String(value)));
      const updated = await db.transaction().execute(async (trx) => {
        // The ledger's lock order: the user's accounts, then the order.
        const cash = await ledger.lockCash(trx, uid, book);
        const row = await orders.lockByIdIn(trx, found.id);
        if (!row || (row.status !== OrderStatus.position && row.status !== OrderStatus.pending)) throw new AppError(ErrorCode.ORDER_STATUS_NOT_CLOSABLE);
        const pending = row.status === OrderStatus.pending;
        if (body.price !== undefined && !pending) throw new AppError(ErrorCode.INCORRECT_PARAMETER_VALUE, 'price of a position');
        // Left out: kept; "": removed; a price: moved.
        const edited = (edit: string | undefined, current: string | null) =>
          edit === undefined ? stored(current) : edit === levelRemoved ? null : money(edit);
        const levels = { stopLoss: edited(body.stopPrice, row.stop_loss), takeProfit: edited(body.takeProfitPrice, row.take_profit) };
        const oldLimit = stored(row.limit_price);
        const limit = body.price === undefined ? oldLimit : money(body.price);
        const heldMargin = money(String(row.margin));
        let margin = heldMargin;
        if (pending && limit !== null && limit !== oldLimit) {
          const moved = pendingPriceViolation(direction, limit, quotePrice(fillPriceOf(direction, freshQuote(row.symbol)), product.pricePrecision));
          if (moved === 'band') throw bandError();
          if (moved !== null) throw new AppError(moved as ErrorCode);
          // The order holds the margin its new price needs: the extra must fit in the free margin.
          margin = marginFor(limit, money(String(row.volume)), { contractSize: product.contractSize, multiple: row.leverage });
          if (margin > heldMargin && (await deps.freeMarginIn(trx, uid, book, cash)) < margin - heldMargin) {
            throw new AppError(ErrorCode.INSUFFICIENT_BALANCE, 'moved pending price needs more margin than is free');
          }
        }
        const reference = pending ? { kind: 'pending' as const, price: limit ?? 0n } : { kind: 'market' as const, price: closePriceOn(row, freshQuote(row.symbol), product) };
        const violation = protectionRuleViolation(direction, reference, levels);
        if (violation !== null) throw ruleError(violation, levels);
        const unchanged = levels.stopLoss === stored(row.stop_loss) && levels.takeProfit === stored(row.take_profit) && limit === oldLimit;
        if (unchanged) return null;
        const units = (value: Units | null) => (value === null ? null : formatMoney(value, 0));
        const after = await orders.updateLevelsIn(trx, row.id, row.status, {
          stop_loss: units(levels.stopLoss), take_profit: units(levels.takeProfit), limit_price: units(limit), margin: formatMoney(margin, 0),
        });
        if (!after) throw new AppError(ErrorCode.ORDER_STATUS_NOT_CLOSABLE);
        await ledger.adjustMargin(trx, { ...orderRef(row), from: heldMargin, to: margin });
        return after;
      }).catch((error: unknown) => {
        // Cash short of the extra margin (free margin counted an open profit): refused, nothing changed.
        if (isCheckViolation(error)) throw new AppError(ErrorCode.INSUFFICIENT_BALANCE);
        throw error;
      });
      if (updated === null) return;
      // The old levels stop watching; the new ones watch from the next tick.
      arming.disarm(updated);
      arming.arm(updated, product.pricePrecision);
      changed(uid, book);
    },

    async cancelOrder(uid: number, book: Book, orderNo: string) {
      const row = await ownOrder(uid, book, orderNo);
      if (row.price_type !== PriceType.pending) throw new AppError(ErrorCode.ORDER_TYPE_NOT_CANCELLABLE);
      if (row.status !== OrderStatus.pending) throw new AppError(ErrorCode.ORDER_STATUS_NOT_CANCELLABLE);
      if (!(await cancelRow(row, 'canceled'))) throw new AppError(ErrorCode.ORDER_STATUS_NOT_CANCELLABLE);
    },

    /**
     * A page of orders in one status, or under one of the history's filters, with the result of
     * every closed order: in total and today (UTC), summed in the database.
     */
    async history(uid: number, book: Book, query: { page: number; limit: number; positionStatus: number; columns: readonly OrderTimeColumn[]; filter?: HistoryFilter | undefined }) {
      const selection = query.filter === undefined ? { statuses: [query.positionStatus] } : historySelectionOf(query.filter);
      const dayStart = new Date(nowMs());
      dayStart.setUTCHours(0, 0, 0, 0);
      const [page, results] = await Promise.all([
        orders.historyPage(uid, book, selection, query.columns, query.limit, (query.page - 1) * query.limit),
        orders.closedResults(uid, book, dayStart),
      ]);
      const names = new Map(market.products().map((product) => [product.productCode, product.productName]));
      return {
        list: page.rows.map((row) => orderView(row, names.get(row.symbol) ?? row.symbol, deps.minHoldSeconds)),
        pages: Math.ceil(page.count / query.limit),
        profitLossToday: formatMoney(money(results.today)),
        profitLossTotal: formatMoney(money(results.total)),
      };
    },

    /** The transaction list: the book's orders newest first, any status unless one is asked for, or the one order `uid` of the book. */
    async list(uid: number, book: Book, query: { page: number; limit: number; positionStatus?: number | undefined; uid?: string | undefined; columns: readonly OrderTimeColumn[] }) {
      const filter = { status: query.positionStatus, orderNo: query.uid };
      const page = await orders.listPage(uid, book, filter, query.columns, query.limit, (query.page - 1) * query.limit);
      const names = new Map(market.products().map((product) => [product.productCode, product.productName]));
      return { list: page.rows.map((row) => orderView(row, names.get(row.symbol) ?? row.symbol, deps.minHoldSeconds)), pages: Math.ceil(page.count / query.limit) };
    },

    /** The account's open positions and pending orders, newest first (the back office's customer page). */
    async openOrders(uid: number, book: Book) {
      const rows = await orders.openNewestFirst(uid, book);
      const names = new Map(market.products().map((product) => [product.productCode, product.productName]));
      return rows.map((row) => orderView(row, names.get(row.symbol) ?? row.symbol, deps.minHoldSeconds));
    },

    /** Closes the worst position of every account below the stop-out level (see stop-out.ts); answers how many. */
    checkStopOuts: stopOut.checkStopOuts,

    /** Charges one day's overnight fee of every open position (see overnight.ts); answers how many paid. */
    chargeOvernight: overnight.chargeOvernight,

    /**
     * Demo reset, inside the reset's transaction (which holds the demo accounts): open demo
     * orders end without money moving; the reset's one journal then sets the demo balance
     * and clears the margin they held. Answers what to do once the reset has committed.
     */
    async endDemoOrdersIn(trx: Transaction<Database>, uid: number): Promise<() => void> {
      const open = await orders.lockOpenIn(trx, uid, 'demo');
      const closedAt = new Date(nowMs());
      for (const row of open) await orders.endForDemoResetIn(trx, row, closedAt);
      return () => {
        for (const row of open) arming.disarm(row);
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
