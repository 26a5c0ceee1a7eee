import { sql, type Kysely } from 'kysely';

/**
 * A market order's overnight fees on their own (the specification names an overnight fee
 * beside the fee): charged into `fee` as before and counted here too. Existing orders get
 * the sum of their overnight journals' charges.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema
    .alterTable('trade_order')
    .addColumn('overnight_fee', 'numeric(38, 8)', (column) => column.notNull().defaultTo(0))
    .execute();
  await sql`
    update trade_order t set overnight_fee = charged.amount
    from (
      select j.reference, sum(e.amount) as amount
      from ledger_journal j join ledger_entry e on e.journal_id = j.id
      where j.kind = 'overnight-fee' and e.amount > 0
      group by j.reference
    ) charged
    where charged.reference = t.order_no`.execute(db);
}

export async function down(db: Kysely<unknown>) {
  await db.schema.alterTable('trade_order').dropColumn('overnight_fee').execute();
}
