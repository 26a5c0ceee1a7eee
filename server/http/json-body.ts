import type { FastifyInstance } from 'fastify';
import { ErrorCode } from '../../src/shared/errors/catalogue';
import { AppError } from './app-error';
import { answerError } from './error-handler';
import { containsNul } from './nul-guard';

/**
 * How requests are read: JSON bodies (an empty body is an empty object, since several
 * calls take no arguments), and no U+0000 anywhere in a body, a query or path parameters
 * (see nul-guard.ts), refused before any handler runs.
 */
export function registerJsonBody(app: FastifyInstance) {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, {});
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      const error = Object.assign(new Error('malformed JSON body'), { statusCode: 400, code: 'MALFORMED_JSON' });
      return done(error, undefined);
    }
    if (containsNul(parsed)) return done(Object.assign(new Error('NUL in JSON body'), { statusCode: 400, code: 'NUL_IN_BODY' }), undefined);
    done(null, parsed);
  });
  // The same for query strings and path parameters (market routes, the sockets' queries, /dev/outbox).
  app.addHook('preValidation', async (request, reply) => {
    if (containsNul(request.query) || containsNul(request.params)) {
      return answerError(request, reply, new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, 'NUL in query or parameters'));
    }
  });
}
