import type { Kysely } from 'kysely';

/**
 * Which request spent the last second-factor step: a client's retry of that same request
 * (its Idempotency-Key and body) may present the same code again and reach its first
 * answer, while any other request with that code is refused as a replay. Null: spent by a
 * sign-in or a set-up, which no retry can share.
 */
export async function up(db: Kysely<unknown>) {
  await db.schema.alterTable('app_user').addColumn('totp_last_request', 'text').execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.alterTable('app_user').dropColumn('totp_last_request').execute();
}
