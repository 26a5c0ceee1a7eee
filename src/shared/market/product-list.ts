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
