import type { Product } from '../api/market';
import { listedProducts, marketModeContext } from './product-list';
import type { TradeModeContext } from './tradability';

// Search's rules, apart from the lists' (product-list.ts): the first screen shows lists, not search.

/** Search: case-insensitive match on code or name among the listed products. */
export function searchProducts(products: readonly Product[], keyword: string, context: TradeModeContext = marketModeContext): Product[] {
  const needle = keyword.trim().toUpperCase();
  if (!needle) return [];
  return listedProducts(products, undefined, context).filter(
    // "BTC/USDT" as the app names it finds BTCUSDT.
    (product) => product.productCode.toUpperCase().includes(needle.replace(/\//g, '')) || product.productName.toUpperCase().includes(needle),
  );
}

/** How many recently opened symbols search remembers and offers. */
export const recentSymbolsKept = 6;

/** The recently opened symbols after opening `symbol`: it first, once, the oldest dropped past the limit. */
export function withRecentSymbol(recent: readonly string[], symbol: string): string[] {
  return [symbol, ...recent.filter((kept) => kept !== symbol)].slice(0, recentSymbolsKept);
}

/**
 * What search offers before anything is typed: the recently opened products (most recent
 * first) and the brand's popular ones not among them, each only while listed in this trade mode.
 */
export function searchStartProducts(
  products: readonly Product[],
  recent: readonly string[],
  popular: readonly string[],
  context: TradeModeContext = marketModeContext,
): { recent: Product[]; popular: Product[] } {
  const listed = new Map(listedProducts(products, undefined, context).map((product) => [product.productCode, product]));
  const pick = (codes: readonly string[]) => codes.flatMap((code) => listed.get(code) ?? []);
  const recentProducts = pick(recent);
  return { recent: recentProducts, popular: pick(popular.filter((code) => !recent.includes(code))) };
}
