import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  addOptionOrder,
  addOptionOrderMock,
  findOptionsProduct,
  optionCompleted,
  optionOrderByUid,
  optionOrderList,
  optionProductList,
} from '../../../src/shared/api/options';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import type { Book } from '../../db/schema';
import { AppError } from '../../http/app-error';
import { defineRoute } from '../../http/define-route';
import { bookOf } from '../../../src/shared/session/token';
import type { OptionsService } from './options-service';

/** The signed-in caller. */
function caller(request: FastifyRequest): { uid: number; book: Book } {
  const auth = request.auth;
  if (!auth) throw new AppError(ErrorCode.NOT_LOGGED_IN, undefined, 401);
  return { uid: auth.uid, book: bookOf(auth) };
}

/** Placement paths are per book, as in trading: the real path takes real tokens, the Mock path demo ones. */
function placer(request: FastifyRequest, book: Book): number {
  const { uid, book: tokenBook } = caller(request);
  if (tokenBook !== book) throw new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, `${tokenBook} session on a ${book} path`);
  return uid;
}

export function registerOptionsRoutes(app: FastifyInstance, options: OptionsService) {
  defineRoute(app, findOptionsProduct, (body) => options.products(body));
  defineRoute(app, optionProductList, (body) => options.products(body));
  for (const [book, add] of [
    ['real', addOptionOrder],
    ['demo', addOptionOrderMock],
  ] as const) {
    defineRoute(app, add, (body, request) => options.place(placer(request, book), book, body));
  }
  // The order calls have no Mock variants: they answer from the book of the caller's token.
  defineRoute(app, optionOrderByUid, (body, request) => {
    const { uid, book } = caller(request);
    return options.order(uid, book, body.uid);
  });
  defineRoute(app, optionCompleted, (body, request) => {
    const { uid, book } = caller(request);
    return options.completed(uid, book, body.uid);
  });
  defineRoute(app, optionOrderList, (body, request) => {
    const { uid, book } = caller(request);
    return options.orderList(uid, book, body);
  });
}
