import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Envelope } from '../../src/shared/api/envelope';
import { ErrorCode } from '../../src/shared/errors/catalogue';
import { errorMessage, languageOfRequest, localizedMessage } from '../i18n/messages';

export function success<T>(data: T): Envelope<T> {
  return { code: ErrorCode.SUCCESS, msg: 'success', data };
}

/** Answers an error envelope with its message in the caller's language. */
export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  code: number,
  options: { httpStatus?: number; data?: unknown; message?: { key: string; params: Record<string, string | number> } } = {},
) {
  const language = languageOfRequest(request.headers['accept-language']);
  const msg = options.message ? localizedMessage(options.message.key, options.message.params, language, code) : errorMessage(code, language);
  const body: Envelope<unknown> = { code, msg, data: options.data ?? null };
  // The app shows these words, not its catalogue's, when they are in its reader's language (a CORS-safelisted header).
  return reply.status(options.httpStatus ?? 200).header('content-language', language).send(body);
}
