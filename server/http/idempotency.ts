import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import { idempotencyHeader, isIdempotencyKey } from '../../src/shared/api/idempotency';
import { ErrorCode } from '../../src/shared/errors/catalogue';
import { inTransaction } from '../db/after-commit';
import type { Database } from '../db/schema';
import { AppError, idempotencyKeyReusedError } from './app-error';

/** Each call's body as its contract parsed it (JSON body or multipart metaData and files), kept for {@link runOnce}'s fingerprint. */
const contractBodies = new WeakMap<FastifyRequest, unknown>();

/** Called by the route definitions for every call (a reference kept; the fingerprint is computed only by keyed calls). */
export function rememberContractBody(request: FastifyRequest, body: unknown): void {
  contractBodies.set(request, body);
}

/** JSON with object keys sorted at every level, and bytes (an uploaded file) by their SHA-256, so equal requests print equal. */
function canonical(value: unknown): string {
  if (Buffer.isBuffer(value)) return JSON.stringify(`sha256:${crypto.createHash('sha256').update(value).digest('hex')}`);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, each]) => each !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, each]) => `${JSON.stringify(name)}:${canonical(each)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** What a repeat must match to be the same request: the call's path and its parsed body. */
function requestFingerprint(request: FastifyRequest, path: string): string {
  return crypto.createHash('sha256').update(canonical({ path, body: contractBodies.get(request) ?? null })).digest('base64url');
}

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
 * back): retrying that key runs it again. As Stripe does, the key is bound to its first
 * request: the same key with another body, or on another call, is refused (1016) and
 * nothing runs.
 */
export async function runOnce<T>(
  db: Kysely<Database>,
  call: {
    request: FastifyRequest;
    uid: number;
    path: string;
    nowMs?: () => number;
    /**
     * What the first run asks before it starts (a second-factor code, spent outside the
     * transaction): skipped when the key already has a record, whose answer (or 1016) the
     * transaction then gives, so a retry never meets a spent code. It is given a tag of this
     * exact request (user, key, path, body), so that a retry racing the first run can be told
     * from another request presenting the same code.
     */
    confirm?: (requestTag: string) => Promise<void>;
  },
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  const key = idempotencyKeyOf(call.request);
  const now = new Date((call.nowMs ?? Date.now)());
  const fingerprint = requestFingerprint(call.request, call.path);
  if (call.confirm) {
    const recorded = await db.selectFrom('idempotency_key').select('key').where('uid', '=', call.uid).where('key', '=', key).executeTakeFirst();
    if (!recorded) await call.confirm(crypto.createHash('sha256').update(`${call.uid}\n${key}\n${fingerprint}`).digest('base64url'));
  }
  return inTransaction(db, async (trx) => {
    const claimed = await trx
      .insertInto('idempotency_key')
      .values({ uid: call.uid, key, path: call.path, answer: null, created_at: now, request_hash: fingerprint })
      .onConflict((conflict) => conflict.columns(['uid', 'key']).doNothing())
      .returning('key')
      .executeTakeFirst();
    if (!claimed) {
      const first = await trx.selectFrom('idempotency_key').select(['path', 'answer', 'request_hash']).where('uid', '=', call.uid).where('key', '=', key).executeTakeFirstOrThrow();
      // A key stored before fingerprints (null) is judged by its path alone, as it was then.
      if (first.path !== call.path || (first.request_hash !== null && first.request_hash !== fingerprint)) throw idempotencyKeyReusedError();
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
