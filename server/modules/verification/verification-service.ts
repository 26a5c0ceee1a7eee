import type { Transaction } from 'kysely';
import { ownFileUrl } from '../../../src/shared/api/uploads';
import {
  maskIdNumber,
  VerifiedStatus,
  verificationFieldProblem,
  verificationMessageKeys,
  type JuniorVerificationData,
  type VerificationData,
} from '../../../src/shared/api/verification';
import type { Switches } from '../../../src/shared/config/switches';
import { documentDigestInput } from '../../../src/shared/staff/conflict-of-interest';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { NoticeCode } from '../../../src/shared/notices/notice-codes';
import { fallbackLanguage, isLanguageCode, type LanguageCode } from '../../../src/shared/i18n/languages';
import type { Database } from '../../db/schema';
import { AppError } from '../../http/app-error';
import type { UploadedFile } from '../../http/multipart';
import { translate } from '../../i18n/messages';
import type { NoticesService } from '../notices/notices-service';
import type { ReviewEffectContext, ReviewsService, SubmittedReview } from '../reviews';
import type { PreparedImage, UploadsService } from '../uploads';
import type { SealedFields } from '../withdrawals/sealed-fields';
import type { SubmissionRow, VerificationLevel, VerificationRepository } from './verification-repository';

/** Notification code of a rejected identity verification (specification: 629007). */
export const verificationRejectedAlarm = 629007;
/** A notice of an account module: its code (alarmType) says what it is about. */
const accountNoticeActionType = 1;

const kindOf = { full: 'identity', junior: 'juniorIdentity' } as const;
const idTypeNames = ['ID card', 'Passport', "Driving licence"] as const;

const refused = (code: ErrorCode, key: string) => new AppError(code, key, 200, null, { key, params: {} });
const languageOf = (locale: string): LanguageCode => (isLanguageCode(locale.toLowerCase()) ? (locale.toLowerCase() as LanguageCode) : fallbackLanguage);

/** The specification's status of a customer's level: their latest submission's. */
export function statusOf(latest: Pick<SubmissionRow, 'status'> | undefined): VerifiedStatus {
  if (!latest) return VerifiedStatus.none;
  switch (latest.status) {
    case 'pending':
      return VerifiedStatus.authenticating;
    case 'approved':
      return VerifiedStatus.authenticated;
    case 'rejected':
      return VerifiedStatus.failed;
    // A replaced submission is never the latest (its replacement is); were it so, nothing is under review.
    case 'replaced':
      return VerifiedStatus.none;
  }
}

export interface FullSubmission {
  uid: number;
  meta: { realName: string; idCard: string; authEmail: string; idType: number; locale: string };
  files: { front?: UploadedFile | undefined; reverse?: UploadedFile | undefined; avatar?: UploadedFile | undefined };
}

/**
 * A full submission's images, re-encoded before its transaction (the upload limit and the
 * image pool are no work to do under a lock), and the brand's switches as they were checked
 * then: the transaction reads nothing outside itself (on PGlite's one connection a read on the
 * database handle from inside a transaction waits for that transaction; the switches' cache
 * of 2 s hid it until the images took longer than that to prepare).
 */
export interface PreparedDocuments {
  front?: PreparedImage | undefined;
  reverse?: PreparedImage | undefined;
  avatar?: PreparedImage | undefined;
  switches: Pick<Switches, 'twoTypeVerified' | 'addVerifiedEmail'>;
}

export interface JuniorSubmission {
  uid: number;
  meta: { realName: string; idCard: string; locale: string };
}

function submissionIdOf(item: SubmittedReview): number {
  const id = Number(item.subjectRef);
  if (!Number.isSafeInteger(id)) throw new Error(`identity review ${item.id} names no submission: ${item.subjectRef}`);
  return id;
}

/**
 * Identity verification, full (three document images) and junior (none): a submission is
 * checked, its number sealed, its images stored privately and its review item queued for
 * compliance, all in the caller's transaction; a submission while one is under review
 * replaces it (the earlier item is withdrawn from the queue); an approved level is closed
 * for good. Compliance's decision (the kinds' effects, registered here) sets the status
 * and tells the customer: approved, or rejected with the reason (629007).
 */
export function createVerificationService(deps: {
  repository: VerificationRepository;
  sealed: Pick<SealedFields, 'seal' | 'keyId'>;
  /** A keyed hash of a value (the data key's HMAC): document numbers are compared by it, never decrypted. */
  digest: (value: string) => string;
  uploads: UploadsService;
  reviews: Pick<ReviewsService, 'registerKind' | 'submit' | 'cancel'>;
  notices: Pick<NoticesService, 'send'>;
  switches: () => Promise<Switches>;
  nowMs?: (() => number) | undefined;
}) {
  const { repository, sealed, uploads, reviews, notices } = deps;
  const now = () => new Date((deps.nowMs ?? Date.now)());

  async function decided(trx: Transaction<Database>, item: SubmittedReview, outcome: 'approved' | 'rejected', context: ReviewEffectContext) {
    // The decision holds the review item's lock; the submission is locked after it (the documented order).
    const submission = await repository.lockPending(trx, submissionIdOf(item));
    if (!submission) throw new Error(`identity submission ${item.subjectRef} of review ${item.id} is not pending`);
    const language = languageOf(submission.locale);
    const level = submission.level === 'full' ? 'full' : 'junior';
    if (outcome === 'approved') {
      // One person, one verified identity: a number that verified another account is not approved again (the decision changes nothing).
      if (submission.document_digest !== null && !(await repository.claimDocument(trx, submission.document_digest, submission.uid))) {
        throw refused(ErrorCode.DOCUMENT_VERIFIED_ELSEWHERE, 'verify.document_verified_elsewhere');
      }
      await repository.close(trx, submission.id, 'approved', null, now());
      // A coded "new message" (629012) the app words by its event; the stored text is the fallback.
      await notices.send(trx, {
        uid: submission.uid,
        actionType: accountNoticeActionType,
        alarmType: NoticeCode.newMessage,
        title: translate(`verify.notice_approved_title_${level}`, {}, language),
        content: translate(`verify.notice_approved_content_${level}`, {}, language),
        params: { event: level === 'full' ? 'verificationApproved' : 'juniorVerificationApproved' },
      });
      return;
    }
    // A rejection always carries a reason (the review rules refuse one without).
    const reason = context.reason ?? '';
    await repository.close(trx, submission.id, 'rejected', reason, now());
    await notices.send(trx, {
      uid: submission.uid,
      actionType: accountNoticeActionType,
      alarmType: verificationRejectedAlarm,
      title: translate(`verify.notice_rejected_title_${level}`, {}, language),
      content: translate(`verify.notice_rejected_content_${level}`, { reason }, language),
      remark: reason,
    });
  }

  reviews.registerKind('identity', { effect: decided });
  reviews.registerKind('juniorIdentity', { effect: decided });

  /**
   * Takes the level's lock and answers the submission a new one builds on (the pending or
   * rejected latest, whose images a resubmission may keep): refused when approved; a
   * pending one is withdrawn from the queue and marked replaced. When staff decided it
   * first, their decision stands and is re-read.
   */
  async function openLevel(trx: Transaction<Database>, uid: number, level: VerificationLevel): Promise<SubmissionRow | undefined> {
    await repository.lockLevel(trx, uid, level);
    let latest = await repository.latest(uid, level, trx);
    if (latest?.status === 'pending') {
      const withdrawn = await reviews.cancel(trx, { kind: kindOf[level], subjectRef: String(latest.id), note: 'replaced by a newer submission' });
      if (withdrawn) await repository.close(trx, latest.id, 'replaced', null, now());
      latest = await repository.latest(uid, level, trx);
    }
    if (statusOf(latest) === VerifiedStatus.authenticated) throw refused(ErrorCode.VERIFICATION_ALREADY_APPROVED, 'verify.already_verified');
    return latest;
  }

  async function assertOpen(uid: number, level: VerificationLevel) {
    if (statusOf(await repository.latest(uid, level)) === VerifiedStatus.authenticated) throw refused(ErrorCode.VERIFICATION_ALREADY_APPROVED, 'verify.already_verified');
  }

  function fieldsChecked(fields: { realName: string; idCard: string; authEmail?: string }, askEmail: boolean) {
    const problem = verificationFieldProblem(fields, askEmail);
    if (problem) throw refused(ErrorCode.INCORRECT_PARAMETER_CONTENT, verificationMessageKeys[problem]);
  }

  /** Refused before anything is stored: the number already verified another account. */
  async function assertDocumentFree(trx: Transaction<Database>, uid: number, documentDigest: string) {
    if (await repository.verifiedElsewhere(documentDigest, uid, trx)) throw refused(ErrorCode.DOCUMENT_VERIFIED_ELSEWHERE, 'verify.document_verified_elsewhere');
  }

  function sealedNumber(idCard: string) {
    const value = idCard.trim();
    // Compared as the document prints it (the staff's declared numbers are digested the same way: conflict-of-interest.ts).
    return { idCardSealed: sealed.seal(value), idCardMasked: maskIdNumber(value), keyId: sealed.keyId, documentDigest: deps.digest(documentDigestInput(value)) };
  }

  return {
    /** The full level's status for `user/info` and withdrawals (2 is verified). */
    async verifiedStatus(uid: number): Promise<VerifiedStatus> {
      return statusOf(await repository.latest(uid, 'full'));
    },

    async get(uid: number): Promise<VerificationData> {
      const latest = await repository.latest(uid, 'full');
      const url = (id: string | null | undefined) => (id ? ownFileUrl(id) : null);
      return {
        verifiedStatus: statusOf(latest),
        realName: latest?.real_name ?? '',
        idCard: latest?.id_card_masked ?? '',
        idType: latest?.id_type ?? 0,
        authEmail: latest?.auth_email ?? '',
        failReason: latest?.status === 'rejected' ? latest.failure_reason : null,
        cardImgFront: url(latest?.front_file_id),
        cardImgReverse: url(latest?.reverse_file_id),
        cardImgAvatar: url(latest?.avatar_file_id),
      };
    },

    async juniorGet(uid: number): Promise<JuniorVerificationData> {
      const latest = await repository.latest(uid, 'junior');
      return {
        verifiedStatus: statusOf(latest),
        realName: latest?.real_name ?? '',
        idCard: latest?.id_card_masked ?? '',
        failReason: latest?.status === 'rejected' ? latest.failure_reason : null,
      };
    },

    /** What is refused before any transaction (an approved level, a field, a missing image for a first submission), then the images given, re-encoded. */
    async checkFull(request: FullSubmission): Promise<PreparedDocuments> {
      const switches = await deps.switches();
      fieldsChecked(request.meta, switches.addVerifiedEmail);
      await assertOpen(request.uid, 'full');
      const latest = await repository.latest(request.uid, 'full');
      const { files } = request;
      if (!files.front && !latest?.front_file_id) throw refused(ErrorCode.INCORRECT_PARAMETER_CONTENT, verificationMessageKeys.front);
      if (!files.reverse && !latest?.reverse_file_id) throw refused(ErrorCode.INCORRECT_PARAMETER_CONTENT, verificationMessageKeys.reverse);
      if (!files.avatar && !latest?.avatar_file_id) throw refused(ErrorCode.INCORRECT_PARAMETER_CONTENT, verificationMessageKeys.avatar);
      const prepare = async (file: UploadedFile | undefined) =>
        file ? uploads.prepareImage({ uid: request.uid, purpose: 'identityDocument', bytes: file.bytes, filename: file.filename }) : undefined;
      return {
        front: await prepare(files.front),
        reverse: await prepare(files.reverse),
        avatar: await prepare(files.avatar),
        switches: { twoTypeVerified: switches.twoTypeVerified, addVerifiedEmail: switches.addVerifiedEmail },
      };
    },

    /**
     * Records a full submission in the caller's transaction (the Idempotency-Key's): the
     * images given stored (a resubmission keeps the earlier ones it does not replace), the
     * number sealed, the row and its compliance item.
     */
    async submitFull(trx: Transaction<Database>, request: FullSubmission, documents: PreparedDocuments): Promise<null> {
      const { uid, meta } = request;
      const { switches } = documents;
      const base = await openLevel(trx, uid, 'full');
      const number = sealedNumber(meta.idCard);
      await assertDocumentFree(trx, uid, number.documentDigest);
      const store = async (image: PreparedImage | undefined, earlier: string | null | undefined) => (image ? uploads.storeImage(trx, image) : (earlier ?? null));
      const frontFileId = await store(documents.front, base?.front_file_id);
      const reverseFileId = await store(documents.reverse, base?.reverse_file_id);
      const avatarFileId = await store(documents.avatar, base?.avatar_file_id);
      // Checked again under the lock: the earlier images checkFull counted on are the base's.
      if (!frontFileId) throw refused(ErrorCode.INCORRECT_PARAMETER_CONTENT, verificationMessageKeys.front);
      if (!reverseFileId) throw refused(ErrorCode.INCORRECT_PARAMETER_CONTENT, verificationMessageKeys.reverse);
      if (!avatarFileId) throw refused(ErrorCode.INCORRECT_PARAMETER_CONTENT, verificationMessageKeys.avatar);
      const idType = switches.twoTypeVerified ? meta.idType : 0;
      const authEmail = switches.addVerifiedEmail ? meta.authEmail.trim() : '';
      const id = await repository.insert(trx, {
        uid,
        level: 'full',
        realName: meta.realName.trim(),
        idType,
        authEmail,
        ...number,
        frontFileId,
        reverseFileId,
        avatarFileId,
        locale: meta.locale,
      });
      await reviews.submit(trx, {
        kind: 'identity',
        uid,
        subjectRef: String(id),
        facts: {
          'Real name': meta.realName.trim(),
          'Document type': idTypeNames[idType] ?? String(idType),
          'Document number': number.idCardMasked,
          ...(authEmail ? { 'E-mail': authEmail } : {}),
          Language: meta.locale,
          ...(base ? { 'Earlier submission': `#${base.id} (${base.status})` } : {}),
        },
        // Named so that the review item lists them in this order (its files are sorted by name): front, back, selfie.
        files: [
          { fileId: frontFileId, name: '1-cardImgFront.jpg' },
          { fileId: reverseFileId, name: '2-cardImgReverse.jpg' },
          { fileId: avatarFileId, name: '3-cardImgAvatar.jpg' },
        ],
      });
      return null;
    },

    async checkJunior(request: JuniorSubmission): Promise<void> {
      const switches = await deps.switches();
      if (!switches['user/juniorVerfiy']) throw refused(ErrorCode.JUNIOR_VERIFICATION_UNAVAILABLE, 'verify.junior_unavailable');
      fieldsChecked(request.meta, false);
      await assertOpen(request.uid, 'junior');
    },

    /** Records a junior submission (name and number, no images) and its compliance item, in the caller's transaction. */
    async submitJunior(trx: Transaction<Database>, request: JuniorSubmission): Promise<null> {
      const { uid, meta } = request;
      const base = await openLevel(trx, uid, 'junior');
      const number = sealedNumber(meta.idCard);
      await assertDocumentFree(trx, uid, number.documentDigest);
      const id = await repository.insert(trx, {
        uid,
        level: 'junior',
        realName: meta.realName.trim(),
        idType: 0,
        authEmail: '',
        ...number,
        frontFileId: null,
        reverseFileId: null,
        avatarFileId: null,
        locale: meta.locale,
      });
      await reviews.submit(trx, {
        kind: 'juniorIdentity',
        uid,
        subjectRef: String(id),
        facts: {
          'Real name': meta.realName.trim(),
          'Document number': number.idCardMasked,
          Language: meta.locale,
          ...(base ? { 'Earlier submission': `#${base.id} (${base.status})` } : {}),
        },
      });
      return null;
    },
  };
}

export type VerificationService = ReturnType<typeof createVerificationService>;
