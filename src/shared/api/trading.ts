import { z } from 'zod';
import type { ApiContract } from './anonymous';
import { decimalString } from './envelope';

function contract<TBody extends z.ZodType, TData extends z.ZodType>(path: string, body: TBody, data: TData): ApiContract<TBody, TData> {
  return { path, body, data };
}

const money = z.string().trim().regex(/^\d{1,22}(\.\d{1,8})?$/);

export const addOrderBody = z.strictObject({
  tradePair: z.string().trim().min(1).max(32),
  /** "0" for a market order; the limit price of a pending one. */
  price: money,
  stopPrice: money.optional(),
  takeProfitPrice: money.optional(),
  orderQuantity: money,
  /** Leverage; must be the product's. */
  multiple: z.number().int().positive(),
  /** 0 buy, 1 sell. */
  orderType: z.union([z.literal(0), z.literal(1)]),
  /** 2 market, 1 pending. */
  buyPoint: z.union([z.literal(1), z.literal(2)]),
  /** Retrying with the same id places one order. */
  clientOrderId: z.string().trim().min(1).max(64),
});
export type AddOrderBody = z.infer<typeof addOrderBody>;

export const orderIdBody = z.strictObject({ orderId: z.string().trim().min(1).max(40) });

/** Real accounts use the plain paths, demo accounts the Mock ones (the exchange root). */
export const addOrder = contract('/exchange/addOrder', addOrderBody, z.string());
export const addOrderMock = contract('/exchange/addOrderMock', addOrderBody, z.string());
export const closeOrder = contract('/exchange/closeOrder', orderIdBody, z.null());
export const closeOrderMock = contract('/exchange/closeOrderMock', orderIdBody, z.null());
export const cancelOrder = contract('/exchange/cancelOrder', orderIdBody, z.null());
export const cancelOrderMock = contract('/exchange/cancelOrderMock', orderIdBody, z.null());

export const tradeOrder = z.object({
  orderNo: z.string(),
  tradePair: z.string(),
  orderType: z.number().int(),
  buyPoint: z.number().int(),
  positionStatus: z.number().int(),
  orderQuantity: decimalString,
  multiple: z.number().int(),
  price: decimalString.nullable(),
  limitPrice: decimalString.nullable(),
  closePrice: decimalString.nullable(),
  stopPrice: decimalString.nullable(),
  takeProfitPrice: decimalString.nullable(),
  margin: decimalString,
  fee: decimalString,
  profitLoss: decimalString.nullable(),
  closeReason: z.string().nullable(),
  createTime: z.number().int(),
  openTime: z.number().int().nullable(),
  closeTime: z.number().int().nullable(),
});
export type TradeOrder = z.infer<typeof tradeOrder>;

export const historyBody = z.strictObject({
  page: z.number().int().min(1).default(1),
  limit: z.number().int().min(1).max(100).default(10),
  positionStatus: z.number().int().min(1).max(4).default(3),
  columns: z.string().max(200).optional(),
});

export const orderHistoryData = z.object({
  list: z.array(tradeOrder),
  pages: z.number().int(),
  profitLossToday: decimalString,
  profitLossTotal: decimalString,
});

export const orderHistory = contract('/v1/waa/order/history', historyBody, orderHistoryData);
export const orderHistoryMock = contract('/v1/waa/order/historyMock', historyBody, orderHistoryData);
