import fastifyWebsocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import type { SocketCompression } from '../../../settings';
import type { IncomingMessage } from 'node:http';
import { MAX_FRAME_BYTES } from './frame';

/** The WebSocket upgrade of the STOMP endpoint: which subprotocol a path answers, and the inbound size limit. */

/** Preferred first: the answer to a client that offers several. */
export const STOMP_SUBPROTOCOLS = ['v12.stomp', 'v11.stomp', 'v10.stomp'] as const;
/** Clients only send control frames; a bigger message is refused before parsing. */
export const MAX_INBOUND_MESSAGE_BYTES = MAX_FRAME_BYTES;

/**
 * permessage-deflate for every socket of the server (the market STOMP endpoint and the
 * exchange socket), chosen by measurement (`bench/socket-bytes.ts`, `bench/fanout-capacity.ts`).
 * By default (`SOCKET_COMPRESSION=1`) each socket keeps its deflate context between
 * messages: a per-symbol price message of about 340 octets goes out as about 35, which is
 * what keeps an idle phone under 1 MB an hour, at the cost of a deflate per socket per
 * message. With `SOCKET_COMPRESSION=shared` the server keeps no context
 * (server_no_context_takeover): every message is compressed on its own, so the market
 * endpoint deflates a publication once and writes the same octets to every subscriber
 * (`shared-deflate.ts`): at 1,000 sockets delivery costs a fifth of RabbitMQ Web-STOMP's
 * CPU instead of more than it, and each client receives several times the bytes (about
 * 240 octets for that message). A 4 KB window (12 bits) bounds memory, and what clients
 * send (control frames) is tiny: their window is bounded to 1 KB (10 bits) for the
 * server's inflater. Messages below the threshold (heart-beats, receipts) are not worth a
 * deflate call.
 */
export const SOCKET_COMPRESSION = {
  serverMaxWindowBits: 12,
  clientMaxWindowBits: 10,
  // Node's zlib keeps an output buffer of chunkSize per stream (16 KB by default); the
  // messages ws itself deflates (the exchange socket's) are short, a longer one takes more chunks.
  zlibDeflateOptions: { level: 6, memLevel: 4, chunkSize: 1024 },
  zlibInflateOptions: { chunkSize: 1024 },
  threshold: 128,
  /** Concurrent zlib calls in flight (ws's default); the rest queue. */
  concurrencyLimit: 10,
} as const;

/** The Sec-WebSocket-Extensions line each upgrade was answered with, by its request. */
const answeredExtensions = new WeakMap<object, string>();
const watchedServers = new WeakSet<object>();
const extensionsHeaderPrefix = 'sec-websocket-extensions:';

interface HandshakeEmitter {
  on(event: 'headers', listener: (headers: string[], request: IncomingMessage) => void): unknown;
}

/**
 * Keeps what ws answered each upgrade for extensions (ws's public 'headers' event), so a
 * route can learn the permessage-deflate parameters its socket negotiated.
 */
export function watchAnsweredExtensions(server: HandshakeEmitter): void {
  if (watchedServers.has(server)) return;
  watchedServers.add(server);
  server.on('headers', (headers, request) => {
    const line = headers.find((header) => header.toLowerCase().startsWith(extensionsHeaderPrefix));
    if (line !== undefined) answeredExtensions.set(request, line.slice(extensionsHeaderPrefix.length).trim());
  });
}

/** The extensions the upgrade of this request was answered with; undefined for none (or an unwatched server). */
export function answeredExtensionsOf(request: object): string | undefined {
  return answeredExtensions.get(request);
}

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
/** The ws permessage-deflate option for a compression mode (`SOCKET_COMPRESSION`). */
export function perMessageDeflateFor(compression: SocketCompression) {
  if (compression === 'off') return false;
  return { ...SOCKET_COMPRESSION, serverNoContextTakeover: compression === 'shared' };
}

export async function ensureWebsocketSupport(app: FastifyInstance, options: { compression?: SocketCompression } = {}): Promise<Set<string> | null> {
  if (!app.hasDecorator('websocketServer')) {
    const stompPaths = new Set<string>();
    await app.register(fastifyWebsocket, {
      options: {
        maxPayload: MAX_INBOUND_MESSAGE_BYTES,
        // A client that does not offer the extension gets plain frames.
        perMessageDeflate: perMessageDeflateFor(options.compression ?? 'per-socket'),
        handleProtocols: (offered: Set<string>, request: IncomingMessage) =>
          stompPaths.has(pathOf(request.url)) ? chooseStompSubprotocol(offered) : (offered.values().next().value ?? false),
      },
    });
    stompPathsByServer.set(app.websocketServer as object, stompPaths);
  }
  return stompPathsByServer.get(app.websocketServer as object) ?? null;
}
