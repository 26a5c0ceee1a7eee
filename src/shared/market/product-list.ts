import { ProductType, type Product } from '../api/market';
import { isTradable } from './tradability';

/**
 * The products a quote list or search shows: tradable ones only, of one
 * product type when given, ordered by the numeric sort with missing values last (then
 * by code, so that equal sorts keep one order everywhere).
 */
export function listedProducts(products: readonly Product[], productType?: number): Product[] {
  return products
    .filter((product) => isTradable(product) && (productType === undefined || product.productType === productType))
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
export function listedProductTypes(products: readonly Product[]): number[] {
  const present = new Set(products.filter(isTradable).map((product) => product.productType));
  return Object.values(ProductType).filter((type) => present.has(type));
}

/** A `singleTrade` query value as a product type, or null when it names none. */
export function parseSingleTrade(value: string | null): number | null {
  if (value === null || !/^[1-5]$/.test(value)) return null;
  return Number(value);
}

/** Search: case-insensitive match on code or name among the listed products. */
export function searchProducts(products: readonly Product[], keyword: string): Product[] {
  const needle = keyword.trim().toUpperCase();
  if (!needle) return [];
  return listedProducts(products).filter(
    (product) => product.productCode.toUpperCase().includes(needle) || product.productName.toUpperCase().includes(needle),
  );
}
