import { sql, type Kysely } from 'kysely';

/**
 * Uploaded images (deposit proofs, later avatars and identity documents) and deposits.
 * A stored file's bytes live under DATA_DIR/uploads by its random id, never under the web
 * root; this row says whose it is and what for. A deposit is a customer's claim with its
 * proof, decided by finance through the review queue (payState 0 waiting, 1 success,
 * 2 fail). A replayed Idempotency-Key is answered by server/http/idempotency.ts (0015's table).
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable('stored_file')
    /** Random (128 bits, base64url): the file's name on disk and in its URL; guessing one is hopeless. */
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('uid', 'integer', (column) => column.notNull().references('app_user.uid'))
    .addColumn('purpose', 'text', (column) => column.notNull().check(sql`purpose in ('depositProof', 'avatar', 'identityDocument')`))
    .addColumn('content_type', 'text', (column) => column.notNull())
    .addColumn('size', 'integer', (column) => column.notNull().check(sql`size > 0`))
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('stored_file_owner').on('stored_file').columns(['uid', 'id']).execute();

  await db.schema
    .createTable('deposit')
    .addColumn('id', 'serial', (column) => column.primaryKey())
    .addColumn('uid', 'integer', (column) => column.notNull().references('app_user.uid'))
    /** The coin network paid into (the wallet module's coin_network id), with its names as they were. */
    .addColumn('coin_id', 'integer', (column) => column.notNull())
    .addColumn('currency', 'text', (column) => column.notNull())
    .addColumn('network', 'text', (column) => column.notNull())
    .addColumn('amount', 'numeric(38, 8)', (column) => column.notNull().check(sql`amount > 0`))
    /** What the amount was worth in USD when submitted (the minimum and the reviewers compare it). */
    .addColumn('amount_usd', 'numeric(38, 8)', (column) => column.notNull())
    .addColumn('proof_file_id', 'text', (column) => column.notNull().references('stored_file.id'))
    .addColumn('locale', 'text', (column) => column.notNull())
    .addColumn('pay_state', 'integer', (column) => column.notNull().defaultTo(0).check(sql`pay_state in (0, 1, 2)`))
    .addColumn('failure_reason', 'text')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('decided_at', 'timestamptz')
    .addCheckConstraint('deposit_decided_has_time', sql`(pay_state = 0) = (decided_at is null)`)
    .execute();
  // The records list: one customer's newest first, by state.
  await db.schema.createIndex('deposit_owner_newest').on('deposit').columns(['uid', 'id']).execute();

  /** Customers whose deposits the operator has turned off (deposit/status answers disabled; submit is refused). */
  await db.schema
    .createTable('deposit_block')
    .addColumn('uid', 'integer', (column) => column.primaryKey().references('app_user.uid'))
    .addColumn('reason', 'text', (column) => column.notNull())
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.dropTable('deposit_block').execute();
  await db.schema.dropTable('deposit').execute();
  await db.schema.dropTable('stored_file').execute();
}
