import type { Product, ProductOrderInfo } from '../../../src/shared/api/market';

/** A forex product as the catalogue lists it: 5 price decimals, 0.01 to 50 lots in steps of 0.01. */
export const eurusd: Product = {
  productCode: 'EURUSD',
  productName: 'EUR/USD',
  productType: 1,
  tradeStatus: 1,
  pricePrecision: 5,
  pip: '0.01',
  multiple: 100,
  minCount: '0.01',
  maxCount: '50',
  countNum: 2,
  logoUrl: '',
  sort: 1,
  marketStartTime: [0, 0, 0, 0, 0, 0, 0],
  marketCloseTime: [86_399, 86_399, 86_399, 86_399, 86_399, 86_399, 86_399],
  contractSize: '100000',
  spread: '0.00002',
  feeRate: '0.00002',
  overnightRate: '0.0001',
};

/** The signed-in trading terms `product/orderInfo` answers for a product (here the catalogue's own). */
export function orderInfoOf(product: Product): ProductOrderInfo {
  const { logoUrl: _logoUrl, sort: _sort, ...terms } = product;
  return { ...terms, leverages: [product.multiple, 50, 20] };
}
