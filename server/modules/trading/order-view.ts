import type { TradeOrder } from '../../../src/shared/api/trading';
import { decimalToUnits } from '../../../src/shared/market/decimal';
import { formatFixed } from '../../../src/shared/market/kline';
import { formatMoney, money, type Units } from '../../../src/shared/money/money';
import { closableAfterMs, OrderStatus } from '../../../src/shared/trading/order-rules';
import type { OrderRow } from './trading-repository';

/** A quote's price (integer units of the product's precision) as money. */
export function quotePrice(units: number, precision: number): Units {
  return money(formatFixed(units, precision));
}

/** Money as a quote's integer units of the product's precision (trigger levels). */
export function priceUnits(value: Units, precision: number): number {
  return decimalToUnits(formatMoney(value, 0), precision) ?? 0;
}

/**
 * An order as the wire names its fields; `live` adds an open order's current price and
 * result; `minHoldSeconds` gives an open position the time it may first be closed.
 */
export function orderView(row: OrderRow, productName: string, minHoldSeconds: number, live: { currentPrice: Units; profitLoss: Units } | null = null): TradeOrder {
  const decimal = (value: string | null) => (value === null ? null : formatMoney(money(String(value))));
  return {
    id: row.id,
    uid: row.order_no,
    orderType: row.direction,
    buyPoint: row.price_type,
    status: row.status,
    positionStatus: row.status,
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
    overnightFee: formatMoney(money(String(row.overnight_fee))),
    closeReason: row.close_reason,
    orderTime: row.created_at.getTime(),
    orderTimeTs: row.created_at.getTime(),
    transactionTime: row.opened_at?.getTime() ?? null,
    transactionTimeTs: row.opened_at?.getTime() ?? null,
    closingTimeTs: row.closed_at?.getTime() ?? null,
    closableAfterTime: row.status === OrderStatus.position && row.opened_at ? closableAfterMs(row.opened_at.getTime(), minHoldSeconds) : null,
  };
}
