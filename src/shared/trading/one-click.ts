import type { AddOrderBody } from '../api/trading';
import { checkVolume } from './form-rules';
import { PriceType, type Direction } from './order-rules';

/**
 * One-click trading: with it on, the Buy and Sell buttons place a market order at once, of
 * the lots typed between them, at the product's leverage, without the ticket or a question.
 * The lots are checked by the ticket's own volume rule; the server checks again.
 */
export type OneClickOrder = { ok: true; lots: string; body: Omit<AddOrderBody, 'clientOrderId'> } | { ok: false; lots: string; messageKey: string; params?: Record<string, string> };

export function oneClickOrder(
  product: { productCode: string; minCount: string; maxCount: string; pip: string; countNum: number; multiple: number },
  typedLots: string,
  direction: Direction,
): OneClickOrder {
  const verdict = checkVolume(typedLots, product);
  // A refused amount is corrected in the field (to the bound it crossed) and nothing is sent.
  if (!verdict.ok) return { ok: false, lots: verdict.value, messageKey: verdict.messageKey, ...(verdict.params ? { params: verdict.params } : {}) };
  return {
    ok: true,
    lots: verdict.value,
    body: { tradePair: product.productCode, price: '0', orderQuantity: verdict.value, multiple: product.multiple, orderType: direction, buyPoint: PriceType.market },
  };
}

/** The lots one-click uses on a symbol: the ones last typed for it, else the product's minimum. */
export function oneClickLotsOf(remembered: Readonly<Record<string, string>> | undefined, product: { productCode: string; minCount: string }): string {
  return remembered?.[product.productCode] ?? product.minCount;
}
