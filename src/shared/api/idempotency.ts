/**
 * The idempotency key of a customer money call (../shared/API.md): the request header the
 * app sends with a fresh value per user action (reused on automatic retries), and the
 * rule the server checks it by. A repeated key from the same user answers the first
 * call's answer and changes nothing.
 */
export const idempotencyHeader = 'Idempotency-Key';

/** 8–64 characters of letters, digits and `-_:.` (a UUID fits). */
const keyPattern = /^[A-Za-z0-9_.:-]{8,64}$/;

export function isIdempotencyKey(value: unknown): value is string {
  return typeof value === 'string' && keyPattern.test(value);
}
