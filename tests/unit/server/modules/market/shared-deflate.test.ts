import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import WebSocket from 'ws';
import { describe, expect, it } from 'vitest';
import { compressedTextFrame, deflateMessage, sharedDeflateOf } from '../../../../../server/modules/market/stomp/shared-deflate';

const settings = { level: 6, memLevel: 4 };

/** ws's own permessage-deflate and extension parser (@types/ws does not declare them). */
interface WsDeflate {
  accept(offers: unknown): unknown;
  compress(data: Buffer, fin: boolean, callback: (error: Error | null, data: Buffer) => void): void;
  cleanup(): void;
}
const ws = WebSocket as unknown as {
  PerMessageDeflate: new (options: object, isServer: boolean) => WsDeflate;
  extension: { parse(header: string): Record<string, unknown[]> };
};
const syncFlushTail = Buffer.from([0x00, 0x00, 0xff, 0xff]);

/** What a receiver does (RFC 7692, 7.2.2): append the tail and inflate, with a fresh inflater and the negotiated window. */
function inflateMessage(payload: Buffer, windowBits: number): Buffer {
  return zlib.inflateRawSync(Buffer.concat([payload, syncFlushTail]), { windowBits, finishFlush: zlib.constants.Z_SYNC_FLUSH });
}

const priceFrame = Buffer.from(
  `MESSAGE\ndestination:/topic/prices\nsubscription:p\nmessage-id:7\ncontent-type:application/json\n\n${JSON.stringify(
    Array.from({ length: 40 }, (_, index) => ({ symbol: `SYM${index}`, bidPrice: (1.08 + index / 1000).toFixed(5), askPrice: (1.09 + index / 1000).toFixed(5) })),
  )}\0`,
);

describe('deflating a message once for every socket', () => {
  it('inflates back to the message, for every window a peer may name, without the sync-flush tail', () => {
    const messages = [priceFrame, Buffer.from('x'), Buffer.alloc(0), randomBytes(100 * 1024), Buffer.from('é€😀'.repeat(5000))];
    for (const windowBits of [9, 10, 12, 15]) {
      for (const message of messages) {
        const deflated = deflateMessage(message, windowBits, settings);
        expect(deflated.subarray(-4).equals(syncFlushTail)).toBe(false);
        expect(inflateMessage(deflated, windowBits).equals(message)).toBe(true);
      }
    }
    expect(deflateMessage(priceFrame, 12, settings).length).toBeLessThan(priceFrame.length / 2);
  });

  it('gives the octets ws gives for one message without context takeover', async () => {
    const deflate = new ws.PerMessageDeflate({ serverNoContextTakeover: true, serverMaxWindowBits: 12, zlibDeflateOptions: settings }, true);
    deflate.accept(ws.extension.parse('permessage-deflate')['permessage-deflate']);
    for (const message of [priceFrame, randomBytes(3000)]) {
      const byWs = await new Promise<Buffer>((resolve, reject) =>
        deflate.compress(message, true, (error, data) => (error ? reject(error) : resolve(data))),
      );
      expect(deflateMessage(message, 12, settings).equals(byWs)).toBe(true);
    }
    deflate.cleanup();
  });

  it('frames the payload as one final text frame with RSV1 set, unmasked, with the right length form', () => {
    for (const [length, lengthBytes] of [
      [10, 2],
      [125, 2],
      [126, 4],
      [65_535, 4],
      [65_536, 10],
    ] as const) {
      const payload = Buffer.alloc(length, 1);
      const [header, body] = compressedTextFrame(payload);
      expect(body).toBe(payload);
      expect(header.length).toBe(lengthBytes);
      expect(header[0]).toBe(0x80 | 0x40 | 0x01);
      expect((header[1] ?? 0) & 0x80).toBe(0);
      const announced = lengthBytes === 2 ? (header[1] ?? 0) : lengthBytes === 4 ? header.readUInt16BE(2) : Number(header.readBigUInt64BE(2));
      expect(announced).toBe(length);
    }
  });

  it('shares only a deflate whose context is not kept, and reads its window', () => {
    expect(sharedDeflateOf('permessage-deflate; server_no_context_takeover; server_max_window_bits=12; client_max_window_bits=10')).toEqual({ windowBits: 12 });
    expect(sharedDeflateOf('permessage-deflate; server_no_context_takeover')).toEqual({ windowBits: 15 });
    expect(sharedDeflateOf('permessage-deflate; server_max_window_bits=12')).toBeNull();
    expect(sharedDeflateOf('permessage-deflate; server_no_context_takeover; server_max_window_bits=8')).toBeNull();
    expect(sharedDeflateOf('x-webkit-deflate-frame')).toBeNull();
    expect(sharedDeflateOf('')).toBeNull();
    expect(sharedDeflateOf(undefined)).toBeNull();
    expect(sharedDeflateOf('permessage-deflate; =broken')).toBeNull();
  });
});
