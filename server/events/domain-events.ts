/**
 * What one module tells others without depending on them: identity announces ended
 * sessions (the positions feed, which asks identity whether a session lives, closes their
 * sockets) and new users (the account module opens their accounts). Created once by
 * app.ts and handed to the modules, so every listener is known before the first request.
 */

/** Which sessions ended: one family (a sign-in), or every session of a user. */
export type EndedSessions = { fid: string } | { uid: number };

/** Listeners called at once, in order; the announcer does not wait for what they start. */
export interface Announcement<T> {
  listen(listener: (event: T) => void): void;
  announce(event: T): void;
}

/** Listeners run one after another and awaited: the emitter fails when one fails. */
export interface Step<T> {
  listen(listener: (event: T) => Promise<void>): void;
  run(event: T): Promise<void>;
}

function announcement<T>(): Announcement<T> {
  const listeners: ((event: T) => void)[] = [];
  return {
    listen: (listener) => void listeners.push(listener),
    announce(event) {
      for (const listener of listeners) listener(event);
    },
  };
}

function step<T>(): Step<T> {
  const listeners: ((event: T) => Promise<void>)[] = [];
  return {
    listen: (listener) => void listeners.push(listener),
    async run(event) {
      for (const listener of listeners) await listener(event);
    },
  };
}

export function createDomainEvents() {
  return {
    /** Sessions ended server-side (logout, password reset, a reused refresh token). */
    sessionsEnded: announcement<EndedSessions>(),
    /** A user signed up; part of the sign-up, which fails if a listener does. */
    userRegistered: step<{ uid: number }>(),
  };
}

export type DomainEvents = ReturnType<typeof createDomainEvents>;
