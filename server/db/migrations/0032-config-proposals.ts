import { sql, type Kysely } from 'kysely';

/**
 * Dual control of the settings that move money (issue 31): one admin proposes a change, it
 * takes effect only when a second admin approves it. A proposal keeps what it asks
 * (`payload`), the setting as it was when proposed (`before`, compared again at approval: a
 * stale proposal is refused) and what it would become (`after`).
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .createTable('config_proposal')
    .addColumn('id', 'serial', (column) => column.primaryKey())
    /** The registered kind: 'currency', 'product', 'optionProduct', … */
    .addColumn('kind', 'text', (column) => column.notNull())
    /** What the kind names as the changed setting (a currency id, a product code); null for a new one. */
    .addColumn('target', 'text')
    .addColumn('payload', 'jsonb', (column) => column.notNull())
    .addColumn('before', 'jsonb')
    .addColumn('after', 'jsonb')
    .addColumn('status', 'text', (column) => column.notNull().defaultTo('proposed').check(sql`status in ('proposed', 'approved', 'rejected', 'voided')`))
    .addColumn('proposed_by', 'integer', (column) => column.notNull().references('staff_member.id'))
    .addColumn('proposed_at', 'timestamptz', (column) => column.notNull())
    .addColumn('decided_by', 'integer', (column) => column.references('staff_member.id'))
    .addColumn('decided_at', 'timestamptz')
    .addColumn('reason', 'text')
    /** The console's id of the deciding click: a replay answers the first decision. */
    .addColumn('request_id', 'text', (column) => column.unique())
    .execute();
  await db.schema.createIndex('config_proposal_open').on('config_proposal').columns(['status', 'id']).execute();
  await db.schema.createIndex('config_proposal_proposer').on('config_proposal').columns(['proposed_by', 'status']).execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.dropTable('config_proposal').execute();
}
