import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { RateVerdict } from '../../auth/rate-limiter';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { afterCommit, afterRollback, type Executor } from '../../db/after-commit';
import type { Database, StoredFilePurpose } from '../../db/schema';
import { AppError, rateLimitedError } from '../../http/app-error';
import type { FileStore } from './file-store';
import { reencodeImage, type ImageRefusal } from './image-pipeline';
import type { ImagePool } from './image-pool';

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

/** An image re-encoded and ready to keep ({@link UploadsService.prepareImage}), before any transaction. */
export interface PreparedImage {
  uid: number;
  purpose: StoredFilePurpose;
  jpeg: Buffer;
}

/** Files younger than this are never swept: their transaction may still be open. */
export const sweepGraceMs = 60 * 60 * 1000;

/**
 * Uploaded images: re-encoded (image-pipeline.ts) in the image pool (image-pool.ts), kept by
 * a random id in the file store, with a `stored_file` row saying whose and what for. Other
 * modules prepare an image before their transaction (the decoding holds no connection) and
 * keep it in their own transaction; readers fetch the bytes through the two file routes.
 * Each account's uploads are counted (the database's limit, shared by every process).
 */
export function createUploadsService(deps: {
  db: Kysely<Database>;
  store: FileStore;
  pool: ImagePool;
  /** Counts one upload of the account; undefined: not limited (tools, tests of the pipeline). */
  uploadLimit?: ((uid: number) => Promise<RateVerdict>) | undefined;
  nowMs?: (() => number) | undefined;
}) {
  const { db, store, pool } = deps;
  const nowMs = deps.nowMs ?? Date.now;
  /** Renames and removals after commits still under way ({@link settled}). */
  const inFlight = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown>) => {
    const tracked = work.catch(() => undefined).finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
  };

  async function prepareImage(image: ImageToStore): Promise<PreparedImage> {
    if (deps.uploadLimit) {
      const verdict = await deps.uploadLimit(image.uid);
      if (!verdict.allowed) throw rateLimitedError(verdict.retryAfterSeconds);
    }
    const result = await pool.run(() => reencodeImage(image.bytes, image.filename));
    if (!result.ok) throw imageRefused(result.refusal);
    return { uid: image.uid, purpose: image.purpose, jpeg: result.jpeg };
  }

  return {
    prepareImage,

    /**
     * Keeps an image (prepared, or re-encoded now), answering its id; refuses (1001, nothing
     * kept) what is not a JPEG or PNG under an accepted extension, or has too many pixels.
     * The bytes are written pending, then the row in the caller's transaction when one is
     * given (opened with `inTransaction`); its commit makes the file, its rollback removes it.
     */
    async storeImage(executor: Executor | undefined, image: ImageToStore | PreparedImage): Promise<string> {
      const prepared = 'jpeg' in image ? image : await prepareImage(image);
      const id = newFileId();
      await store.writePending(id, prepared.jpeg);
      try {
        await (executor ?? db)
          .insertInto('stored_file')
          .values({ id, uid: prepared.uid, purpose: prepared.purpose, content_type: 'image/jpeg', size: prepared.jpeg.length })
          .execute();
      } catch (error) {
        await store.remove(id);
        throw error;
      }
      if (executor) {
        afterRollback(executor, () => store.remove(id));
        afterCommit(executor, () => track(store.commit(id)));
      } else {
        await store.commit(id);
      }
      return id;
    },

    /** Deletes a file no longer named (a replaced avatar): its row in the caller's transaction, its bytes once that commits. */
    async removeFile(executor: Executor, id: string): Promise<void> {
      await executor.deleteFrom('stored_file').where('id', '=', id).execute();
      afterCommit(executor, () => track(store.remove(id)));
    },

    /**
     * Settles what a crash left (at start and periodically, by the jobs process): a pending
     * file whose row committed becomes its file; a file or pending file no row names, older
     * than {@link sweepGraceMs}, is deleted. Answers what it did.
     */
    async sweep(): Promise<{ committed: number; removed: number }> {
      const entries = (await store.list()).filter((entry) => nowMs() - entry.modifiedMs >= sweepGraceMs);
      let committed = 0;
      let removed = 0;
      for (let start = 0; start < entries.length; start += 500) {
        const batch = entries.slice(start, start + 500);
        const named = new Set((await db.selectFrom('stored_file').select('id').where('id', 'in', batch.map((entry) => entry.id)).execute()).map((row) => row.id));
        for (const entry of batch) {
          if (named.has(entry.id)) {
            if (entry.pending) {
              await store.commit(entry.id);
              committed += 1;
            }
          } else {
            await store.remove(entry.id);
            removed += 1;
          }
        }
      }
      return { committed, removed };
    },

    /** Resolves once every rename and removal after a commit so far has run. */
    async settled(): Promise<void> {
      await Promise.all([...inFlight]);
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
