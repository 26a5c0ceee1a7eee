import { sql, type Kysely } from 'kysely';

/**
 * One person, one verified identity: each submission keeps a keyed hash of its document
 * number (the number itself stays sealed), and `verified_document` holds the hash of every
 * approved number with the one account it verified. Its primary key is the check: a number
 * approved on another account cannot be approved again, even by two decisions at once.
 * Submissions from before it carry no hash (null) and are not compared.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema.alterTable('identity_submission').addColumn('document_digest', 'text').execute();
  await db.schema
    .createTable('verified_document')
    .addColumn('digest', 'text', (column) => column.primaryKey())
    .addColumn('uid', 'integer', (column) => column.notNull().references('app_user.uid'))
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.dropTable('verified_document').execute();
  await db.schema.alterTable('identity_submission').dropColumn('document_digest').execute();
}
