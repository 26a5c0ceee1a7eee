/**
 * The one place that knows PostgreSQL's error codes (PGlite answers the same). Services
 * ask what kind of refusal a database error was and decide what it means for them.
 */
const codes = {
  unique: '23505',
  check: '23514',
  foreignKey: '23503',
} as const;

export type DatabaseRefusal = keyof typeof codes;

/** Which constraint refused a statement, or null for any other error. */
export function databaseRefusal(error: unknown): DatabaseRefusal | null {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  for (const [kind, value] of Object.entries(codes) as [DatabaseRefusal, string][]) {
    if (code === value) return kind;
  }
  return null;
}

/** A unique index refused the row: someone else (or a replay) got there first. */
export function isUniqueViolation(error: unknown): boolean {
  return databaseRefusal(error) === 'unique';
}

/** A CHECK constraint refused the row (a balance below zero, a negative amount). */
export function isCheckViolation(error: unknown): boolean {
  return databaseRefusal(error) === 'check';
}

/** Socket failures of the database connection (Node's codes). */
const unreachableSocketCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** PostgreSQL going away: a connection exception (class 08), or shutting down / starting up (57P01–57P03). */
const unavailableStates = /^(08\d\d\d|57P0[123])$/;
/** What node-postgres throws when its pool or a connection gives up (no code). */
const unreachableMessages = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/**
 * Whether a statement failed because the database could not be reached (down, restarting,
 * the network to it cut), not because of what was asked: the caller may try again later.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  for (let current = error, depth = 0; typeof current === 'object' && current !== null && depth < 4; depth += 1) {
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && (unreachableSocketCodes.has(code) || unavailableStates.test(code))) return true;
    if (typeof message === 'string' && unreachableMessages.test(message)) return true;
    current = cause;
  }
  return false;
}
