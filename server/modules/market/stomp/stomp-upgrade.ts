import fastifyWebsocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { MAX_FRAME_BYTES } from '../../../../src/shared/stomp/frame';

/** The WebSocket upgrade of the STOMP endpoint: which subprotocol a path answers, and the inbound size limit. */

/** Preferred first: the answer to a client that offers several. */
export const STOMP_SUBPROTOCOLS = ['v12.stomp', 'v11.stomp', 'v10.stomp'] as const;
/** Clients only send control frames; a bigger message is refused before parsing. */
export const MAX_INBOUND_MESSAGE_BYTES = MAX_FRAME_BYTES;

/** STOMP paths per WebSocket server, for subprotocol choice at upgrade time. */
const stompPathsByServer = new WeakMap<object, Set<string>>();

function pathOf(url: string | undefined): string {
  const query = (url ?? '').indexOf('?');
  return query < 0 ? (url ?? '') : (url ?? '').slice(0, query);
}

function chooseStompSubprotocol(offered: ReadonlySet<string>): string | false {
  return STOMP_SUBPROTOCOLS.find((protocol) => offered.has(protocol)) ?? false;
}

/**
 * Registers @fastify/websocket once per instance tree and remembers which paths speak
 * STOMP, so the upgrade answers a STOMP subprotocol there and keeps the `ws` default
 * (the first one offered) elsewhere. Returns null when someone else registered the
 * plugin: then the subprotocol is checked after the upgrade instead.
 */
export async function ensureWebsocketSupport(app: FastifyInstance): Promise<Set<string> | null> {
  if (!app.hasDecorator('websocketServer')) {
    const stompPaths = new Set<string>();
    await app.register(fastifyWebsocket, {
      options: {
        maxPayload: MAX_INBOUND_MESSAGE_BYTES,
        handleProtocols: (offered: Set<string>, request: IncomingMessage) =>
          stompPaths.has(pathOf(request.url)) ? chooseStompSubprotocol(offered) : (offered.values().next().value ?? false),
      },
    });
    stompPathsByServer.set(app.websocketServer as object, stompPaths);
  }
  return stompPathsByServer.get(app.websocketServer as object) ?? null;
}
