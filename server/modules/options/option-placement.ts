import type { Kysely } from 'kysely';
import type { AddOptionOrderBody, AddOptionOrderData } from '../../../src/shared/api/options';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { isPriceFresh } from '../../../src/shared/market/price-freshness';
import { isTradable } from '../../../src/shared/market/tradability';
import { money, formatMoney, parseMoney } from '../../../src/shared/money/money';
import { optionFee, optionPlacementViolation, parseTimeRatePayload } from '../../../src/shared/options/option-rules';
import { isCheckViolation, isUniqueViolation } from '../../db/database-errors';
import type { Book, Database } from '../../db/schema';
import { AppError, clientOrderReusedError } from '../../http/app-error';
import type { LiveSession } from '../../http/signed-in';
import type { MarketDataService } from '../market/market-data-service';
import type { Ledger } from '../ledger/ledger';
import type { FreeMarginRead } from '../trading/free-margin';
import { nextOrderNumber } from '../trading/order-number';
import type { OptionOrderRow, OptionsRepository } from './options-repository';
import type { TickRecorder } from './tick-recorder';

/** Digits of an option's order number (market orders carry 16). */
const optionOrderNumberDigits = 19;

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

/**
 * Placement of a timed option at the server's latest tick: the rules (shared with the
 * form), free margin under the account's lock, the amount into escrow and the fee to the
 * house by the ledger's verb in the order's transaction, the start tick recorded with it.
 */
export function createOptionPlacement(deps: {
  db: Kysely<Database>;
  ledger: Ledger;
  market: MarketDataService;
  repository: OptionsRepository;
  recorder: TickRecorder;
  stalePriceMs: number;
  freeMarginIn: FreeMarginRead;
  /** Whether the user has a withdrawal awaiting review: the real account cannot trade then (406). */
  withdrawalUnderReview: (uid: number) => Promise<boolean>;
  optionModeOffered: () => Promise<boolean>;
  nowMs: () => number;
  log?: (message: string, error?: unknown) => void;
  /** A placed option ends at `endMs` (settle it then). */
  schedule: (symbol: string, endMs: number) => void;
  /** An option was placed: tell its owner. */
  told: (rows: readonly OptionOrderRow[]) => void;
}) {
  const { db, ledger, market, repository, recorder } = deps;

  /**
   * `sessionLives` is the caller's session check, still running (signed-in.ts): awaited with the
   * first reads, before anything is written, it answers whether the user may trade (its read of
   * the user, not asked twice).
   */
  async function place(uid: number, book: Book, body: AddOptionOrderBody, sessionLives: Promise<LiveSession>): Promise<AddOptionOrderData> {
    // The reads before the rules go out together; they are judged in this order.
    const [existing, session, underReview] = await Promise.all([
      repository.findByClientOrderId(uid, book, body.clientOrderId),
      sessionLives,
      // Money under review may leave: the real account waits for the decision (the demo account trades play money).
      book === 'real' ? deps.withdrawalUnderReview(uid) : false,
    ]);
    if (existing) return samePlacement(existing, body);
    if (session.tradeProhibited) throw new AppError(ErrorCode.USER_PROHIBITED_FROM_TRADING);
    if (underReview) throw new AppError(ErrorCode.UNREVIEWED_WITHDRAWAL);
    // The catalogue has no code for a mode the brand does not offer; 603 (no option configuration) is the closest.
    if (!(await deps.optionModeOffered())) throw new AppError(ErrorCode.NO_OPTION_CONFIGURATION, 'option mode is not offered');

    const products = await repository.listProducts();
    const symbol = body.tradePair;
    const optionProduct = products.find((product) => product.product_code === symbol) ?? null;
    const pairExists = market.knownSymbol(symbol);
    const marketProduct = pairExists ? market.products().find((product) => product.productCode === symbol) : undefined;
    // The id the client sent must be the pair's product: another pair's is no configuration for this one.
    const product = optionProduct && optionProduct.id === body.optionsProductId ? optionProduct : null;
    const entries = product ? parseTimeRatePayload(product.time_rate_payload).entries : [];
    const balance = await ledger.cashBalance(uid, book);
    const violation = optionPlacementViolation({
      anyConfiguration: products.length > 0,
      pairExists,
      product: product ? { tradeStatus: product.trade_status, feeRate: String(product.fee_rate), entries } : null,
      marketOpen: marketProduct !== undefined && isTradable(marketProduct) && market.status(symbol) === 'open',
      timeLong: body.timeLong,
      rate: body.rate,
      amount: body.amount,
      balance,
    });
    if (violation) throw new AppError(violation.code as ErrorCode, violation.rule);
    const entry = entries.find((each) => each.timeLong === body.timeLong);
    if (!product || !entry || !marketProduct) throw new Error('option placement passed its rules without a product'); // only a bug reaches this

    const quote = market.latestQuote(symbol);
    const now = deps.nowMs();
    if (!quote || !isPriceFresh(quote.timeMs, now, deps.stalePriceMs)) throw new AppError(ErrorCode.OPTION_CURRENT_PRICE_ERROR);
    const start = recorder.recorded(quote);
    if (!start) throw new AppError(ErrorCode.OPTION_CURRENT_PRICE_ERROR);
    const amount = money(body.amount);
    const fee = optionFee(amount, String(product.fee_rate));
    const endMs = now + entry.timeLong * 1000;
    const insert = () =>
      db.transaction().execute(async (trx) => {
        const cash = await ledger.lockCash(trx, uid, book);
        // Free margin, not only cash: money an account's open losses need cannot go into options.
        if ((await deps.freeMarginIn(trx, uid, book, cash)) < amount + fee) throw new AppError(ErrorCode.INSUFFICIENT_BALANCE);
        const orderNo = await nextOrderNumber(trx, optionOrderNumberDigits);
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
        await ledger.escrowOption(trx, { uid, book, orderNo, amount, fee });
        return inserted;
      });

    let row: OptionOrderRow;
    try {
      row = await insert();
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (isCheckViolation(error)) throw new AppError(ErrorCode.INSUFFICIENT_BALANCE);
      // A concurrent retry with the same clientOrderId won (order numbers come from a sequence and never collide).
      const winner = isUniqueViolation(error) ? await repository.findByClientOrderId(uid, book, body.clientOrderId) : undefined;
      if (winner) return samePlacement(winner, body);
      deps.log?.('option placement failed', error);
      throw new AppError(ErrorCode.OPTION_ORDER_SUBMISSION_FAILED);
    }
    recorder.watch(symbol, endMs);
    deps.schedule(symbol, endMs);
    deps.told([row]);
    return placed(row);
  }

  return { place };
}
