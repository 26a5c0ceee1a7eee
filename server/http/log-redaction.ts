import type { FastifyRequest, FastifyServerOptions } from 'fastify';

/**
 * Keeps secrets out of the server log. The positions socket carries its access token in
 * the query (browsers cannot set headers on a WebSocket), and pino logs every request's
 * URL at info level; headers are redacted too in case a log line ever includes them.
 */

export const REDACTED = '[REDACTED]';

/** Query parameters whose names say they carry a secret (token, refreshToken, password, code, key, …). */
const secretParameter = (name: string) =>
  /token|secret|passw|pwd|apikey|api_key|signature|credential/i.test(name) ||
  /^(code|authcode|auth|authorization|key|sig|otp|session|sessionid|sid|cookie|jwt)$/i.test(name);

/** Header paths pino censors wherever a request or reply is logged with its headers. */
export const redactedLogPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["proxy-authorization"]',
  'req.headers["sec-websocket-protocol"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'headers["proxy-authorization"]',
  'headers["set-cookie"]',
];

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** The URL with the value of every secret-bearing query parameter replaced; the path is kept. */
export function redactUrl(url: string): string {
  const query = url.indexOf('?');
  if (query < 0) return url;
  const parts = url
    .slice(query + 1)
    .split('&')
    .map((part) => {
      const equals = part.indexOf('=');
      const name = equals < 0 ? part : part.slice(0, equals);
      return equals >= 0 && secretParameter(decoded(name)) ? `${name}=${REDACTED}` : part;
    });
  return `${url.slice(0, query)}?${parts.join('&')}`;
}

/** Fastify's own request serializer, with the URL redacted. */
function requestSerializer(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * The logger options with redaction added: Fastify builds the pino logger from them, so
 * every request line (`incoming request`, `request completed`, errors) goes through it.
 */
export function redactingLogger(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger) return logger;
  const options = typeof logger === 'object' ? logger : {};
  return {
    ...options,
    serializers: { ...(options.serializers ?? {}), req: requestSerializer as never },
    redact: { paths: redactedLogPaths, censor: REDACTED },
  };
}
