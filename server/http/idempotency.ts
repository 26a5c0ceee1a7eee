import type { FastifyRequest } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import { idempotencyHeader, isIdempotencyKey } from '../../src/shared/api/idempotency';
import { ErrorCode } from '../../src/shared/errors/catalogue';
import { inTransaction } from '../db/after-commit';
import type { Database } from '../db/schema';
import { AppError } from './app-error';

/** The request's Idempotency-Key header; a missing or malformed one refuses the call (1001) before anything moves. */
export function idempotencyKeyOf(request: FastifyRequest): string {
  const value = request.headers[idempotencyHeader.toLowerCase()];
  if (!isIdempotencyKey(value)) throw new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, `${idempotencyHeader} header of 8–64 characters (letters, digits, -_:.) required`);
  return value;
}

/**
 * Runs a customer money call once per (user, Idempotency-Key): `work` runs in one
 * transaction with the key's row, and its answer is stored in that same transaction. A
 * repeated key answers the stored answer and runs nothing; parallel repeats wait on the
 * row's primary key (the second insert blocks until the first transaction ends), so only
 * one of them ever runs `work`. A call that fails leaves no row (its transaction rolled
 * back): retrying that key runs it again. The same key on another call is refused (1001).
 */
export async function runOnce<T>(
  db: Kysely<Database>,
  call: { request: FastifyRequest; uid: number; path: string; nowMs?: () => number },
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  const key = idempotencyKeyOf(call.request);
  const now = new Date((call.nowMs ?? Date.now)());
  return inTransaction(db, async (trx) => {
    const claimed = await trx
      .insertInto('idempotency_key')
      .values({ uid: call.uid, key, path: call.path, answer: null, created_at: now })
      .onConflict((conflict) => conflict.columns(['uid', 'key']).doNothing())
      .returning('key')
      .executeTakeFirst();
    if (!claimed) {
      const first = await trx.selectFrom('idempotency_key').select(['path', 'answer']).where('uid', '=', call.uid).where('key', '=', key).executeTakeFirstOrThrow();
      if (first.path !== call.path) throw new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, `${idempotencyHeader} already used on ${first.path}`);
      return JSON.parse(first.answer ?? 'null') as T;
    }
    const answer = await work(trx);
    await trx
      .updateTable('idempotency_key')
      .set({ answer: JSON.stringify(answer ?? null) })
      .where('uid', '=', call.uid)
      .where('key', '=', key)
      .execute();
    return answer;
  });
}
