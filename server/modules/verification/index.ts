import {
  juniorVerificationGet,
  juniorVerificationSubmit,
  verificationGet,
  verificationPartNames,
  verificationSubmit,
} from '../../../src/shared/api/verification';
import { createDataCipher, loadDataKey } from '../../auth/data-key';
import type { DatabaseHandle } from '../../db/database';
import { idempotencyKeyOf, runOnce } from '../../http/idempotency';
import type { SignedInRoutes } from '../../http/signed-in';
import type { Settings } from '../../settings';
import type { NoticesService } from '../notices';
import type { ReviewsService } from '../reviews';
import type { SiteService } from '../site/site-service';
import type { UploadsService } from '../uploads';
import { createSealedFields } from '../withdrawals/sealed-fields';
import type { VerificationRepository } from './verification-repository';
import { createVerificationService, type VerificationService } from './verification-service';

export { createVerificationRepository, type VerificationRepository } from './verification-repository';
export { statusOf as verifiedStatusOf, type VerificationService } from './verification-service';

/**
 * Identity verification (issue 17): `user/auth/get|submit` (multipart, three document
 * images through the uploads pipeline) and `user/firstAuth/get|submit` (junior, no
 * images), each submission once per Idempotency-Key; the 'identity' and 'juniorIdentity'
 * review kinds' effects (status and notice). Its repository is made before the account
 * module, whose `user/info` answers the status, and withdrawals, which may require it.
 */
export async function registerVerification(deps: {
  settings: Settings;
  database: DatabaseHandle;
  dataDir: string | null;
  repository: VerificationRepository;
  uploads: UploadsService;
  reviews: ReviewsService;
  notices: NoticesService;
  site: Pick<SiteService, 'switches'>;
  signedIn: SignedInRoutes;
  nowMs?: (() => number) | undefined;
}): Promise<VerificationService> {
  const db = deps.database.db;
  const cipher = createDataCipher(await loadDataKey({ dataKeySetting: deps.settings.dataEncryptionKey, dataDir: deps.dataDir }));
  const sealed = createSealedFields(cipher);
  const verification = createVerificationService({
    repository: deps.repository,
    sealed,
    digest: (value) => cipher.digest(value),
    uploads: deps.uploads,
    reviews: deps.reviews,
    notices: deps.notices,
    switches: () => deps.site.switches(),
    nowMs: deps.nowMs,
  });
  const once = deps.nowMs ? { nowMs: deps.nowMs } : {};
  await deps.signedIn((scope) => {
    scope.route(verificationGet, async (_body, request) => verification.get(request.session.uid));
    scope.route(juniorVerificationGet, async (_body, request) => verification.juniorGet(request.session.uid));
    scope.multipartRoute(verificationSubmit, Object.values(verificationPartNames), async (meta, files, request) => {
      const uid = request.session.uid;
      idempotencyKeyOf(request);
      const submission = {
        uid,
        meta,
        files: { front: files[verificationPartNames.front], reverse: files[verificationPartNames.reverse], avatar: files[verificationPartNames.avatar] },
      };
      // Checked before the key's transaction (PGlite has one connection); checked again under the level's lock.
      const documents = await verification.checkFull(submission);
      return runOnce(db, { request, uid, path: verificationSubmit.path, ...once }, (trx) => verification.submitFull(trx, submission, documents));
    });
    scope.route(juniorVerificationSubmit, async (meta, request) => {
      const uid = request.session.uid;
      idempotencyKeyOf(request);
      await verification.checkJunior({ uid, meta });
      return runOnce(db, { request, uid, path: juniorVerificationSubmit.path, ...once }, (trx) => verification.submitJunior(trx, { uid, meta }));
    });
  });
  return verification;
}
