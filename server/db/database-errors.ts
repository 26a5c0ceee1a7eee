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
