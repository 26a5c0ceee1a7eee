import { createRequire } from 'node:module';
import zlib from 'node:zlib';

/**
 * permessage-deflate done once per publication instead of once per socket (RFC 7692). With
 * `server_no_context_takeover` every message the server sends is compressed on its own,
 * so the same compressed octets are valid on every socket that negotiated the same server
 * window: a publication is deflated once per window size in use, and each socket is
 * written the same frame.
 */

/** What the endpoint uses of `ws`'s exports (@types/ws does not declare them). */
interface WsExports {
  Sender: { frame(data: Buffer, options: { fin: boolean; opcode: number; rsv1: boolean; mask: boolean; readOnly: boolean }): Buffer[] };
  extension: { parse(header: string): Record<string, Record<string, (string | true)[]>[] | undefined> };
}

/**
 * The `ws` that @fastify/websocket runs the sockets with (ws is its dependency, not the
 * server's): frames are built by the same code that frames everything else on the socket.
 */
const requireHere = createRequire(import.meta.url);
const ws = createRequire(requireHere.resolve('@fastify/websocket'))('ws') as WsExports;

/** The trailing empty stored block of a sync flush, which RFC 7692 (7.2.1) removes. */
const SYNC_FLUSH_TAIL = Buffer.from([0x00, 0x00, 0xff, 0xff]);
/** What zlib accepts for a raw deflate window (8 is raised to 9 by zlib, which a peer with a 256-octet window could not read). */
const MIN_WINDOW_BITS = 9;
const MAX_WINDOW_BITS = 15;
const TEXT_OPCODE = 0x01;
const BINARY_OPCODE = 0x02;

export interface DeflateSettings {
  level: number;
  memLevel: number;
}

/** The server side of a socket's negotiated permessage-deflate, as far as sharing one deflate goes. */
export interface NegotiatedDeflate {
  /** The server's LZ77 window (server_max_window_bits, 15 when not named). */
  windowBits: number;
}

/**
 * One message deflated on its own, as ws would with server_no_context_takeover: a raw
 * deflate stream ended by a sync flush, its final 00 00 ff ff removed.
 */
export function deflateMessage(message: Uint8Array, windowBits: number, settings: DeflateSettings): Buffer {
  const deflated = zlib.deflateRawSync(message, {
    level: settings.level,
    memLevel: settings.memLevel,
    windowBits,
    finishFlush: zlib.constants.Z_SYNC_FLUSH,
  });
  const tail = deflated.length - SYNC_FLUSH_TAIL.length;
  return tail >= 0 && deflated.subarray(tail).equals(SYNC_FLUSH_TAIL) ? deflated.subarray(0, tail) : deflated;
}

/** The octets of one unmasked, final text (or `binary`) frame with RSV1 set (a compressed message), as header and payload. */
export function compressedTextFrame(payload: Buffer, binary = false): readonly [Buffer, Buffer] {
  const [header, body] = ws.Sender.frame(payload, { fin: true, opcode: binary ? BINARY_OPCODE : TEXT_OPCODE, rsv1: true, mask: false, readOnly: false });
  if (!header || body !== payload) throw new Error('ws framed a compressed message unexpectedly');
  return [header, payload];
}

/**
 * What the server may share with a socket, from the Sec-WebSocket-Extensions line of its
 * handshake answer: null without permessage-deflate, or when the server keeps its context
 * between messages (then each socket's stream depends on what it was sent before).
 */
export function sharedDeflateOf(extensionsHeader: string | undefined): NegotiatedDeflate | null {
  if (extensionsHeader === undefined || extensionsHeader === '') return null;
  let offers: ReturnType<WsExports['extension']['parse']>;
  try {
    offers = ws.extension.parse(extensionsHeader);
  } catch {
    return null;
  }
  const params = offers['permessage-deflate']?.[0];
  if (!params || params.server_no_context_takeover === undefined) return null;
  const bits = params.server_max_window_bits?.[0];
  const windowBits = bits === undefined ? MAX_WINDOW_BITS : Number(bits);
  if (!Number.isInteger(windowBits) || windowBits < MIN_WINDOW_BITS || windowBits > MAX_WINDOW_BITS) return null;
  return { windowBits };
}
