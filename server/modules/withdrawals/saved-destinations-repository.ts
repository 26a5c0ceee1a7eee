import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { BankCardTable, Database } from '../../db/schema';
import type { Executor } from '../../db/after-commit';

export type BankCardRow = Selectable<BankCardTable>;

/**
 * Every statement on saved addresses and bank cards. Each read and write names the owner:
 * a row of another customer is never found, so it answers as not found.
 */
export function createSavedDestinationsRepository(db: Kysely<Database>) {
  return {
    async addresses(uid: number, page: number, size: number) {
      const [rows, count] = await Promise.all([
        db.selectFrom('saved_crypto_address').selectAll().where('uid', '=', uid).orderBy('id', 'desc').limit(size).offset((page - 1) * size).execute(),
        db.selectFrom('saved_crypto_address').select((eb) => eb.fn.countAll<string>().as('count')).where('uid', '=', uid).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.count) };
    },

    async insertAddress(executor: Executor, values: { uid: number; coinNetworkId: number; addressSealed: string; keyId: string }) {
      await executor
        .insertInto('saved_crypto_address')
        .values({ uid: values.uid, coin_network_id: values.coinNetworkId, address_sealed: values.addressSealed, key_id: values.keyId })
        .execute();
    },

    /** Answers whether the owner had this address. */
    async deleteAddress(uid: number, id: number): Promise<boolean> {
      const result = await db.deleteFrom('saved_crypto_address').where('id', '=', id).where('uid', '=', uid).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    async cards(uid: number, page: number, size: number) {
      const [rows, count] = await Promise.all([
        db.selectFrom('bank_card').selectAll().where('uid', '=', uid).orderBy('id', 'desc').limit(size).offset((page - 1) * size).execute(),
        db.selectFrom('bank_card').select((eb) => eb.fn.countAll<string>().as('count')).where('uid', '=', uid).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.count) };
    },

    /** The owner's saved addresses on one coin network (a withdrawal's destination must be one of them). */
    addressesOn(uid: number, coinNetworkId: number) {
      return db.selectFrom('saved_crypto_address').select(['address_sealed', 'key_id']).where('uid', '=', uid).where('coin_network_id', '=', coinNetworkId).execute();
    },

    /** When the owner last added an address or added or changed a card: a new destination starts the cooling-off. */
    async latestChangeAt(uid: number): Promise<Date | null> {
      const [address, card] = await Promise.all([
        db.selectFrom('saved_crypto_address').select((eb) => eb.fn.max('created_at').as('at')).where('uid', '=', uid).executeTakeFirst(),
        db.selectFrom('bank_card').select((eb) => eb.fn.max(sql<Date>`greatest(created_at, updated_at)`).as('at')).where('uid', '=', uid).executeTakeFirst(),
      ]);
      const times = [address?.at, card?.at].filter((at): at is Date => at !== null && at !== undefined).map((at) => new Date(at).getTime());
      return times.length === 0 ? null : new Date(Math.max(...times));
    },

    async address(uid: number, id: number) {
      return db.selectFrom('saved_crypto_address').selectAll().where('id', '=', id).where('uid', '=', uid).executeTakeFirst();
    },

    async card(uid: number, id: number, executor: Executor = db) {
      return executor.selectFrom('bank_card').selectAll().where('id', '=', id).where('uid', '=', uid).executeTakeFirst();
    },

    async insertCard(executor: Executor, values: Insertable<BankCardTable>) {
      await executor.insertInto('bank_card').values(values).execute();
    },

    /** Answers whether the owner had this card. */
    async updateCard(executor: Executor, uid: number, id: number, values: Updateable<BankCardTable>): Promise<boolean> {
      const result = await executor.updateTable('bank_card').set(values).where('id', '=', id).where('uid', '=', uid).executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async deleteCard(uid: number, id: number): Promise<boolean> {
      const result = await db.deleteFrom('bank_card').where('id', '=', id).where('uid', '=', uid).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}
export type SavedDestinationsRepository = ReturnType<typeof createSavedDestinationsRepository>;
