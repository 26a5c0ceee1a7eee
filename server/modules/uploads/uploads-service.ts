import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { afterRollback, type Executor } from '../../db/after-commit';
import type { Database, StoredFilePurpose } from '../../db/schema';
import { AppError } from '../../http/app-error';
import type { FileStore } from './file-store';
import { reencodeImage, type ImageRefusal } from './image-pipeline';

export interface ImageToStore {
  uid: number;
  purpose: StoredFilePurpose;
  bytes: Buffer;
  /** The name the sender gave it: only its extension is looked at. */
  filename: string;
}

export interface StoredImage {
  bytes: Buffer;
  contentType: string;
}

const refusalKeys: Record<ImageRefusal, string> = {
  illegalExtension: 'upload.illegal_extension',
  notAnImage: 'upload.illegal_extension',
  tooManyPixels: 'upload.too_many_pixels',
};

/** The sender's mistake, in the caller's language: code 1001 with the upload message. */
export function imageRefused(refusal: ImageRefusal): AppError {
  return new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, `image refused: ${refusal}`, 200, null, { key: refusalKeys[refusal], params: {} });
}

/** An image above 10 MB: HTTP 413 like any oversize body, with the upload limit message. */
export function imageTooLarge(): AppError {
  return new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, 'image above the upload limit', 413, null, { key: 'upload.limit_exceeded', params: {} });
}

/** A random id of 128 bits: the file's name on disk and in its URL. */
const newFileId = () => crypto.randomBytes(16).toString('base64url');

/**
 * Uploaded images: re-encoded (image-pipeline.ts), kept by a random id in the file store,
 * with a `stored_file` row saying whose and what for. Other modules store through
 * {@link storeImage} in their own transactions (deposits; avatars and identity documents
 * later) and let their readers fetch the bytes through the two file routes.
 */
export function createUploadsService(deps: { db: Kysely<Database>; store: FileStore }) {
  const { db, store } = deps;
  return {
    /**
     * Re-encodes and keeps an image, answering its id; refuses (1001, nothing kept) what is
     * not a JPEG or PNG under an accepted extension, or has too many pixels. The row joins
     * the caller's transaction when one is given (opened with `inTransaction`); if that
     * transaction rolls back, the bytes are removed with it.
     */
    async storeImage(executor: Executor | undefined, image: ImageToStore): Promise<string> {
      const result = await reencodeImage(image.bytes, image.filename);
      if (!result.ok) throw imageRefused(result.refusal);
      const id = newFileId();
      await store.write(id, result.jpeg);
      try {
        await (executor ?? db)
          .insertInto('stored_file')
          .values({ id, uid: image.uid, purpose: image.purpose, content_type: 'image/jpeg', size: result.jpeg.length })
          .execute();
      } catch (error) {
        await store.remove(id);
        throw error;
      }
      if (executor) afterRollback(executor, () => store.remove(id));
      return id;
    },

    /** The owner's own file; null for another user's id exactly as for a missing one. */
    async ownFile(uid: number, id: string): Promise<StoredImage | null> {
      const row = await db.selectFrom('stored_file').select(['content_type']).where('id', '=', id).where('uid', '=', uid).executeTakeFirst();
      return row ? readBytes(id, row.content_type) : null;
    },

    /** Any file by id, for the staff route once it has checked the member may see it. */
    /** Any user's file with its owner (staff reading it are audited against that customer). */
    async anyFile(id: string): Promise<(StoredImage & { uid: number }) | null> {
      const row = await db.selectFrom('stored_file').select(['content_type', 'uid']).where('id', '=', id).executeTakeFirst();
      const image = row ? await readBytes(id, row.content_type) : null;
      return row && image ? { ...image, uid: row.uid } : null;
    },
  };

  async function readBytes(id: string, contentType: string): Promise<StoredImage | null> {
    const bytes = await store.read(id);
    return bytes ? { bytes, contentType } : null;
  }
}

export type UploadsService = ReturnType<typeof createUploadsService>;
