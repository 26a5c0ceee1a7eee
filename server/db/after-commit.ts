import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema';

/** A database handle or an open transaction: what a service method that joins its caller's transaction takes. */
export type Executor = Kysely<Database> | Transaction<Database>;

const pendingByTransaction = new WeakMap<Transaction<Database>, (() => void)[]>();

/**
 * Runs `work` in one transaction; what its participants asked for with {@link afterCommit}
 * runs once the transaction has committed (never when it rolls back). For effects other
 * people see (a socket message, a closed socket) that must not announce what did not happen.
 */
export async function inTransaction<T>(db: Kysely<Database>, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  const pending: (() => void)[] = [];
  const result = await db.transaction().execute(async (trx) => {
    pendingByTransaction.set(trx, pending);
    return work(trx);
  });
  // Every callback runs even when one fails (the commit happened); the first failure is then reported.
  const failures: unknown[] = [];
  for (const callback of pending) {
    try {
      callback();
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length > 0) throw failures[0];
  return result;
}

/**
 * `callback` runs after the executor's transaction commits: at once when the executor is no
 * transaction (its statements are already committed). A transaction not opened through
 * {@link inTransaction} cannot say when it commits: that is a programming error.
 */
export function afterCommit(executor: Executor, callback: () => void): void {
  if (!executor.isTransaction) {
    callback();
    return;
  }
  const pending = pendingByTransaction.get(executor as Transaction<Database>);
  if (!pending) throw new Error('afterCommit needs a transaction opened with inTransaction()');
  pending.push(callback);
}
