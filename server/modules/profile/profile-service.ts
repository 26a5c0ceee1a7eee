import type { Kysely } from 'kysely';
import { inviteLinkFor, type InviteInfo } from '../../../src/shared/api/profile';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { inTransaction } from '../../db/after-commit';
import type { Database } from '../../db/schema';
import { AppError } from '../../http/app-error';
import type { UploadedFile } from '../../http/multipart';
import type { UploadsService } from '../uploads';
import type { ProfileRepository } from './profile-repository';

/**
 * The customer's profile (`user/infoSubmit`: nickname and avatar) and invitations
 * (`invite/info`). The avatar goes through the upload pipeline (re-encoded, owner-only)
 * before the transaction (the decoding holds no connection), then is kept in the same
 * transaction as the nickname: a refused image changes neither. The avatar it replaces is
 * deleted with it.
 */
export function createProfileService(deps: { db: Kysely<Database>; repository: ProfileRepository; uploads: Pick<UploadsService, 'prepareImage' | 'storeImage' | 'removeFile'> }) {
  const { repository } = deps;
  return {
    async submit(uid: number, change: { nick: string; avatar?: UploadedFile | undefined }): Promise<void> {
      const avatar = change.avatar ? await deps.uploads.prepareImage({ uid, purpose: 'avatar', bytes: change.avatar.bytes, filename: change.avatar.filename }) : undefined;
      await inTransaction(deps.db, async (trx) => {
        const replaced = avatar ? await repository.lockAvatar(trx, uid) : null;
        const avatarFileId = avatar ? await deps.uploads.storeImage(trx, avatar) : undefined;
        if (!(await repository.updateProfile(trx, uid, { nick: change.nick, avatarFileId }))) throw new AppError(ErrorCode.USER_NOT_FOUND);
        if (replaced) await deps.uploads.removeFile(trx, replaced);
      });
    },

    async inviteInfo(uid: number, appOrigin: string): Promise<InviteInfo> {
      const inviteCode = await repository.inviteCodeOf(uid);
      if (inviteCode === undefined) throw new AppError(ErrorCode.USER_NOT_FOUND);
      return { inviteCode, inviteLink: inviteLinkFor(appOrigin, inviteCode), invitedCount: await repository.invitedCount(uid) };
    },
  };
}

export type ProfileService = ReturnType<typeof createProfileService>;
