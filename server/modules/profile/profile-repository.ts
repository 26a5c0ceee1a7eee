import type { Kysely, Transaction } from 'kysely';
import type { Executor } from '../../db/after-commit';
import type { Database } from '../../db/schema';

/** The profile's SQL: the nickname and avatar of `app_user`, and who signed up with whose invite code. */
export function createProfileRepository(db: Kysely<Database>) {
  return {
    /** Sets the nickname, and the avatar when a new one is given; false for an unknown user. */
    async updateProfile(executor: Executor, uid: number, change: { nick: string; avatarFileId?: string | undefined }): Promise<boolean> {
      const result = await executor
        .updateTable('app_user')
        .set({ nick: change.nick, ...(change.avatarFileId ? { avatar_file_id: change.avatarFileId } : {}) })
        .where('uid', '=', uid)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** The current avatar's file id (null for none), the user's row locked until the caller's transaction ends. */
    async lockAvatar(trx: Transaction<Database>, uid: number): Promise<string | null> {
      const row = await trx.selectFrom('app_user').select('avatar_file_id').where('uid', '=', uid).forUpdate().executeTakeFirst();
      return row?.avatar_file_id ?? null;
    },

    async inviteCodeOf(uid: number): Promise<string | undefined> {
      const row = await db.selectFrom('app_user').select('invite_code').where('uid', '=', uid).executeTakeFirst();
      return row?.invite_code;
    },

    async invitedCount(uid: number): Promise<number> {
      const row = await db.selectFrom('app_user').select((eb) => eb.fn.countAll<string>().as('count')).where('invited_by', '=', uid).executeTakeFirstOrThrow();
      return Number(row.count);
    },
  };
}

export type ProfileRepository = ReturnType<typeof createProfileRepository>;
