import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';

/**
 * Order numbers come from one database sequence, so they cannot collide however many
 * orders one millisecond sees or how many server processes place them. Market orders
 * carry 16 digits and options 19, as the app shows them. A number taken by a refused or
 * rolled-back placement is not used again (sequences are outside transactions): numbers
 * are unique and rising, not gapless.
 */
export async function nextOrderNumber(executor: Kysely<Database> | Transaction<Database>, digits: 16 | 19 = 16): Promise<string> {
  const { rows } = await sql<{ n: string }>`select nextval('order_number')::text as n`.execute(executor);
  return orderNumberOf(rows[0]?.n, digits);
}

/** `nextval('order_number')` (as text) as an order number of so many digits. */
export function orderNumberOf(sequenceValue: string | undefined, digits: 16 | 19 = 16): string {
  const next = BigInt(sequenceValue ?? '0');
  if (next <= 0n) throw new Error('order_number sequence answered nothing');
  return String(10n ** BigInt(digits - 1) + next);
}
