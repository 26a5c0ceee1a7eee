import type { Kysely, Transaction } from 'kysely';
import { OptionStatus, optionSettledLimitMax, type OptionOrder, type OptionOrderListBody, type OptionOrderListData, type OptionProduct } from '../../../src/shared/api/options';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { isTradable, TradeStatus } from '../../../src/shared/market/tradability';
import { formatMoney, money, parseMoney, type Units } from '../../../src/shared/money/money';
import { demoResetVoidReason, parseTimeRatePayload } from '../../../src/shared/options/option-rules';
import type { Executor } from '../../db/after-commit';
import type { Book, Database } from '../../db/schema';
import { AppError } from '../../http/app-error';
import type { MarketDataService } from '../market/market-data-service';
import type { Ledger } from '../ledger/ledger';
import { optionVoidedJournal } from '../ledger/ledger-journals';
import { UserAccountKind } from '../ledger/ledger-kinds';
import type { FreeMarginRead } from '../trading/free-margin';
import { createOptionPlacement } from './option-placement';
import { asSettled, createOptionSettlement } from './option-settlement';
import { optionView } from './option-view';
import { createOptionsRepository, type OptionOrderRow, type OptionProductRow, type SettledValues } from './options-repository';
import { createTickRecorder } from './tick-recorder';

export { optionView } from './option-view';

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

/** What a voided option is settled with: no end price, no result. */
const voidedBy = (reason: string): Omit<SettledValues, 'id'> => ({ endPrice: null, endTickMs: null, outcome: 'void', voidReason: reason, winLost: '0' });

/**
 * Timed options: products, placement at the server's latest tick with the amount and fee
 * moved by the ledger's verbs in the order's transaction (option-placement.ts), and
 * settlement exactly once on the recorded tick at each option's end time
 * (option-settlement.ts: timers per second, a catch-up at start).
 */
export function createOptionsService(deps: {
  db: Kysely<Database>;
  ledger: Ledger;
  market: MarketDataService;
  settings: OptionSettings;
  /** The account's free margin (equity − locked margin) inside a transaction that holds its accounts. */
  freeMarginIn: FreeMarginRead;
  /** Whether the user has a withdrawal awaiting review: the real account cannot trade then (406). */
  withdrawalUnderReview: (uid: number) => Promise<boolean>;
  /** Whether the brand offers option mode now (its switches). */
  optionModeOffered: () => Promise<boolean>;
  nowMs?: () => number;
  log?: (message: string, error?: unknown) => void;
  /** An option of (uid, book) was placed or settled (the exchange socket's `option` message). */
  onOrder?: (uid: number, book: Book, order: OptionOrder) => void;
  /** The money of (uid, book) changed (the positions feed's summary). */
  onChange?: (uid: number, book: Book) => void;
  /**
   * Whether this process records ticks and settles (with several processes, only the jobs
   * leader: one process at a time acts, and the conditional settlement makes each option
   * settle once even if two ever overlapped).
   */
  jobsLeading?: () => boolean;
  /** Fences each settlement's transaction under the jobs lease (the cluster's `jobs.fenceIn`); none for a process alone. */
  jobsFence?: (trx: Kysely<Database>) => Promise<void>;
  /** An option was placed here: tell the process that settles it (another one, with several). */
  onScheduled?: (symbol: string, endMs: number) => void;
}) {
  const { db, ledger, market, settings } = deps;
  const nowMs = deps.nowMs ?? Date.now;
  const log = deps.log ? { log: deps.log } : {};
  const repository = createOptionsRepository(db);
  const jobsLeading = deps.jobsLeading ?? (() => true);
  const recorder = createTickRecorder({ repository, market, flushMs: settings.tickFlushMs, bufferMax: settings.tickBufferMax, active: jobsLeading, ...log });

  function productView(row: OptionProductRow, names: ReadonlyMap<string, string>): OptionProduct {
    return {
      id: row.id,
      productCode: row.product_code,
      productName: names.get(row.product_code) ?? row.product_code,
      tradeStatus: isTradable({ tradeStatus: row.trade_status }) ? TradeStatus.tradable : TradeStatus.prohibited,
      feeRate: formatMoney(money(String(row.fee_rate))),
      timeRatePayload: row.time_rate_payload,
    };
  }

  function productNames(): Map<string, string> {
    return new Map(market.products().map((product) => [product.productCode, product.productName]));
  }

  /** Tells each option's owner about it, then each account once that its money changed. */
  function told(rows: readonly OptionOrderRow[]) {
    const names = productNames();
    const accounts = new Map<string, { uid: number; book: Book }>();
    for (const row of rows) {
      deps.onOrder?.(row.uid, row.book, optionView(row, names.get(row.symbol) ?? row.symbol));
      accounts.set(`${row.uid}|${row.book}`, { uid: row.uid, book: row.book });
    }
    for (const account of accounts.values()) deps.onChange?.(account.uid, account.book);
  }

  const settlement = createOptionSettlement({ db, ledger, repository, recorder, settings, nowMs, told, active: jobsLeading, ...(deps.jobsFence ? { fence: deps.jobsFence } : {}), ...log });
  const placement = createOptionPlacement({
    db,
    ledger,
    market,
    repository,
    recorder,
    stalePriceMs: settings.stalePriceMs,
    freeMarginIn: deps.freeMarginIn,
    withdrawalUnderReview: deps.withdrawalUnderReview,
    optionModeOffered: deps.optionModeOffered,
    nowMs,
    schedule: (symbol, endMs) => {
      settlement.schedule(endMs);
      deps.onScheduled?.(symbol, endMs);
    },
    told,
    ...log,
  });

  async function ownOrder(uid: number, book: Book, orderNo: string): Promise<OptionOrderRow> {
    const row = await repository.findByOrderNo(orderNo);
    // Another user's option answers as a missing one: order numbers reveal nothing.
    if (!row || row.book !== book || row.uid !== uid) throw new AppError(ErrorCode.ORDER_NOT_FOUND);
    return row;
  }

  return {
    /** An option placed on another process: record its symbol's ticks until its end, and settle it then. */
    watch(symbol: string, endMs: number) {
      recorder.watch(symbol, endMs);
      settlement.schedule(endMs);
    },

    /**
     * Records and schedules every running option, then settles those that ended while the
     * server was down (at start, and when this process takes the jobs over).
     */
    async start() {
      for (const option of await repository.runningSchedule()) {
        recorder.watch(option.symbol, Number(option.end_ms));
        settlement.schedule(Number(option.end_ms));
      }
      await settlement.run();
    },

    async products(query: { limit: number; page: number; productCode?: string | undefined }): Promise<{ optionsProducts: OptionProduct[] }> {
      const names = productNames();
      const rows = await repository.productPage(query);
      return { optionsProducts: rows.map((row) => productView(row, names)) };
    },

    /** Every option product (the back office's list). */
    async allProducts(): Promise<OptionProduct[]> {
      const names = productNames();
      return (await repository.listProducts()).map((row) => productView(row, names));
    },

    /**
     * The brand's option products (one per symbol of its catalogue with options) and its terms
     * for each (its seed.json), at the first start: each keeps its trade status and takes the brand's fee rate and delivery times, checked as a
     * staff change is.
     */
    async seedProductTerms(terms: { feeRate: string; timeRates: Record<string, string> }, symbols: readonly string[]) {
      await db.transaction().execute(async (trx) => {
        await repository.setProductSymbols(trx, symbols, { feeRate: terms.feeRate, timeRatePayload: terms.timeRates });
        const products = await repository.listProducts(trx);
        for (const product of products) {
          await this.setProduct(trx, { id: product.id, tradeStatus: product.trade_status === 0 ? 0 : 1, feeRate: terms.feeRate, timeRatePayload: terms.timeRates });
        }
      });
    },

    /**
     * Changes an option product's trade status, fee rate and delivery times in the caller's
     * transaction: refused with INCORRECT_PARAMETER_VALUE when the fee rate is not in [0, 1)
     * or any `timeRatePayload` entry breaks the shared rules (option-rules.ts), or it has
     * none; an unknown id DATA_NOT_FOUND. Placement reads the product at each order, so the
     * next one uses the new terms. Answers the product before and after.
     */
    async setProduct(executor: Executor, change: { id: number; tradeStatus: 0 | 1; feeRate: string; timeRatePayload: Record<string, string> }) {
      const feeRate = parseMoney(change.feeRate);
      if (feeRate === null || feeRate < 0n || feeRate >= money('1')) throw new AppError(ErrorCode.INCORRECT_PARAMETER_VALUE, 'feeRate must be at least 0 and below 1');
      const { entries, rejected } = parseTimeRatePayload(change.timeRatePayload);
      if (rejected.length > 0) throw new AppError(ErrorCode.INCORRECT_PARAMETER_VALUE, `timeRatePayload entries malformed or repeating a duration: ${rejected.join(', ')}`);
      if (entries.length === 0) throw new AppError(ErrorCode.INCORRECT_PARAMETER_VALUE, 'timeRatePayload needs at least one entry');
      const before = await repository.lockProduct(executor, change.id);
      if (!before) throw new AppError(ErrorCode.DATA_NOT_FOUND, `no option product ${change.id}`);
      const after = await repository.updateProduct(executor, change.id, change);
      const names = productNames();
      return { before: productView(before, names), after: productView(after, names) };
    },

    /** The account's running options, newest first (the back office's customer page). */
    async running(uid: number, book: Book): Promise<OptionOrder[]> {
      const names = productNames();
      return (await repository.runningOf(uid, book)).map((row) => optionView(row, names.get(row.symbol) ?? row.symbol));
    },

    place: placement.place,

    /**
     * One option by its number. Between its end and its settlement (the grace, a sweep) it
     * has no result yet and is no longer running: "order still processing" (411); the
     * completion check (`completed`) says when to ask again.
     */
    async order(uid: number, book: Book, orderNo: string): Promise<OptionOrder> {
      const row = await ownOrder(uid, book, orderNo);
      if (row.status === OptionStatus.running && Number(row.end_ms) <= nowMs()) throw new AppError(ErrorCode.ORDER_STILL_PROCESSING);
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
    settleDue: () => settlement.run(),

    /**
     * Demo reset, first inside the reset's transaction (before it locks the accounts: the
     * settlement's lock order): running demo options end void without money moving; the
     * reset's one journal then empties their escrow. Answers what to tell after the commit.
     */
    async endDemoOptionsIn(trx: Transaction<Database>, uid: number): Promise<() => void> {
      const running = await repository.lockRunningOf(trx, uid, 'demo');
      if (running.length === 0) return () => undefined;
      const settledMs = nowMs();
      await repository.markSettled(trx, running.map((row) => ({ id: row.id, ...voidedBy(demoResetVoidReason) })), settledMs);
      const ended = running.map((row) => asSettled(row, voidedBy(demoResetVoidReason), settledMs));
      return () => told(ended);
    },

    /** What the user's escrow must hold for its options still running (read under the account's lock). */
    async heldIn(trx: Transaction<Database>, uid: number, book: Book): Promise<Map<UserAccountKind, Units>> {
      return new Map([[UserAccountKind.optionEscrow, await repository.runningAmountIn(trx, uid, book)]]);
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
          await repository.markSettled(trx, running.map((row) => ({ id: row.id, ...voidedBy(reason) })), settledMs);
          const journals = running.map((row) => optionVoidedJournal({ uid, book, orderNo: row.order_no, amount: money(String(row.amount)), refundedFee: null }));
          const amount = running.reduce((sum, row) => sum + money(String(row.amount)), 0n);
          const ended = running.map((row) => asSettled(row, voidedBy(reason), settledMs));
          return { amount, journals, after: () => told(ended) };
        },
      };
    },

    /** Writes the recorded ticks held in memory now (another instance may settle on them). */
    flushTicks: () => recorder.flush(),

    async stop() {
      await settlement.stop();
      await recorder.stop();
    },
  };
}

export type OptionsService = ReturnType<typeof createOptionsService>;
