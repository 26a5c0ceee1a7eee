/**
 * The image upload rules of the specification (section 5 "Images"), one definition for the
 * app (its picker, its compression) and the server (its refusals).
 */

/** The file extensions a picker offers and the server accepts. */
export const imageExtensions = ['.heic', '.jpg', '.jpeg', '.png'] as const;

/** The picker's `accept` attribute. */
export const imageAccept = imageExtensions.join(',');

/** At most 10 MB per image, before or after the app's compression. */
export const maxImageBytes = 10 * 1024 * 1024;

/**
 * How the app compresses an image before upload (the specification gives two readings; the
 * app applies both): above `thresholdBytes` it is drawn into at most `maxSide` × `maxSide`
 * and encoded as JPEG at `quality`, then at lower qualities while it is above `targetBytes`.
 */
export const imageCompression = { thresholdBytes: 300 * 1024, targetBytes: 300 * 1024, maxSide: 1920, quality: 0.75, minQuality: 0.4 } as const;

/** HEIC photos are converted to JPEG at this quality in the browser (the server takes JPEG and PNG bytes). */
export const heicJpegQuality = 0.7;

/** The extension of a file name, lower-cased with its dot ('' without one). */
export function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? '' : fileName.slice(dot).toLowerCase();
}

/** Whether a file name has one of the accepted image extensions. */
export function hasImageExtension(fileName: string): boolean {
  return (imageExtensions as readonly string[]).includes(extensionOf(fileName));
}

/** Whether a file is a HEIC photo the browser must convert first. */
export function isHeic(fileName: string, mimeType: string): boolean {
  return extensionOf(fileName) === '.heic' || /image\/hei[cf]/i.test(mimeType);
}

/** The size an image is drawn at to fit within `maxSide` × `maxSide`, its proportions kept, never enlarged. */
export function fitWithin(width: number, height: number, maxSide: number): { width: number; height: number } {
  const scale = Math.min(1, maxSide / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** The JPEG qualities the app tries, best first, until an image is at most the target size. */
export function compressionQualities(): number[] {
  const qualities: number[] = [];
  for (let step = 0; imageCompression.quality - step * 0.1 >= imageCompression.minQuality - 1e-9; step += 1) {
    qualities.push(Math.round((imageCompression.quality - step * 0.1) * 100) / 100);
  }
  return qualities;
}

/**
 * The path of heic2any's decoder worker in the built app (vite.config.ts emits it as
 * `assets/heic2any-worker-<version>.js`): libheif compiled to JavaScript, loaded from the
 * app's own origin instead of the blob: URL the library would make, which the app's content
 * security policy refuses. The decoder needs eval (emscripten's bindings), which only this
 * worker's own policy allows (server/http/security-headers.ts).
 */
export const heicDecoderWorkerPath = /^\/assets\/heic2any-worker-[0-9A-Za-z.+-]+\.js$/;
