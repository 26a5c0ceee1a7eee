import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from '../../src/shared/errors/catalogue';
import { isDatabaseUnreachable } from '../db/database-errors';
import { AppError } from './app-error';
import { sendError } from './envelope';

/**
 * The one place that turns a failure into an error answer: a route's AppError, a body
 * that did not validate, the signed-in check's refusals, an unknown API path, and
 * whatever Fastify or a handler threw. Users' mistakes answer HTTP 200 with their code
 * (413 and the statuses an AppError names aside); faults answer 500 and are logged,
 * their details never sent.
 */
/** How long a client is asked to wait while the database is unreachable (a restart takes seconds). */
const databaseRetryAfterSeconds = 5;

export function answerError(request: FastifyRequest, reply: FastifyReply, error: unknown) {
  if (error instanceof AppError) {
    return sendError(request, reply, error.code, {
      httpStatus: error.httpStatus,
      data: error.data,
      ...(error.message_ ? { message: error.message_ } : {}),
    });
  }
  const status = (error as Partial<FastifyError> | null)?.statusCode ?? 500;
  if (status === 413) return sendError(request, reply, ErrorCode.INCORRECT_PARAMETER_CONTENT, { httpStatus: 413 });
  // Malformed JSON, wrong content type and the like: answered, so HTTP 200 with a code.
  if (status >= 400 && status < 500) return sendError(request, reply, ErrorCode.INCORRECT_PARAMETER_CONTENT);
  // The database down or restarting: nothing was done, and the customer is told to try again
  // in their language (not "Unknown error"); 503 with Retry-After for whatever sits in front.
  if (isDatabaseUnreachable(error)) {
    request.log.warn({ err: error }, 'request refused: the database is unreachable');
    void reply.header('retry-after', String(databaseRetryAfterSeconds));
    return sendError(request, reply, ErrorCode.TRY_AGAIN_LATER, { httpStatus: 503, message: { key: 'server.database_unreachable', params: {} } });
  }
  request.log.error({ err: error }, 'request failed');
  return sendError(request, reply, ErrorCode.UNKNOWN_ERROR, { httpStatus: 500 });
}

/** Every error a route, a hook or Fastify raises is answered by {@link answerError}; set before any scope is registered, which inherits it. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error, request, reply) => answerError(request, reply, error));
}
