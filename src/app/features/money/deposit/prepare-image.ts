import { compressionQualities, fitWithin, hasImageExtension, heicJpegQuality, imageCompression, isHeic, maxImageBytes } from '../../../../shared/uploads/image-rules';

/** Why a picked file cannot be sent, as its message key. */
export class ImageRefusedError extends Error {
  constructor(readonly messageKey: 'upload.illegal_extension' | 'upload.limit_exceeded') {
    super(messageKey);
    this.name = 'ImageRefusedError';
  }
}

const jpegName = (name: string) => `${name.replace(/\.[^.]*$/, '') || 'image'}.jpg`;

function canvasJpeg(canvas: HTMLCanvasElement, quality: number): Promise<Blob> {
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('canvas gave no JPEG'))), 'image/jpeg', quality));
}

/** HEIC photos (iPhones) become JPEG at quality 0.7; heic2any is large, so it loads only when one is picked. */
async function heicToJpeg(file: File): Promise<File> {
  const { default: heic2any } = await import('heic2any');
  const converted = await heic2any({ blob: file, toType: 'image/jpeg', quality: heicJpegQuality });
  const blob = Array.isArray(converted) ? converted[0] : converted;
  if (!blob) throw new ImageRefusedError('upload.illegal_extension');
  return new File([blob], jpegName(file.name), { type: 'image/jpeg' });
}

/** Drawn within 1920 × 1920 and encoded as JPEG at 0.75, then lower, until it is about 0.3 MB. */
async function compress(file: File): Promise<File> {
  const bitmap = await createImageBitmap(file);
  const size = fitWithin(bitmap.width, bitmap.height, imageCompression.maxSide);
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2d canvas');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, size.width, size.height);
  context.drawImage(bitmap, 0, 0, size.width, size.height);
  bitmap.close();
  let best: Blob | null = null;
  for (const quality of compressionQualities()) {
    best = await canvasJpeg(canvas, quality);
    if (best.size <= imageCompression.targetBytes) break;
  }
  if (!best) throw new Error('no JPEG quality to try');
  // Compression that did not help keeps the original.
  return best.size < file.size ? new File([best], jpegName(file.name), { type: 'image/jpeg' }) : file;
}

/**
 * A picked image made ready to send (specification section 5 "Images"): .heic, .jpg, .jpeg
 * or .png only; at most 10 MB; HEIC converted to JPEG; above the threshold compressed. The
 * server re-encodes what it keeps anyway: this is for the customer's upload time.
 */
export async function prepareImage(file: File): Promise<File> {
  if (!hasImageExtension(file.name)) throw new ImageRefusedError('upload.illegal_extension');
  if (file.size > maxImageBytes) throw new ImageRefusedError('upload.limit_exceeded');
  const readable = isHeic(file.name, file.type) ? await heicToJpeg(file) : file;
  const prepared = readable.size > imageCompression.thresholdBytes ? await compress(readable) : readable;
  if (prepared.size > maxImageBytes) throw new ImageRefusedError('upload.limit_exceeded');
  return prepared;
}
