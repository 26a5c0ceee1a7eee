import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { hasImageExtension } from '../../../src/shared/uploads/image-rules';

/**
 * What the server keeps of an uploaded image: its pixels, decoded and re-encoded as a
 * JPEG, so nothing the sender put beside them survives (appended scripts, polyglots, EXIF
 * with GPS, ICC profiles, comments). The bytes must carry a JPEG or PNG signature whatever
 * the name says (the app converts HEIC photos to JPEG before sending).
 */

/** The longest side kept: larger images are scaled down (review screens need no more). */
export const maxStoredSide = 2560;
/**
 * Decoding refuses images with more pixels than this before allocating them: a 20000 ×
 * 20000 PNG of a few kilobytes would otherwise take 1.6 GB to decode (a pixel bomb).
 */
export const maxInputPixels = 40_000_000;
const storedQuality = 85;
// One libvips worker thread per image: the image pool (image-pool.ts) bounds how many run, and
// each then takes one core of the two, not all of them, from the calls of everyone else.
sharp.concurrency(1);
const acceptedSignatures = new Set(['image/jpeg', 'image/png']);

export type ImageRefusal = 'illegalExtension' | 'notAnImage' | 'tooManyPixels';

export type ReencodedImage = { ok: true; jpeg: Buffer; width: number; height: number } | { ok: false; refusal: ImageRefusal };

export async function reencodeImage(bytes: Buffer, fileName: string): Promise<ReencodedImage> {
  if (!hasImageExtension(fileName)) return { ok: false, refusal: 'illegalExtension' };
  const sniffed = await fileTypeFromBuffer(bytes);
  if (!sniffed || !acceptedSignatures.has(sniffed.mime)) return { ok: false, refusal: 'notAnImage' };
  let header;
  try {
    header = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    return { ok: false, refusal: 'notAnImage' };
  }
  if (!header.width || !header.height) return { ok: false, refusal: 'notAnImage' };
  if (header.width * header.height > maxInputPixels) return { ok: false, refusal: 'tooManyPixels' };
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: maxInputPixels, failOn: 'error' })
      // Turn the picture upright by its EXIF orientation before that tag goes with the rest.
      .rotate()
      .resize({ width: maxStoredSide, height: maxStoredSide, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      // sharp keeps no metadata unless asked (no keepMetadata/withMetadata/keepIccProfile): EXIF, XMP, IPTC, ICC and comments go.
      .jpeg({ quality: storedQuality, mozjpeg: true })
      .toBuffer({ resolveWithObject: true });
    return { ok: true, jpeg: data, width: info.width, height: info.height };
  } catch {
    // Truncated or corrupt pixel data behind a valid signature.
    return { ok: false, refusal: 'notAnImage' };
  }
}
