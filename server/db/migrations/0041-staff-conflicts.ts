import { sql, type Kysely } from 'kysely';

/**
 * Conflict of interest (src/shared/staff/conflict-of-interest.ts): each member's own identity
 * document, as a keyed digest (the number itself is not kept; its mask is, for the console),
 * one member per document (the unique index: one person, one staff account), and the customer
 * accounts declared as a member's own. Neither is ever updated or deleted.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .alterTable('staff_member')
    .addColumn('document_digest', 'text')
    .addColumn('document_masked', 'text')
    .addColumn('document_declared_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('staff_member_document_digest').unique().on('staff_member').column('document_digest').execute();
  await db.schema
    .createTable('staff_customer_link')
    .addColumn('staff_id', 'integer', (column) => column.notNull().references('staff_member.id'))
    .addColumn('uid', 'integer', (column) => column.notNull().references('app_user.uid'))
    // Who recorded it: the member themselves, or a compliance member or admin for them.
    .addColumn('recorded_by', 'integer', (column) => column.notNull().references('staff_member.id'))
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('staff_customer_link_pkey', ['staff_id', 'uid'])
    .execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.dropTable('staff_customer_link').execute();
  await db.schema.dropIndex('staff_member_document_digest').execute();
  await db.schema.alterTable('staff_member').dropColumn('document_declared_at').dropColumn('document_masked').dropColumn('document_digest').execute();
}
