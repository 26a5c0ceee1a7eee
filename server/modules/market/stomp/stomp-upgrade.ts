import fastifyWebsocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { MAX_FRAME_BYTES } from '../../../../src/shared/stomp/frame';

/** The WebSocket upgrade of the STOMP endpoint: which subprotocol a path answers, and the inbound size limit. */

/** Preferred first: the answer to a client that offers several. */
export const STOMP_SUBPROTOCOLS = ['v12.stomp', 'v11.stomp', 'v10.stomp'] as const;
/** Clients only send control frames; a bigger message is refused before parsing. */
export const MAX_INBOUND_MESSAGE_BYTES = MAX_FRAME_BYTES;

/**
 * permessage-deflate for every socket of the server (the market STOMP endpoint and the
 * exchange socket), chosen by measurement (`bench/socket-bytes.ts`): a per-symbol price
 * message of about 350 octets deflates to about 35 with the context kept between
 * messages and a 4 KB window (12 bits), against 32 with zlib's default 32 KB window,
 * while the deflater's memory per connection drops from about 256 KB to 24 KB
 * (window 4 << 12, plus 512 << memLevel 4). Without context takeover the same message
 * only halves, so the server keeps its context. What clients send (control frames) is
 * tiny: their window is bounded to 1 KB (10 bits) for the server's inflater. Messages
 * below the threshold (heart-beats, receipts) are not worth a deflate call.
 */
export const SOCKET_COMPRESSION = {
  serverMaxWindowBits: 12,
  clientMaxWindowBits: 10,
  // Node's zlib keeps an output buffer of chunkSize per stream (16 KB by default); a
  // compressed price message is tens of octets and a whole batch well under 1 KB.
  zlibDeflateOptions: { level: 6, memLevel: 4, chunkSize: 1024 },
  zlibInflateOptions: { chunkSize: 1024 },
  threshold: 128,
  /** Concurrent zlib calls in flight (ws's default); the rest queue. */
  concurrencyLimit: 10,
} as const;

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
export async function ensureWebsocketSupport(app: FastifyInstance, options: { compression?: boolean } = {}): Promise<Set<string> | null> {
  if (!app.hasDecorator('websocketServer')) {
    const stompPaths = new Set<string>();
    await app.register(fastifyWebsocket, {
      options: {
        maxPayload: MAX_INBOUND_MESSAGE_BYTES,
        // A client that does not offer the extension gets plain frames.
        perMessageDeflate: options.compression === false ? false : SOCKET_COMPRESSION,
        handleProtocols: (offered: Set<string>, request: IncomingMessage) =>
          stompPaths.has(pathOf(request.url)) ? chooseStompSubprotocol(offered) : (offered.values().next().value ?? false),
      },
    });
    stompPathsByServer.set(app.websocketServer as object, stompPaths);
  }
  return stompPathsByServer.get(app.websocketServer as object) ?? null;
}
