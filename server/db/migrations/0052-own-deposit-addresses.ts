import { sql, type Kysely } from 'kysely';

/**
 * Self-owned wallets (the specification's walletType 1): a customer's own deposit address on
 * a coin network, set by staff. A customer with any is walletType 1 and deposits to these
 * instead of the platform's addresses.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable('own_deposit_address')
    .addColumn('uid', 'integer', (column) => column.notNull().references('app_user.uid'))
    .addColumn('coin_network_id', 'integer', (column) => column.notNull().references('coin_network.id'))
    .addColumn('address', 'text', (column) => column.notNull().check(sql`length(address) between 10 and 128`))
    .addColumn('updated_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('own_deposit_address_pk', ['uid', 'coin_network_id'])
    .execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.dropTable('own_deposit_address').execute();
}
