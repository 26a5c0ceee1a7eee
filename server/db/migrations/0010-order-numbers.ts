import { sql, type Kysely } from 'kysely';

/** Order numbers of market orders and options are drawn from one sequence (they cannot collide). */
export async function up(db: Kysely<unknown>) {
  await sql`create sequence if not exists order_number`.execute(db);
}

export async function down(db: Kysely<unknown>) {
  await sql`drop sequence if exists order_number`.execute(db);
}
