import type { Product, ProductOrderInfo } from '../../../src/shared/api/market';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { listedProducts } from '../../../src/shared/market/product-list';
import { leverageChoices } from '../../../src/shared/trading/order-rules';
import { AppError } from '../../http/app-error';
import type { MarketDataService } from '../market/market-data-service';

/** A product's trading info; its leverage choices are the shared rule placement checks (leverageChoices). */
export function orderInfoOf(product: Product): ProductOrderInfo {
  return {
    productCode: product.productCode,
    productName: product.productName,
    productType: product.productType,
    tradeStatus: product.tradeStatus,
    pricePrecision: product.pricePrecision,
    pip: product.pip,
    minCount: product.minCount,
    maxCount: product.maxCount,
    countNum: product.countNum,
    multiple: product.multiple,
    leverages: leverageChoices(product.multiple),
    contractSize: product.contractSize,
    spread: product.spread,
    feeRate: product.feeRate,
    overnightRate: product.overnightRate,
    marketStartTime: product.marketStartTime,
    marketCloseTime: product.marketCloseTime,
  };
}

/** The signed-in product calls: the search list and the trading info of one or all products. */
export function createProductInfo(market: Pick<MarketDataService, 'products'>) {
  return {
    /** The products search offers: tradable ones, in list order. */
    searchList() {
      return { forexProductList: listedProducts(market.products()) };
    },
    all(): Record<string, ProductOrderInfo> {
      return Object.fromEntries(market.products().map((product) => [product.productCode, orderInfoOf(product)]));
    },
    one(productCode: string): ProductOrderInfo {
      const product = market.products().find((each) => each.productCode === productCode);
      if (!product) throw new AppError(ErrorCode.TRADING_PAIR_CONFIG_NOT_FOUND);
      return orderInfoOf(product);
    },
  };
}
