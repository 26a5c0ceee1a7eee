import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { ownFilePath, staffFilePath } from '../../../src/shared/api/uploads';
import { createDataCipher, loadDataKey } from '../../auth/data-key';
import { createRateLimiter } from '../../auth/rate-limiter';
import type { DatabaseHandle } from '../../db/database';
import { AppError } from '../../http/app-error';
import { sendPrivateFile } from '../../http/multipart';
import type { SignedInRoutes } from '../../http/signed-in';
import type { ReviewsService } from '../reviews';
import type { StaffAudit, StaffRoutes } from '../staff';
import type { Settings } from '../../settings';
import { diskFileStore, memoryFileStore } from './file-store';
import { createImagePool } from './image-pool';
import { createUploadsService, type UploadsService } from './uploads-service';

export type { ImageToStore, PreparedImage, UploadsService } from './uploads-service';

declare module 'fastify' {
  interface FastifyInstance {
    /** Uploaded images: `storeImage` for the modules that take them (and tests). */
    uploads: UploadsService;
  }
}

/** A missing file, another user's and a malformed id all answer the same 404. */
const noSuchFile = () => new AppError(ErrorCode.DATA_NOT_FOUND, 'no such file', 404);

function idOf(request: FastifyRequest): string {
  const { id } = request.params as { id?: unknown };
  return typeof id === 'string' ? id : '';
}

/**
 * Uploaded images: the service other modules store through (deposit proofs here; avatars
 * and identity documents later) and the two routes that read them back — the owner's
 * (`GET /v1/waa/file/:id`) and staff's (`GET /v1/staff/file/:id`, for a member whose roles
 * review an item the file is attached to). Bytes live under DATA_DIR/uploads (outside the
 * web root), or in memory when the server runs without a data folder (tests).
 */
/** How often the jobs process sweeps what a crash left in the file store. */
const sweepEveryMs = 60 * 60 * 1000;

export async function registerUploads(deps: {
  settings: Pick<Settings, 'dataEncryptionKey' | 'uploadsPer10Min'>;
  database: DatabaseHandle;
  dataDir: string | null;
  signedIn: SignedInRoutes;
  staffRoutes: StaffRoutes;
  reviews: ReviewsService;
  /** A staff member's read of a customer's file is audited before the bytes go. */
  audit: StaffAudit;
  /** Whether this process runs the jobs (the sweep runs there only). */
  jobsLeading: () => boolean;
  log: (message: string, error: unknown) => void;
  nowMs?: (() => number) | undefined;
}): Promise<UploadsService> {
  const store = deps.dataDir === null ? memoryFileStore(deps.nowMs) : diskFileStore(path.join(deps.dataDir, 'uploads'), (error) => deps.log('the uploads disk is full: uploads are refused until there is room', error));
  const cipher = createDataCipher(await loadDataKey({ dataKeySetting: deps.settings.dataEncryptionKey, dataDir: deps.dataDir }));
  const perAccount = createRateLimiter({ db: deps.database.db, name: 'uploads', limit: deps.settings.uploadsPer10Min, windowMs: 10 * 60 * 1000, keyOf: cipher.digest, nowMs: deps.nowMs });
  const uploads = createUploadsService({
    db: deps.database.db,
    store,
    // One image at a time, two more waiting: a fifth upload at once is told to try again.
    pool: createImagePool({ concurrency: 1, queueLimit: 2 }),
    uploadLimit: (uid) => perAccount.hit(String(uid)),
    nowMs: deps.nowMs,
  });
  const sweep = () => {
    if (deps.jobsLeading()) uploads.sweep().catch((error: unknown) => deps.log('sweeping the stored files failed', error));
  };
  sweep();
  const sweeping = setInterval(sweep, sweepEveryMs);
  sweeping.unref();

  await deps.signedIn((scope) => {
    scope.getRoute(ownFilePath, async (request, reply) => {
      const file = await uploads.ownFile(request.session.uid, idOf(request));
      if (!file) throw noSuchFile();
      return sendPrivateFile(reply, file);
    });
  });
  deps.staffRoutes.getRoute(staffFilePath, async (request, reply) => {
    const id = idOf(request);
    const file = (await deps.reviews.mayViewFile(request.staff, id)) ? await uploads.anyFile(id) : null;
    if (!file) throw noSuchFile();
    await deps.audit.record(deps.database.db, request.staff, { action: 'files.read', targetType: 'file', targetId: id, uid: file.uid, before: null, after: null });
    return sendPrivateFile(reply, file);
  });
  return uploads;
}
