import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import { normalizeSignInCode, signInCodeAlphabet, signInCodeLength } from '../../src/shared/auth/sign-in-code';
import type { Database } from '../db/schema';
import type { DataCipher } from './data-key';

/**
 * Sign-in codes (`sign_in_code`): sent to an account on request, each lets one sign-in
 * from a new device skip the account's delay (see sign-in-guard.ts). Every live code of
 * the account is good, so a code that someone else asked for is as good to the owner who
 * receives it; each is spent once.
 */
export function createSignInCodes(db: Kysely<Database>, cipher: DataCipher, options: { ttlMs: number }, nowMs: () => number = Date.now) {
  const codeHash = (account: string, code: string) => cipher.digest(`sign-in-code:${account}:${code}`);
  return {
    /** A new code for `account` (a keyed hash of it), to be sent; only its hash is kept. */
    async issue(account: string): Promise<string> {
      let code = '';
      for (let index = 0; index < signInCodeLength; index += 1) code += signInCodeAlphabet[crypto.randomInt(signInCodeAlphabet.length)];
      const now = new Date(nowMs());
      await db.deleteFrom('sign_in_code').where('expires_at', '<=', now).where('account', '=', account).execute();
      await db.insertInto('sign_in_code').values({ account, code_hash: codeHash(account, code), created_at: now, expires_at: new Date(now.getTime() + options.ttlMs) }).execute();
      return code;
    },

    /** Whether `typed` is a live code of `account` (a try may go on; `spend` decides, once it signed in). */
    async isLive(account: string, typed: string): Promise<boolean> {
      const code = normalizeSignInCode(typed);
      if (!code) return false;
      const row = await db
        .selectFrom('sign_in_code')
        .select('id')
        .where('account', '=', account)
        .where('code_hash', '=', codeHash(account, code))
        .where('consumed_at', 'is', null)
        .where('expires_at', '>', new Date(nowMs()))
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Spends a live code of `account` as typed: checked and spent in one statement, so it signs in once. */
    async spend(account: string, typed: string): Promise<boolean> {
      const code = normalizeSignInCode(typed);
      if (!code) return false;
      const now = new Date(nowMs());
      const spent = await db
        .updateTable('sign_in_code')
        .set({ consumed_at: now })
        .where('account', '=', account)
        .where('code_hash', '=', codeHash(account, code))
        .where('consumed_at', 'is', null)
        .where('expires_at', '>', now)
        .returning('id')
        .execute();
      return spent.length > 0;
    },
  };
}

export type SignInCodes = ReturnType<typeof createSignInCodes>;
