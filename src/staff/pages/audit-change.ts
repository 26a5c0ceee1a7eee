/** One changed field of an audit row, as text a person reads. */
export interface ChangeLine {
  /** The field's path (`tradeProhibited`, `fields.spread`); empty when the whole value is a scalar. */
  field: string;
  before: string;
  after: string;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function show(value: unknown): string {
  if (value === undefined) return '—';
  if (value === null) return 'null';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

function flatten(value: unknown, prefix: string, into: Map<string, unknown>) {
  if (isPlainObject(value) && Object.keys(value).length > 0) {
    for (const [key, inner] of Object.entries(value)) flatten(inner, prefix ? `${prefix}.${key}` : key, into);
  } else if (prefix !== '' || (value !== null && value !== undefined)) {
    // A row with nothing before (a creation) or after lists only the other side's fields.
    into.set(prefix, value);
  }
}

/**
 * An audit row's before and after as the fields that differ (nested objects by their paths),
 * so a reader sees "tradeProhibited: false → true" rather than two JSON documents.
 */
export function describeChange(before: unknown, after: unknown): ChangeLine[] {
  const left = new Map<string, unknown>();
  const right = new Map<string, unknown>();
  flatten(before, '', left);
  flatten(after, '', right);
  const fields = [...new Set([...left.keys(), ...right.keys()])];
  return fields
    .filter((field) => JSON.stringify(left.get(field)) !== JSON.stringify(right.get(field)))
    .map((field) => ({ field, before: show(left.get(field)), after: show(right.get(field)) }));
}
