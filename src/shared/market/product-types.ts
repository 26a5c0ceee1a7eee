/**
 * The product types, apart from the market contracts (`api/market.ts`, which re-exports
 * them) so that a module needing only these names loads no schema: home's quote list and
 * the chart rules are in the first load, which holds no zod (tests/unit/build/budgets.ts).
 */

/** Product types as the quotation tabs show them, in tab order. */
export const productTypes = ['Forex', 'Commodities', 'Indices', 'Cryptos', 'US stocks'] as const;
export type ProductTypeName = (typeof productTypes)[number];
/** Numeric product type (the wire's productType), in the same order as the names. */
export const ProductType = { forex: 1, commodities: 2, indices: 3, cryptos: 4, usStocks: 5 } as const;
export type ProductType = (typeof ProductType)[keyof typeof ProductType];
/** Numeric product type: 1 Forex, 2 Commodities, 3 Indices, 4 Cryptos, 5 US stocks. */
export const productTypeNumber = (type: ProductTypeName) => productTypes.indexOf(type) + 1;
