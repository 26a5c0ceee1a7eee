/**
 * Open connections per key (a client address, a user), refused over a limit: sockets are
 * long-lived, so a rate limit does not bound them; a count of the open ones does.
 */
export function createConnectionLimit(limit: number) {
  const open = new Map<string, number>();
  return {
    /** A place for `key`, or null when it has `limit` open; the returned release frees it (once). */
    acquire(key: string): (() => void) | null {
      const count = open.get(key) ?? 0;
      if (count >= limit) return null;
      open.set(key, count + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (open.get(key) ?? 1) - 1;
        if (left > 0) open.set(key, left);
        else open.delete(key);
      };
    },
  };
}

export type ConnectionLimit = ReturnType<typeof createConnectionLimit>;

/** Close code of a socket refused for a connection limit (the clients reconnect later with backoff). */
export const tooManyConnectionsCode = 4429;
