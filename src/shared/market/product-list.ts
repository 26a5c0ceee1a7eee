import type { Product } from '../api/market';
import { ProductType } from './product-types';
import { isTradableInMode, type TradeModeContext } from './tradability';

/** Market mode: the products' own trade status decides (no option product is consulted). */
export const marketModeContext: TradeModeContext = { mode: 'market', optionProducts: new Map() };

/**
 * The products a quote list or search shows: those tradable in the current trade mode, of
 * one product type when given, ordered by the numeric sort with missing values last (then
 * by code, so that equal sorts keep one order everywhere).
 */
export function listedProducts(products: readonly Product[], productType?: number, context: TradeModeContext = marketModeContext): Product[] {
  return products
    .filter((product) => isTradableInMode(product, context) && (productType === undefined || product.productType === productType))
    .sort((a, b) => {
      if (a.sort !== b.sort) {
        if (a.sort === null) return 1;
        if (b.sort === null) return -1;
        return a.sort - b.sort;
      }
      return a.productCode < b.productCode ? -1 : a.productCode > b.productCode ? 1 : 0;
    });
}

/** The product types that have at least one listed product, in tab order (1 to 5). */
export function listedProductTypes(products: readonly Product[], context: TradeModeContext = marketModeContext): number[] {
  const present = new Set(products.filter((product) => isTradableInMode(product, context)).map((product) => product.productType));
  return Object.values(ProductType).filter((type) => present.has(type));
}

/** A `singleTrade` query value as a product type, or null when it names none. */
export function parseSingleTrade(value: string | null): number | null {
  if (value === null || !/^[1-5]$/.test(value)) return null;
  return Number(value);
}

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
