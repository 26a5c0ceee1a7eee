import type { TradeMode } from '../config/trade-mode';
import type { MarketStatus } from './market-hours';

/** A product's trade status: 1 tradable, anything else prohibited (the back office's switch). */
export const TradeStatus = { prohibited: 0, tradable: 1 } as const;
export type TradeStatus = (typeof TradeStatus)[keyof typeof TradeStatus];

/** Why a product cannot be traded now: its switch is off ('closed') or its market is not open ('market_closed'). */
export type TradeBlock = 'closed' | 'market_closed';

/** Whether a product's (or an option product's) trade status allows trading at all. */
export function isTradable(product: { readonly tradeStatus: number }): boolean {
  return product.tradeStatus === TradeStatus.tradable;
}

/** What decides whether a product is tradable in a trade mode: the mode, and the option products by code. */
export interface TradeModeContext {
  mode: TradeMode;
  optionProducts: ReadonlyMap<string, { readonly tradeStatus: number }>;
}

/**
 * Whether a product is tradable in a trade mode ("tradeStatus 1 for the current mode"):
 * in market mode its own trade status; in option mode it also needs an option product
 * that is switched on, as a timed option needs both.
 */
export function isTradableInMode(product: { readonly productCode: string; readonly tradeStatus: number }, context: TradeModeContext): boolean {
  if (!isTradable(product)) return false;
  if (context.mode === 'market') return true;
  const optionProduct = context.optionProducts.get(product.productCode);
  return optionProduct !== undefined && isTradable(optionProduct);
}

/**
 * Why a product cannot be traded now (the order forms' closed reasons, the server's
 * refusal): 'closed' when its trade status is off, 'market_closed' when its market is
 * closed or in early trading; null when it can be traded. A timed option needs both its
 * option product and its market product switched on.
 */
export function tradeBlock(products: readonly { readonly tradeStatus: number }[], status: MarketStatus): TradeBlock | null {
  if (!products.every(isTradable)) return 'closed';
  if (status !== 'open') return 'market_closed';
  return null;
}
