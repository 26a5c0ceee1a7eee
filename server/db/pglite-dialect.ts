import { AsyncLocalStorage } from 'node:async_hooks';
import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';

/**
 * Kysely over embedded PGlite. PGlite is one connection, so queries and transactions
 * take turns: a connection is lent to one caller at a time, in order.
 */
export class PgliteDialect implements Dialect {
  constructor(
    private readonly client: PGlite,
    private readonly watch: { onLongHold: LongHoldReport; longHoldMs: number } = { onLongHold: reportLongHold, longHoldMs: defaultLongHoldMs },
  ) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PgliteDriver(this.client, this.watch);
  }
  createIntrospector(db: Parameters<Dialect['createIntrospector']>[0]) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}

/**
 * The transaction a piece of work runs inside (see {@link watchTransactions}): a statement
 * asked for on the database handle from inside an open transaction waits for that same
 * transaction to end, which never comes if the transaction awaits it.
 */
interface TransactionScope {
  /** The transaction's own connection has been taken (the first acquire in the scope). */
  acquired: boolean;
  open: boolean;
  /** The transaction this one was started from inside, if any (itself a nested use while that is open). */
  parent: TransactionScope | undefined;
}
const transactionScope = new AsyncLocalStorage<TransactionScope>();

/**
 * Runs every transaction of `db` in a scope the driver can see, so that a statement on `db`
 * from inside one (the deadlock of a one-connection database) is reported where it is asked
 * for, or refused with `nestedUse: 'refuse'` (tests).
 */
export function watchTransactions<DB>(db: Kysely<DB>): Kysely<DB> {
  const transaction = db.transaction.bind(db);
  db.transaction = () => {
    const builder = transaction();
    const execute = builder.execute.bind(builder);
    builder.execute = (callback) => {
      const scope: TransactionScope = { acquired: false, open: true, parent: transactionScope.getStore() };
      return transactionScope.run(scope, () => execute(callback)).finally(() => (scope.open = false));
    };
    return builder;
  };
  return db;
}

/** Told when one holder has kept the connection past {@link longHoldMs} while others wait for it. */
export type LongHoldReport = (heldMs: number, waiting: number, acquiredAt: string) => void;

/**
 * Nothing in this app holds the one connection for seconds; a hold this long is a deadlock
 * (work inside a transaction waiting for a statement outside it), which would otherwise
 * hang every request in silence.
 */
const defaultLongHoldMs = 20_000;

function reportLongHold(heldMs: number, waiting: number, acquiredAt: string) {
  process.stderr.write(
    `embedded database: one holder has kept the connection for ${Math.round(heldMs / 1000)} s while ${waiting} wait; taken at:\n${acquiredAt}\n`,
  );
}

class PgliteDriver implements Driver {
  private readonly connection: PgliteConnection;
  private queue: Promise<void> = Promise.resolve();
  private release: (() => void) | null = null;
  /** The current holder: since when, and where it took the connection (an Error's stack, read only when reported). */
  private held: { sinceMs: number; at: Error; reported: boolean } | null = null;
  private waiting = 0;
  /** Where the latest statement asked for from inside a transaction came from (told with a long hold). */
  private nestedAt: Error | null = null;
  private readonly watchdog: NodeJS.Timeout;

  constructor(
    private readonly client: PGlite,
    private readonly watch: { onLongHold: LongHoldReport; longHoldMs: number },
  ) {
    this.connection = new PgliteConnection(client);
    this.watchdog = setInterval(() => this.checkHold(), Math.max(10, watch.longHoldMs / 4));
    this.watchdog.unref();
  }

  /** A statement on the database handle from inside an open transaction: it waits for that transaction to end. */
  private nestedUse() {
    const at = new Error('a statement outside the transaction was asked for from inside it');
    if (process.env.PGLITE_REFUSE_NESTED === '1') throw at;
    this.nestedAt = at;
  }

  private checkHold() {
    const held = this.held;
    if (!held || held.reported || this.waiting === 0) return;
    const heldMs = Date.now() - held.sinceMs;
    if (heldMs < this.watch.longHoldMs) return;
    held.reported = true;
    const nested = this.nestedAt ? `\nand a statement was asked for from inside a transaction at:\n${this.nestedAt.stack ?? ''}` : '';
    this.watch.onLongHold(heldMs, this.waiting, `${held.at.stack ?? '(no stack)'}${nested}`);
  }

  async init() {
    await this.client.waitReady;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const scope = transactionScope.getStore();
    if (scope?.open) {
      if (!scope.acquired && !scope.parent?.open) scope.acquired = true;
      else this.nestedUse();
    }
    const previous = this.queue;
    let release!: () => void;
    this.queue = new Promise<void>((resolve) => (release = resolve));
    this.waiting += 1;
    try {
      await previous;
    } finally {
      this.waiting -= 1;
    }
    this.release = release;
    this.held = { sinceMs: Date.now(), at: new Error('the embedded database connection was taken here'), reported: false };
    return this.connection;
  }

  async releaseConnection() {
    const release = this.release;
    this.release = null;
    this.held = null;
    this.nestedAt = null;
    release?.();
  }

  async beginTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }
  async commitTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }
  async destroy() {
    clearInterval(this.watchdog);
    if (!this.client.closed) await this.client.close();
  }
}

class PgliteConnection implements DatabaseConnection {
  constructor(private readonly client: PGlite) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.client.query<R>(compiledQuery.sql, [...compiledQuery.parameters]);
    return {
      rows: result.rows,
      numAffectedRows: result.affectedRows === undefined ? undefined : BigInt(result.affectedRows),
    };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite does not stream query results');
  }
}
