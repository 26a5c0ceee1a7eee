import type { Kysely, Transaction } from 'kysely';
import {
  OptionStatus,
  optionSettledLimitMax,
  type AddOptionOrderBody,
  type AddOptionOrderData,
  type OptionOrder,
  type OptionOrderListBody,
  type OptionOrderListData,
  type OptionProduct,
} from '../../../src/shared/api/options';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { divideRounded, formatMoney, money, parseMoney, type Units } from '../../../src/shared/money/money';
import { optionFee, optionPlacementViolation, parseTimeRatePayload, settleOption, type OptionDirection } from '../../../src/shared/options/option-rules';
import type { Book, Database } from '../../db/schema';
import { AppError, clientOrderReusedError } from '../../http/app-error';
import type { MarketDataService } from '../../market/market-data-service';
import { cashKind } from '../account/account-service';
import { nextOrderNumber } from '../trading/order-number';
import type { AccountRef, JournalInput, Ledger } from '../ledger/ledger';
import { createOptionsRepository, type OptionOrderRow, type SettledValues, type SettlementTick } from './options-repository';
import { createSettlementScheduler } from './settlement-scheduler';
import { createTickRecorder } from './tick-recorder';

/** A user's amounts in running options (per book). */
export const optionEscrowKind = 'option-escrow';
/** The house's side of option results: it pays the profit of a win and keeps the amount of a loss. */
export const optionResultKind = 'option-pnl';
const feesKind = 'fees';

const uniqueViolation = '23505';
const checkViolation = '23514';
/** PostgreSQL's deadlock and serialization failures: the transaction may simply be run again. */
const retryableCodes = new Set(['40P01', '40001']);
const settlementAttempts = 3;
const hourMs = 3_600_000;

export interface OptionSettings {
  /** The stale threshold of market orders: for the start price (601) and the settlement price (void). */
  stalePriceMs: number;
  settlementGraceMs: number;
  settlementBatch: number;
  settlementSweepMs: number;
  tickFlushMs: number;
  tickBufferMax: number;
  tickRetentionHours: number;
}

export function optionView(row: OptionOrderRow, productName: string): OptionOrder {
  const decimal = (value: string) => formatMoney(money(String(value)));
  const time = (value: string | number | null) => (value === null ? null : Number(value));
  return {
    id: row.id,
    uid: row.order_no,
    orderType: row.direction,
    tradePair: row.symbol,
    productName,
    optionsProductId: row.option_product_id,
    price: decimal(row.start_price),
    priceTime: Number(row.start_tick_ms),
    priceEnd: row.end_price === null ? null : decimal(row.end_price),
    priceEndTime: time(row.end_tick_ms),
    feeAmount: decimal(row.fee),
    timeLong: row.time_long,
    beginTime: Number(row.begin_ms),
    endTime: Number(row.end_ms),
    completeTime: time(row.settled_ms),
    amount: decimal(row.amount),
    // Stored in percent as placed; shown as the fraction the placement sent.
    rate: formatMoney(divideRounded(money(String(row.profit_rate)), 100n)),
    winLost: row.win_lost === null ? null : decimal(row.win_lost),
    status: row.status === OptionStatus.settled ? 1 : 0,
    result: row.outcome === 'win' || row.outcome === 'loss' || row.outcome === 'equal' || row.outcome === 'void' ? row.outcome : null,
    voidReason: row.void_reason,
  };
}

interface Computed {
  row: OptionOrderRow;
  values: SettledValues;
  journal: JournalInput;
}

/**
 * Timed options: products, placement at the server's latest tick with the amount and fee
 * moved in the ledger in the order's transaction, and settlement exactly once on the
 * recorded tick at each option's end time (timers per second, a catch-up at start).
 */
export function createOptionsService(deps: {
  db: Kysely<Database>;
  ledger: Ledger;
  market: MarketDataService;
  settings: OptionSettings;
  nowMs?: () => number;
  log?: (message: string, error?: unknown) => void;
  /** An option of (uid, book) was placed or settled (the exchange socket's `option` message). */
  onOrder?: (uid: number, book: Book, order: OptionOrder) => void;
  /** The money of (uid, book) changed (the positions feed's summary). */
  onChange?: (uid: number, book: Book) => void;
  /** The account's free margin (equity − locked margin) inside a transaction that holds its accounts. */
  freeMarginIn?: (trx: Transaction<Database>, uid: number, book: Book, lockedCash: Units) => Promise<Units>;
}) {
  const { db, ledger, market, settings } = deps;
  const nowMs = deps.nowMs ?? Date.now;
  const repository = createOptionsRepository(db);
  const recorder = createTickRecorder({ repository, market, flushMs: settings.tickFlushMs, bufferMax: settings.tickBufferMax, ...(deps.log ? { log: deps.log } : {}) });
  const accountIds = new Map<string, number>();
  let lastPruneMs = 0;

  const cash = (uid: number, book: Book): AccountRef => ({ owner: uid, book, kind: cashKind });
  const escrow = (uid: number, book: Book): AccountRef => ({ owner: uid, book, kind: optionEscrowKind });
  const house = (book: Book, kind: string): AccountRef => ({ owner: null, book, kind });

  /** Ledger accounts are never deleted: their ids are kept once known. */
  async function accountIdOf(ref: AccountRef): Promise<number> {
    const key = `${ref.owner ?? ''}|${ref.book}|${ref.kind}`;
    let id = accountIds.get(key);
    if (id === undefined) {
      id = await ledger.accountId(ref);
      accountIds.set(key, id);
    }
    return id;
  }

  function productNames(): Map<string, string> {
    return new Map(market.products().map((product) => [product.productCode, product.productName]));
  }

  function told(rows: readonly OptionOrderRow[]) {
    const names = productNames();
    const accounts = new Map<string, { uid: number; book: Book }>();
    for (const row of rows) {
      deps.onOrder?.(row.uid, row.book, optionView(row, names.get(row.symbol) ?? row.symbol));
      accounts.set(`${row.uid}|${row.book}`, { uid: row.uid, book: row.book });
    }
    for (const account of accounts.values()) deps.onChange?.(account.uid, account.book);
  }

  /** What an option's settlement records and posts: on its end tick, or void (refund of amount and fee). */
  function compute(row: OptionOrderRow, tick: { ms: number; price: string } | null, voidReason: string | null): Computed {
    const amount = money(String(row.amount));
    const fee = money(String(row.fee));
    const { uid, book } = row;
    const key = `option-settle:${row.order_no}`;
    const base = { idempotencyKey: key, book, uid, reference: row.order_no };
    if (voidReason !== null || tick === null) {
      return {
        row,
        values: { id: row.id, endPrice: null, endTickMs: null, outcome: 'void', voidReason: voidReason ?? 'no-price', winLost: '0' },
        journal: {
          ...base,
          kind: 'option-void',
          postings: [
            { account: escrow(uid, book), amount: -amount },
            { account: house(book, feesKind), amount: -fee },
            { account: cash(uid, book), amount: amount + fee },
          ],
        },
      };
    }
    const result = settleOption(row.direction as OptionDirection, amount, String(row.profit_rate), money(String(row.start_price)), money(tick.price));
    const values: SettledValues = { id: row.id, endPrice: tick.price, endTickMs: tick.ms, outcome: result.outcome, voidReason: null, winLost: formatMoney(result.winLost, 0) };
    // Escrow out; the payout to cash; the house takes the difference (the profit it pays is negative).
    const postings = [
      { account: escrow(uid, book), amount: -amount },
      { account: cash(uid, book), amount: result.payout },
      { account: house(book, optionResultKind), amount: amount - result.payout },
    ];
    return { row, values, journal: { ...base, kind: `option-${result.outcome}`, postings } };
  }

  /** The settlement of a due option: its recorded end tick, unless none lies within the stale threshold before its end. */
  function computeDue(option: OptionOrderRow, tick: SettlementTick | null): Computed {
    const endMs = Number(option.end_ms);
    if (tick === null || tick.ms < endMs - settings.stalePriceMs) return compute(option, null, 'no-price');
    return compute(option, { ms: tick.ms, price: formatMoney(money(tick.price), 0) }, null);
  }

  function isRetryable(error: unknown) {
    return retryableCodes.has((error as { code?: string }).code ?? '');
  }

  /**
   * Settles one batch in one transaction: the options still running are locked (id order),
   * then the ledger accounts they touch (id order), flipped running → settled in one
   * conditional update, and only the ones this transaction flipped post their journal
   * (all of them in a few statements).
   * Answers the rows it settled, as settled.
   */
  async function settleBatch(batch: readonly Computed[]): Promise<OptionOrderRow[]> {
    if (batch.length === 0) return [];
    const ids = batch.map((each) => each.row.id).sort((a, b) => a - b);
    const accounts = new Set<number>();
    for (const each of batch) for (const posting of each.journal.postings) if (posting.amount !== 0n) accounts.add(await accountIdOf(posting.account));
    const settledMs = nowMs();
    for (let attempt = 1; ; attempt += 1) {
      try {
        const done = await db.transaction().execute(async (trx) => {
          const running = await repository.lockRunning(trx, ids);
          const mine = batch.filter((each) => running.has(each.row.id));
          if (mine.length === 0) return [];
          await repository.lockAccounts(trx, [...accounts].sort((a, b) => a - b));
          const flipped = await repository.markSettled(trx, mine.map((each) => each.values), settledMs);
          const settled = mine.filter((each) => flipped.has(each.row.id));
          await ledger.postManyInTransaction(trx, settled.map((each) => each.journal), accountIdOf);
          return settled;
        });
        return done.map(({ row, values }) => ({
          ...row,
          status: OptionStatus.settled,
          end_price: values.endPrice,
          end_tick_ms: values.endTickMs,
          outcome: values.outcome,
          void_reason: values.voidReason,
          win_lost: values.winLost,
          settled_ms: settledMs,
        }));
      } catch (error) {
        if (attempt < settlementAttempts && isRetryable(error)) continue;
        throw error;
      }
    }
  }

  /** Settles every option due now (end time plus the grace passed), batch by batch. */
  async function settleDue(): Promise<number> {
    await recorder.flush();
    const cutoff = nowMs() - settings.settlementGraceMs;
    let after: { endMs: number; id: number } | null = null;
    let count = 0;
    for (;;) {
      const due = await repository.dueOptions(cutoff, settings.settlementBatch, after);
      const last = due.at(-1);
      if (!last) break;
      after = { endMs: Number(last.end_ms), id: last.id };
      // One lookup per distinct (symbol, end time): options ending together share their tick.
      const instants = new Map(due.map((option) => [`${option.symbol}|${Number(option.end_ms)}`, { symbol: option.symbol, ms: Number(option.end_ms) }]));
      const ticks = await repository.settlementTicks([...instants.values()]);
      const batch = due.map((option) => computeDue(option, ticks.get(`${option.symbol}|${Number(option.end_ms)}`) ?? null));
      let settled: OptionOrderRow[];
      try {
        settled = await settleBatch(batch);
      } catch (error) {
        // One bad option must not hold back the others: the batch is retried one by one.
        deps.log?.('option settlement batch failed; settling one by one', error);
        settled = [];
        for (const each of batch) {
          try {
            settled.push(...(await settleBatch([each])));
          } catch (single) {
            deps.log?.(`option ${each.row.order_no} could not be settled`, single);
          }
        }
      }
      told(settled);
      count += settled.length;
      if (due.length < settings.settlementBatch) break;
    }
    await pruneTicks();
    return count;
  }

  /** At most hourly: ticks older than the retention and than any running option's need. */
  async function pruneTicks() {
    const now = nowMs();
    if (now - lastPruneMs < hourMs) return;
    lastPruneMs = now;
    const earliest = await repository.earliestRunningEnd();
    let cutoff = now - settings.tickRetentionHours * hourMs;
    if (earliest !== null) cutoff = Math.min(cutoff, earliest - settings.stalePriceMs);
    await repository.pruneTicks(cutoff);
  }

  const scheduler = createSettlementScheduler({
    settle: settleDue,
    graceMs: settings.settlementGraceMs,
    sweepMs: settings.settlementSweepMs,
    nowMs,
    ...(deps.log ? { log: deps.log } : {}),
  });

  async function ownOrder(uid: number, book: Book, orderNo: string): Promise<OptionOrderRow> {
    const row = await repository.findByOrderNo(orderNo);
    // Another user's option answers as a missing one: order numbers reveal nothing.
    if (!row || row.book !== book || row.uid !== uid) throw new AppError(ErrorCode.ORDER_NOT_FOUND);
    return row;
  }

  const placed = (row: OptionOrderRow): AddOptionOrderData => ({ uid: row.order_no, beginTime: Number(row.begin_ms) });

  /** A retry under a used clientOrderId answers its option only when it asks for the same option. */
  function samePlacement(row: OptionOrderRow, body: AddOptionOrderBody): AddOptionOrderData {
    const amount = parseMoney(body.amount);
    const rate = parseMoney(body.rate);
    const same =
      row.symbol === body.tradePair &&
      row.direction === body.orderType &&
      row.option_product_id === body.optionsProductId &&
      row.time_long === body.timeLong &&
      rate !== null &&
      rate * 100n === money(String(row.profit_rate)) &&
      amount !== null &&
      money(String(row.amount)) === amount;
    if (!same) throw clientOrderReusedError();
    return placed(row);
  }

  return {
    /** Records and schedules every running option, then settles those that ended while the server was down. */
    async start() {
      for (const option of await repository.runningSchedule()) {
        recorder.watch(option.symbol, Number(option.end_ms));
        scheduler.schedule(Number(option.end_ms));
      }
      await scheduler.run();
    },

    async products(query: { limit: number; page: number; productCode?: string | undefined }): Promise<{ optionsProducts: OptionProduct[] }> {
      const names = productNames();
      const rows = await repository.productPage(query);
      return {
        optionsProducts: rows.map((row) => ({
          id: row.id,
          productCode: row.product_code,
          productName: names.get(row.product_code) ?? row.product_code,
          tradeStatus: row.trade_status === 1 ? 1 : 0,
          feeRate: formatMoney(money(String(row.fee_rate))),
          timeRatePayload: row.time_rate_payload,
        })),
      };
    },

    async place(uid: number, book: Book, body: AddOptionOrderBody): Promise<AddOptionOrderData> {
      const existing = await repository.findByClientOrderId(uid, book, body.clientOrderId);
      if (existing) return samePlacement(existing, body);
      const user = await db.selectFrom('app_user').select('trade_prohibited').where('uid', '=', uid).executeTakeFirst();
      if (!user || user.trade_prohibited) throw new AppError(ErrorCode.USER_PROHIBITED_FROM_TRADING);

      const products = await repository.listProducts();
      const symbol = body.tradePair;
      const optionProduct = products.find((product) => product.product_code === symbol) ?? null;
      const pairExists = market.knownSymbol(symbol);
      const marketProduct = pairExists ? market.products().find((product) => product.productCode === symbol) : undefined;
      // The id the client sent must be the pair's product: another pair's is no configuration for this one.
      const product = optionProduct && optionProduct.id === body.optionsProductId ? optionProduct : null;
      const entries = product ? parseTimeRatePayload(product.time_rate_payload).entries : [];
      const balance = await ledger.balance(cash(uid, book));
      const violation = optionPlacementViolation({
        anyConfiguration: products.length > 0,
        pairExists,
        product: product ? { tradeStatus: product.trade_status, feeRate: String(product.fee_rate), entries } : null,
        marketOpen: marketProduct?.tradeStatus === 1 && market.status(symbol) === 'open',
        timeLong: body.timeLong,
        rate: body.rate,
        amount: body.amount,
        balance,
      });
      if (violation) throw new AppError(violation.code as ErrorCode, violation.rule);
      const entry = entries.find((each) => each.timeLong === body.timeLong);
      if (!product || !entry || !marketProduct) throw new Error('option placement passed its rules without a product'); // only a bug reaches this

      const quote = market.latestQuote(symbol);
      const now = nowMs();
      if (!quote || now - quote.timeMs > settings.stalePriceMs) throw new AppError(ErrorCode.OPTION_CURRENT_PRICE_ERROR);
      const start = recorder.recorded(quote);
      if (!start) throw new AppError(ErrorCode.OPTION_CURRENT_PRICE_ERROR);
      const amount = money(body.amount);
      const fee = optionFee(amount, String(product.fee_rate));
      const endMs = now + entry.timeLong * 1000;
      const insert = () =>
        db.transaction().execute(async (trx) => {
          const balances = await ledger.lockOwnerAccounts(trx, uid, book);
          // Free margin, not only cash: money an account's open losses need cannot go into options.
          if (deps.freeMarginIn && (await deps.freeMarginIn(trx, uid, book, balances.get(cashKind) ?? 0n)) < amount + fee) throw new AppError(ErrorCode.INSUFFICIENT_BALANCE);
          const orderNo = await nextOrderNumber(trx, 19);
          const inserted = await repository.insertOrder(trx, {
            order_no: orderNo,
            uid,
            book,
            client_order_id: body.clientOrderId,
            option_product_id: product.id,
            symbol,
            direction: body.orderType,
            time_long: entry.timeLong,
            profit_rate: entry.profitRate,
            amount: formatMoney(amount, 0),
            fee: formatMoney(fee, 0),
            start_price: start.price,
            start_tick_ms: quote.timeMs,
            begin_ms: now,
            end_ms: endMs,
          });
          // The start tick is recorded with the option: the symbol may not have been recorded before.
          await repository.insertTicks([start], trx);
          await ledger.postInTransaction(trx, {
            idempotencyKey: `option-open:${orderNo}`,
            book,
            kind: 'option-open',
            uid,
            reference: orderNo,
            postings: [
              { account: cash(uid, book), amount: -(amount + fee) },
              { account: escrow(uid, book), amount },
              { account: house(book, feesKind), amount: fee },
            ],
          });
          return inserted;
        });

      let row: OptionOrderRow;
      try {
        row = await insert();
      } catch (error) {
        if (error instanceof AppError) throw error;
        const code = (error as { code?: string }).code;
        if (code === checkViolation) throw new AppError(ErrorCode.INSUFFICIENT_BALANCE);
        // A concurrent retry with the same clientOrderId won (order numbers come from a sequence and never collide).
        const winner = code === uniqueViolation ? await repository.findByClientOrderId(uid, book, body.clientOrderId) : undefined;
        if (winner) return samePlacement(winner, body);
        deps.log?.('option placement failed', error);
        throw new AppError(ErrorCode.OPTION_ORDER_SUBMISSION_FAILED);
      }
      recorder.watch(symbol, endMs);
      scheduler.schedule(endMs);
      told([row]);
      return placed(row);
    },

    async order(uid: number, book: Book, orderNo: string): Promise<OptionOrder> {
      const row = await ownOrder(uid, book, orderNo);
      return optionView(row, productNames().get(row.symbol) ?? row.symbol);
    },

    async completed(uid: number, book: Book, orderNo: string): Promise<{ completed: boolean }> {
      const row = await ownOrder(uid, book, orderNo);
      return { completed: row.status === OptionStatus.settled };
    },

    async orderList(uid: number, book: Book, query: OptionOrderListBody): Promise<OptionOrderListData> {
      const limit = query.positionStatus === OptionStatus.settled ? Math.min(query.limit, optionSettledLimitMax) : query.limit;
      const dayStart = new Date(nowMs());
      dayStart.setUTCHours(0, 0, 0, 0);
      const [page, sums] = await Promise.all([
        repository.page(uid, book, query.positionStatus, limit, (query.page - 1) * limit),
        repository.winLossSums(uid, book, dayStart.getTime()),
      ]);
      const names = productNames();
      return {
        items: page.rows.map((row) => optionView(row, names.get(row.symbol) ?? row.symbol)),
        pages: Math.ceil(page.count / limit),
        todayWinLoss: formatMoney(money(sums.today)),
        totalWinLoss: formatMoney(money(sums.total)),
      };
    },

    /** Settles what is due now (timers, the sweep and tests call it); answers how many. */
    settleDue: () => scheduler.run(),

    /**
     * Demo reset, first inside the reset's transaction (before it locks the accounts: the
     * settlement's lock order): running demo options end void without money moving; the
     * reset's one journal then empties their escrow. Answers what to tell after the commit.
     */
    async endDemoOptionsIn(trx: Transaction<Database>, uid: number): Promise<() => void> {
      const running = await repository.lockRunningOf(trx, uid, 'demo');
      if (running.length === 0) return () => undefined;
      const settledMs = nowMs();
      const values = running.map((row) => ({ id: row.id, endPrice: null, endTickMs: null, outcome: 'void' as const, voidReason: 'demo-reset', winLost: '0' }));
      await repository.markSettled(trx, values, settledMs);
      const ended = running.map((row) => ({ ...row, status: OptionStatus.settled, outcome: 'void', void_reason: 'demo-reset', win_lost: '0', settled_ms: settledMs }));
      return () => told(ended);
    },

    /** What the user's escrow must hold for its options still running (read under the account's lock). */
    async heldIn(trx: Transaction<Database>, uid: number, book: Book): Promise<Map<string, bigint>> {
      const rows = await trx.selectFrom('option_order').select('amount').where('uid', '=', uid).where('book', '=', book).where('status', '=', OptionStatus.running).execute();
      return new Map([[optionEscrowKind, rows.reduce((sum, row) => sum + money(String(row.amount)), 0n)]]);
    },

    /**
     * Negative-balance protection (trading): the account's running options, locked before
     * its ledger accounts; when the account is closed out they end void with their amount
     * back to cash (the fee is kept), in the closing transaction.
     */
    async lockRunningIn(trx: Transaction<Database>, uid: number, book: Book) {
      const running = await repository.lockRunningOf(trx, uid, book);
      if (running.length === 0) return null;
      return {
        async voidIn(reason: string) {
          const settledMs = nowMs();
          await repository.markSettled(trx, running.map((row) => ({ id: row.id, endPrice: null, endTickMs: null, outcome: 'void' as const, voidReason: reason, winLost: '0' })), settledMs);
          const journals: JournalInput[] = running.map((row) => ({
            idempotencyKey: `option-settle:${row.order_no}`,
            book,
            kind: 'option-void',
            uid,
            reference: row.order_no,
            postings: [
              { account: escrow(uid, book), amount: -money(String(row.amount)) },
              { account: cash(uid, book), amount: money(String(row.amount)) },
            ],
          }));
          const amount = running.reduce((sum, row) => sum + money(String(row.amount)), 0n);
          const ended = running.map((row) => ({ ...row, status: OptionStatus.settled, outcome: 'void', void_reason: reason, win_lost: '0', settled_ms: settledMs }));
          return { amount, journals, after: () => told(ended) };
        },
      };
    },

    /** Writes the recorded ticks held in memory now (another instance may settle on them). */
    flushTicks: () => recorder.flush(),

    async stop() {
      await scheduler.stop();
      await recorder.stop();
    },
  };
}

export type OptionsService = ReturnType<typeof createOptionsService>;

