import cors from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Split origins: a brand may serve the app on one origin and its API, market and exchange
 * roots on another (config.json's `apiRoot`, `marketRoot`, `exchangeRoot`). The browser lets
 * the app call them only if they say so (CORS), and this says so for exactly the origins in
 * `ALLOWED_ORIGINS`. A socket has no CORS: any page could open one to this server, so a
 * browser's socket (it always sends `Origin`) is refused unless it comes from this server's own
 * origin or a listed one. Clients that are not browsers send no `Origin` and are not affected.
 */

/** Whether a browser's socket from `origin` may open: no origin (not a browser), this server's own host, or a listed origin. */
export function socketOriginAllowed(origin: string | undefined, ownHost: string, allowedOrigins: readonly string[]): boolean {
  if (origin === undefined) return true;
  if (allowedOrigins.includes(origin)) return true;
  try {
    return new URL(origin).host === ownHost;
  } catch {
    return false;
  }
}

function isSocketUpgrade(request: FastifyRequest): boolean {
  return request.headers.upgrade?.toLowerCase() === 'websocket';
}

export async function registerCrossOrigin(app: FastifyInstance, options: { allowedOrigins: readonly string[] }) {
  const { allowedOrigins } = options;
  await app.register(cors, {
    // None listed: no CORS headers at all, so only the app's own origin can call.
    origin: allowedOrigins.length > 0 ? [...allowedOrigins] : false,
    methods: ['GET', 'POST'],
    // The server clock reads answers' Date (src/shared/time/server-clock.ts); Content-Language is readable anyway.
    exposedHeaders: ['Date'],
    maxAge: 600,
  });
  const refusedUpgrades = new WeakSet<FastifyRequest>();
  app.addHook('onRequest', async (request, reply) => {
    if (!isSocketUpgrade(request) || socketOriginAllowed(request.headers.origin, request.host, allowedOrigins)) return;
    refusedUpgrades.add(request);
    await reply.code(403).header('connection', 'close').send();
  });
  // Refused before the socket plugin's hooks see it, so its connection (taken out of HTTP by the upgrade) is ended here, once answered.
  app.addHook('onResponse', async (request) => {
    if (refusedUpgrades.has(request)) request.raw.socket.destroy();
  });
}
