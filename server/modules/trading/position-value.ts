import type { Product } from '../../../src/shared/api/market';
import { money, type Units } from '../../../src/shared/money/money';
import type { Holding } from '../../../src/shared/trading/account-risk';
import { closePriceOf, OrderStatus, profitLossFor, type Direction } from '../../../src/shared/trading/order-rules';
import type { MarketDataService } from '../market/market-data-service';
import type { RawTick } from '../market/sources/market-data-source';
import { quotePrice } from './order-view';
import type { OrderRow } from './trading-repository';

/** A position's close price on a quote and its result there, with the quote's time. */
export interface MarketValue {
  price: Units;
  pnl: Units;
  tickMs: number;
}

/** The price an order closes at on a quote (a buy at the bid, a sell at the ask), as money. */
export function closePriceOn(row: OrderRow, quote: RawTick, product: Pick<Product, 'pricePrecision'>): Units {
  return quotePrice(closePriceOf(row.direction as Direction, quote), product.pricePrecision);
}

/** The result of an order entered at `entry` and closed at `price`. */
export function resultAt(row: OrderRow, entry: Units, price: Units): Units {
  return profitLossFor(row.direction as Direction, entry, price, money(String(row.volume)), { contractSize: String(row.contract_size) });
}

/** A position's close price and result at the server's latest quote; null without a quote or product. */
export function valueAtMarket(market: MarketDataService, row: OrderRow): MarketValue | null {
  const quote = market.latestQuote(row.symbol);
  const product = market.products().find((item) => item.productCode === row.symbol);
  if (!quote || !product) return null;
  const price = closePriceOn(row, quote, product);
  return { price, pnl: resultAt(row, money(String(row.open_price)), price), tickMs: quote.timeMs };
}

/** Open orders with their market values as the shared risk formulas take them (pending orders have no result). */
export function holdingsOf(valued: readonly { row: OrderRow; at: MarketValue | null }[]): Holding[] {
  return valued.map(({ row, at }) => ({ status: row.status, margin: money(String(row.margin)), profitLoss: at?.pnl ?? null }));
}

/** Values each open order: positions at the market, pending orders not at all. */
export function valueOpenOrders(market: MarketDataService, orders: readonly OrderRow[]): { row: OrderRow; at: MarketValue | null }[] {
  return orders.map((row) => ({ row, at: row.status === OrderStatus.position ? valueAtMarket(market, row) : null }));
}
