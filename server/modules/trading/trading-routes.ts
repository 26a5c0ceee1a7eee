import type { FastifyInstance, FastifyRequest } from 'fastify';
import { addOrder, addOrderMock, cancelOrder, cancelOrderMock, closeOrder, closeOrderMock, orderHistory, orderHistoryMock, orderList, orderListMock } from '../../../src/shared/api/trading';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import type { Book } from '../../db/schema';
import { AppError } from '../../http/app-error';
import { defineRoute } from '../../http/define-route';
import type { TradingService } from './trading-service';

/** The signed-in user and the book the path is for: real paths take real tokens, Mock paths demo ones. */
function trader(request: FastifyRequest, book: Book): number {
  const auth = request.auth;
  if (!auth) throw new AppError(ErrorCode.NOT_LOGGED_IN, undefined, 401);
  const tokenBook: Book = auth.virtualStatus === 0 ? 'real' : 'demo';
  if (tokenBook !== book) throw new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, `${tokenBook} session on a ${book} path`);
  return auth.uid;
}

export function registerTradingRoutes(app: FastifyInstance, trading: TradingService) {
  for (const [book, add, close, cancel, history, list] of [
    ['real', addOrder, closeOrder, cancelOrder, orderHistory, orderList],
    ['demo', addOrderMock, closeOrderMock, cancelOrderMock, orderHistoryMock, orderListMock],
  ] as const) {
    defineRoute(app, add, async (body, request) => trading.addOrder(trader(request, book), book, body));
    defineRoute(app, close, async (body, request) => trading.closeOrder(trader(request, book), book, body.orderId).then(() => null));
    defineRoute(app, cancel, async (body, request) => trading.cancelOrder(trader(request, book), book, body.orderId).then(() => null));
    defineRoute(app, history, async (body, request) => trading.history(trader(request, book), book, body));
    defineRoute(app, list, async (body, request) => trading.list(trader(request, book), book, body));
  }
}
