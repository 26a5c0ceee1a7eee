import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/** What the account side reads of a user beyond the ledger: whether the back office lets them trade. */
export function createAccountRepository(db: Kysely<Database>) {
  return {
    /** Whether the user may not trade (barred by the back office); an unknown user may not. */
    async tradeProhibited(uid: number): Promise<boolean> {
      const user = await db.selectFrom('app_user').select('trade_prohibited').where('uid', '=', uid).executeTakeFirst();
      return !user || user.trade_prohibited;
    },
  };
}

export type AccountRepository = ReturnType<typeof createAccountRepository>;
