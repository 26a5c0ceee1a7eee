/**
 * PostgreSQL text cannot hold U+0000: a NUL that reached a query failed it with HTTP 500
 * (and could do so after earlier steps had run, e.g. a sign-up code spent). Input is
 * refused as bad input before any handler sees it.
 */

/** Whether any string or key within a parsed JSON value (or query/params object) contains U+0000. */
export function containsNul(value: unknown): boolean {
  // Iterative: a deeply nested body must not overflow the stack.
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') {
      if (item.includes('\u0000')) return true;
    } else if (Array.isArray(item)) {
      pending.push(...item);
    } else if (item !== null && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) {
        if (key.includes('\u0000')) return true;
        pending.push(child);
      }
    }
  }
  return false;
}
