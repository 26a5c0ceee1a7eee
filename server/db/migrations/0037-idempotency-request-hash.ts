import type { Kysely } from 'kysely';

/**
 * The fingerprint of the request an Idempotency-Key was first sent with (server/http/idempotency.ts):
 * the same key with another body is refused (1016) instead of answering the first result.
 * Null for keys stored before it (those replay as before).
 */
export async function up(db: Kysely<unknown>) {
  await db.schema.alterTable('idempotency_key').addColumn('request_hash', 'text').execute();
}

export async function down(db: Kysely<unknown>) {
  await db.schema.alterTable('idempotency_key').dropColumn('request_hash').execute();
}
