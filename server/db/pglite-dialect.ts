import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
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
  private readonly watchdog: NodeJS.Timeout;

  constructor(
    private readonly client: PGlite,
    private readonly watch: { onLongHold: LongHoldReport; longHoldMs: number },
  ) {
    this.connection = new PgliteConnection(client);
    this.watchdog = setInterval(() => this.checkHold(), Math.max(10, watch.longHoldMs / 4));
    this.watchdog.unref();
  }

  private checkHold() {
    const held = this.held;
    if (!held || held.reported || this.waiting === 0) return;
    const heldMs = Date.now() - held.sinceMs;
    if (heldMs < this.watch.longHoldMs) return;
    held.reported = true;
    this.watch.onLongHold(heldMs, this.waiting, held.at.stack ?? '(no stack)');
  }

  async init() {
    await this.client.waitReady;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
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
