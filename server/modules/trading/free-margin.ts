import type { Transaction } from 'kysely';
import { money, parseScaled, type Units } from '../../../src/shared/money/money';
import { accountEquity, groupCostScale, groupProfitLoss, groupQuantityScale, lockedMargin, type Holding } from '../../../src/shared/trading/account-risk';
import { closePriceOf, OrderStatus, type Direction } from '../../../src/shared/trading/order-rules';
import type { Book, Database } from '../../db/schema';
import type { MarketDataService } from '../market/market-data-service';
import type { Ledger } from '../ledger/ledger';
import { quotePrice } from './order-view';
import type { TradingRepository } from './trading-repository';

/**
 * The account's free margin (equity − the margin its orders lock) inside a transaction that
 * holds its accounts; `lockedCash` is the cash that lock read (read again when not given).
 */
export type FreeMarginRead = (trx: Transaction<Database>, uid: number, book: Book, lockedCash?: Units) => Promise<Units>;

/**
 * Free margin by the shared formulas (account-risk.ts), from one grouped read of the
 * account's open orders: hundreds of open orders cost one short query on every placement
 * (orders and options), not hundreds of rows.
 */
export function createFreeMarginRead(deps: { orders: TradingRepository; ledger: Ledger; market: MarketDataService }): FreeMarginRead {
  const { orders, ledger, market } = deps;
  return async (trx, uid, book, lockedCash) => {
    const groups = await orders.openGroupsIn(trx, uid, book);
    const products = new Map(market.products().map((product) => [product.productCode, product]));
    const holdings: Holding[] = groups.map((group) => {
      const margin = money(group.margin);
      if (group.status !== OrderStatus.position) return { status: group.status, margin, profitLoss: null };
      const quote = market.latestQuote(group.symbol);
      const product = products.get(group.symbol);
      const quantity = parseScaled(group.quantity, groupQuantityScale);
      const cost = parseScaled(group.cost, groupCostScale);
      if (!quote || !product || quantity === null || cost === null) return { status: group.status, margin, profitLoss: 0n };
      const direction = group.direction as Direction;
      const price = quotePrice(closePriceOf(direction, quote), product.pricePrecision);
      return { status: group.status, margin, profitLoss: groupProfitLoss({ direction, quantity, cost }, price) };
    });
    const cash = lockedCash ?? (await ledger.cashBalance(uid, book, trx));
    return accountEquity(cash, holdings) - lockedMargin(holdings);
  };
}
