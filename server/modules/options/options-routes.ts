import {
  addOptionOrder,
  addOptionOrderMock,
  findOptionsProduct,
  optionCompleted,
  optionOrderByUid,
  optionOrderList,
  optionProductList,
} from '../../../src/shared/api/options';
import { bookOf } from '../../../src/shared/session/token';
import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../http/define-route';
import { sessionOnBook, type SignedInRoutes } from '../../http/signed-in';
import type { OptionsService } from './options-service';

export async function registerOptionsRoutes(app: FastifyInstance, signedIn: SignedInRoutes, options: OptionsService) {
  defineRoute(app, findOptionsProduct, (body) => options.products(body));
  await signedIn((scope) => {
    scope.route(optionProductList, (body) => options.products(body));
    // Placement paths are per book, as in trading: the real path takes real tokens, the Mock path demo ones.
    // As in trading, the session check runs alongside the first reads and answers the trading ban.
    for (const [book, add] of [
      ['real', addOptionOrder],
      ['demo', addOptionOrderMock],
    ] as const) {
      scope.routeCheckingSessionAlongside(add, (body, { session }, sessionLives) => options.place(sessionOnBook(session, book), book, body, sessionLives));
    }
    // The order calls have no Mock variants: they answer from the book of the caller's token.
    scope.route(optionOrderByUid, (body, { session }) => options.order(session.uid, bookOf(session), body.uid));
    scope.route(optionCompleted, (body, { session }) => options.completed(session.uid, bookOf(session), body.uid));
    scope.route(optionOrderList, (body, { session }) => options.orderList(session.uid, bookOf(session), body));
  });
}
