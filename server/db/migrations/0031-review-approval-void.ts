import type { Kysely } from 'kysely';

/**
 * A first approval voided (issue 31): when its approver is disabled before the second
 * approval, the item goes back to pending and the decision row stays, marked voided, so the
 * history keeps it and no later approval counts it as the first.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema.alterTable('review_decision').addColumn('voided_at', 'timestamptz').execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.alterTable('review_decision').dropColumn('voided_at').execute();
}
