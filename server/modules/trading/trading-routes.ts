import { addOrder, addOrderMock, cancelOrder, cancelOrderMock, closeOrder, closeOrderMock, orderHistory, orderHistoryMock, orderList, orderListMock, updateOrder, updateOrderMock } from '../../../src/shared/api/trading';
import { productOrderInfo, productOrderInfoAll, productSearchList } from '../../../src/shared/api/market';
import { sessionOnBook, type SignedInRoutes } from '../../http/signed-in';
import type { MarketDataService } from '../market/market-data-service';
import { createProductInfo } from './product-info';
import type { TradingService } from './trading-service';

export async function registerTradingRoutes(signedIn: SignedInRoutes, trading: TradingService, market: Pick<MarketDataService, 'products'>) {
  const products = createProductInfo(market);
  await signedIn((scope) => {
    scope.route(productSearchList, async () => products.searchList());
    scope.route(productOrderInfoAll, async () => products.all());
    scope.route(productOrderInfo, async (body) => products.one(body.productCode));
    for (const [book, add, close, cancel, history, list, update] of [
      ['real', addOrder, closeOrder, cancelOrder, orderHistory, orderList, updateOrder],
      ['demo', addOrderMock, closeOrderMock, cancelOrderMock, orderHistoryMock, orderListMock, updateOrderMock],
    ] as const) {
      // The two hot paths read while the session is checked (one wait fewer); each awaits the check before it writes.
      scope.routeCheckingSessionAlongside(add, async (body, { session }, sessionLives) => trading.addOrder(sessionOnBook(session, book), book, body, sessionLives));
      scope.routeCheckingSessionAlongside(close, async (body, { session }, sessionLives) => trading.closeOrder(sessionOnBook(session, book), book, body.orderId, sessionLives).then(() => null));
      scope.route(cancel, async (body, { session }) => trading.cancelOrder(sessionOnBook(session, book), book, body.orderId).then(() => null));
      scope.route(update, async (body, { session }) => trading.updateOrder(sessionOnBook(session, book), book, body).then(() => null));
      scope.route(history, async (body, { session }) => trading.history(sessionOnBook(session, book), book, body));
      scope.route(list, async (body, { session }) => trading.list(sessionOnBook(session, book), book, body));
    }
  });
}
