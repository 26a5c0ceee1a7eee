import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema';

/** A database handle or an open transaction: what a service method that joins its caller's transaction takes. */
export type Executor = Kysely<Database> | Transaction<Database>;

interface TransactionHooks {
  committed: (() => void)[];
  rolledBack: (() => void | Promise<void>)[];
}

const hooksByTransaction = new WeakMap<Transaction<Database>, TransactionHooks>();

/**
 * Runs `work` in one transaction; what its participants asked for with {@link afterCommit}
 * runs once the transaction has committed (never when it rolls back). For effects other
 * people see (a socket message, a closed socket) that must not announce what did not happen.
 */
export async function inTransaction<T>(db: Kysely<Database>, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  const hooks: TransactionHooks = { committed: [], rolledBack: [] };
  let result: T;
  try {
    result = await db.transaction().execute(async (trx) => {
      hooksByTransaction.set(trx, hooks);
      return work(trx);
    });
  } catch (error) {
    // Undo what lives outside the database (a file written for a row that is not there); the rollback's reason is what the caller hears.
    for (const undo of hooks.rolledBack) await Promise.resolve().then(undo).catch(() => undefined);
    throw error;
  }
  // Every callback runs even when one fails (the commit happened); the first failure is then reported.
  const failures: unknown[] = [];
  for (const callback of hooks.committed) {
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
  const hooks = hooksByTransaction.get(executor as Transaction<Database>);
  if (!hooks) throw new Error('afterCommit needs a transaction opened with inTransaction()');
  hooks.committed.push(callback);
}

/**
 * `undo` runs if the executor's transaction rolls back, before the caller hears why: for what
 * a participant did outside the database. Nothing to do when the executor is no transaction
 * (its statement either failed, which its caller handles, or is committed). A transaction not
 * opened through {@link inTransaction} cannot say when it rolls back: a programming error.
 */
export function afterRollback(executor: Executor, undo: () => void | Promise<void>): void {
  if (!executor.isTransaction) return;
  const hooks = hooksByTransaction.get(executor as Transaction<Database>);
  if (!hooks) throw new Error('afterRollback needs a transaction opened with inTransaction()');
  hooks.rolledBack.push(undo);
}
