import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Executor } from '../../db/after-commit';
import type { Database, IdentitySubmissionTable } from '../../db/schema';

export type SubmissionRow = Selectable<IdentitySubmissionTable>;
export type VerificationLevel = 'full' | 'junior';

export interface NewSubmission {
  uid: number;
  level: VerificationLevel;
  realName: string;
  idType: number;
  authEmail: string;
  idCardSealed: string;
  idCardMasked: string;
  keyId: string;
  /** The document number's keyed hash (compared across accounts, never read back). */
  documentDigest: string;
  frontFileId: string | null;
  reverseFileId: string | null;
  avatarFileId: string | null;
  locale: string;
}

/** Every `identity_verification` and `identity_submission` statement. */
export function createVerificationRepository(db: Kysely<Database>) {
  return {
    /** The customer's latest submission of a level (their status), or none. */
    latest(uid: number, level: VerificationLevel, executor: Executor = db): Promise<SubmissionRow | undefined> {
      return executor.selectFrom('identity_submission').selectAll().where('uid', '=', uid).where('level', '=', level).orderBy('id', 'desc').limit(1).executeTakeFirst();
    },

    /**
     * Takes the customer's lock of a level for a submission (made on first use): parallel
     * submissions of one customer take turns here. A decision never takes it (it locks the
     * review item, then the submission row), so the two orders cannot cross.
     */
    async lockLevel(trx: Transaction<Database>, uid: number, level: VerificationLevel): Promise<void> {
      await trx.insertInto('identity_verification').values({ uid, level }).onConflict((conflict) => conflict.columns(['uid', 'level']).doNothing()).execute();
      await trx.selectFrom('identity_verification').select('uid').where('uid', '=', uid).where('level', '=', level).forUpdate().executeTakeFirstOrThrow();
    },

    async insert(trx: Transaction<Database>, submission: NewSubmission): Promise<number> {
      const row = await trx
        .insertInto('identity_submission')
        .values({
          uid: submission.uid,
          level: submission.level,
          real_name: submission.realName,
          id_type: submission.idType,
          auth_email: submission.authEmail,
          id_card_sealed: submission.idCardSealed,
          id_card_masked: submission.idCardMasked,
          key_id: submission.keyId,
          document_digest: submission.documentDigest,
          front_file_id: submission.frontFileId,
          reverse_file_id: submission.reverseFileId,
          avatar_file_id: submission.avatarFileId,
          locale: submission.locale,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    /** Locks a pending submission for its decision or replacement; undefined when it is not pending any more. */
    lockPending(trx: Transaction<Database>, id: number): Promise<SubmissionRow | undefined> {
      return trx.selectFrom('identity_submission').selectAll().where('id', '=', id).where('status', '=', 'pending').forUpdate().executeTakeFirst();
    },

    /** Whether a document number (its hash) already verified an account other than `uid`. */
    /** The digests of every document number submitted on an account, verified or not (the staff's conflict-of-interest test). */
    async documentDigestsOf(uid: number, executor: Executor = db): Promise<string[]> {
      const rows = await executor.selectFrom('identity_submission').select('document_digest').distinct().where('uid', '=', uid).where('document_digest', 'is not', null).execute();
      return rows.map((row) => row.document_digest).filter((digest): digest is string => digest !== null);
    },

    async verifiedElsewhere(digest: string, uid: number, executor: Executor = db): Promise<boolean> {
      const row = await executor.selectFrom('verified_document').select('uid').where('digest', '=', digest).executeTakeFirst();
      return row !== undefined && row.uid !== uid;
    },

    /**
     * Records a document number as verifying `uid`, in the approval's transaction: answers
     * false when it already verified another account. The insert is the check (its primary
     * key), so two approvals of one number on two accounts cannot both pass.
     */
    async claimDocument(trx: Transaction<Database>, digest: string, uid: number): Promise<boolean> {
      await trx.insertInto('verified_document').values({ digest, uid }).onConflict((conflict) => conflict.column('digest').doNothing()).execute();
      const owner = await trx.selectFrom('verified_document').select('uid').where('digest', '=', digest).executeTakeFirstOrThrow();
      return owner.uid === uid;
    },

    async close(trx: Transaction<Database>, id: number, status: 'approved' | 'rejected' | 'replaced', reason: string | null, at: Date): Promise<void> {
      await trx.updateTable('identity_submission').set({ status, failure_reason: reason, decided_at: at }).where('id', '=', id).where('status', '=', 'pending').execute();
    },
  };
}

export type VerificationRepository = ReturnType<typeof createVerificationRepository>;
