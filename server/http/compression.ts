import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Answers smaller than this go out as they are: compressing them saves less than its framing and CPU cost. */
export const compressAboveBytes = 1024;

/**
 * Compresses answers as they are sent (brotli at quality 4, else gzip, by Accept-Encoding, with
 * `Vary: Accept-Encoding`): API answers above `compressAboveBytes`, and a built file that has no
 * compressed copy of its own (the brand's config.json); the build's copies already carry their
 * encoding and pass untouched. Request bodies are never decompressed (no zip bombs), so uploads
 * stream as before. Socket upgrades send no reply through it.
 */
export async function registerCompression(app: FastifyInstance) {
  await app.register(fastifyCompress, {
    threshold: compressAboveBytes,
    // The build writes br and gz copies only; zstd (a newer Node's first choice) is left out so
    // files and API answers negotiate the same way on every Node.
    encodings: ['br', 'gzip'],
    globalDecompression: false,
  });
}
