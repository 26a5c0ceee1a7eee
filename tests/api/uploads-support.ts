import crypto from 'node:crypto';
import zlib from 'node:zlib';
import sharp from 'sharp';
import type { TestServer } from './harness';

/** A small photo-like JPEG (a gradient, so it is no trivial image), made with sharp. */
export async function jpegImage(width = 320, height = 240, options: { exif?: Record<string, Record<string, string>> } = {}): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const offset = (y * width + x) * 3;
      pixels[offset] = (x * 255) / width;
      pixels[offset + 1] = (y * 255) / height;
      pixels[offset + 2] = 128;
    }
  }
  let image = sharp(pixels, { raw: { width, height, channels: 3 } });
  if (options.exif) image = image.withExif(options.exif);
  return image.jpeg({ quality: 90 }).toBuffer();
}

export async function pngImage(width = 200, height = 150): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: { r: 10, g: 120, b: 200, alpha: 1 } } }).png().toBuffer();
}

/**
 * A PNG whose header claims `width` × `height` pixels over a few hundred bytes of data (a
 * pixel bomb): a real small PNG with its IHDR size rewritten and its checksum fixed.
 */
export async function pixelBombPng(width = 20_000, height = 20_000): Promise<Buffer> {
  const png = Buffer.from(await pngImage(16, 16));
  // Signature (8) + length (4) + 'IHDR' (4): width and height follow, then the rest of IHDR, then its CRC.
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(zlib.crc32(png.subarray(12, 29)), 29);
  return png;
}

/** A multipart body as a browser's FormData sends it: text fields, then file parts. */
export function multipartBody(fields: Record<string, string>, files: { field: string; filename: string; bytes: Buffer; type?: string }[]) {
  const boundary = `----tradeweb${crypto.randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const file of files) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.filename}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A multipart call with a bearer token (and an Idempotency-Key when given): HTTP status and envelope. */
export async function multipartCall(
  server: Pick<TestServer, 'app'>,
  path: string,
  body: ReturnType<typeof multipartBody>,
  token: string,
  idempotencyKey?: string,
  /** More request headers (Accept-Language). */
  headers: Record<string, string> = {},
) {
  const response = await server.app.inject({
    method: 'POST',
    url: path,
    headers: {
      'content-type': body.contentType,
      authorization: `Bearer ${token}`,
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
      ...headers,
    },
    payload: body.payload,
  });
  const contentLanguage = response.headers['content-language'];
  return { status: response.statusCode, contentLanguage: typeof contentLanguage === 'string' ? contentLanguage : null, ...(response.json() as { code: number; msg: string; data: unknown }) };
}

/** A GET of a file route: status, headers and bytes. */
export async function getFile(server: Pick<TestServer, 'app'>, url: string, token?: string) {
  const response = await server.app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: response.statusCode, headers: response.headers, bytes: response.rawPayload };
}

export async function storedFileCount(server: TestServer): Promise<number> {
  const row = await server.database.db.selectFrom('stored_file').select((eb) => eb.fn.countAll<string | number>().as('count')).executeTakeFirstOrThrow();
  return Number(row.count);
}
