import {
  signedOutSession,
  type SessionEndReason,
  type SessionSnapshot,
  type SessionTokens,
} from '../../shared/protocol/engine';
import { bookOf, readAccessToken } from '../../shared/session/token';
import type { Clock, KeyValueStore } from './ports';

const storageKey = 'session';

interface StoredSession {
  token: string;
  refreshToken: string;
}

export type SessionChange = (snapshot: SessionSnapshot) => void;

/**
 * Holds the one session of this browser. Tokens persist in the store so a reload or a
 * new tab finds them; every change is reported once through `onChange`.
 */
export function createSessionStore(options: { store: KeyValueStore; clock: Clock; onChange: SessionChange }) {
  const { store, clock, onChange } = options;
  let current: SessionSnapshot = signedOutSession;

  function snapshotFrom(tokens: StoredSession, version: number): SessionSnapshot | null {
    const payload = readAccessToken(tokens.token);
    if (!payload) return null;
    return {
      signedIn: true,
      token: tokens.token,
      refreshToken: tokens.refreshToken,
      uid: payload.uid,
      book: bookOf(payload),
      expiresAtMs: payload.exp * 1000,
      version,
      endReason: null,
    };
  }

  function nextVersion(): number {
    // Versions follow the clock so that a peer engine's later change always wins.
    return Math.max(current.version + 1, clock.nowMs());
  }

  function publish(snapshot: SessionSnapshot) {
    current = snapshot;
    onChange(snapshot);
  }

  return {
    get snapshot(): SessionSnapshot {
      return current;
    },

    /** Reads the persisted tokens at start; a stored token that no longer parses is dropped. */
    async restore(): Promise<SessionSnapshot> {
      const stored = await store.get<StoredSession>(storageKey);
      if (stored) {
        const snapshot = snapshotFrom(stored, nextVersion());
        if (snapshot) current = snapshot;
        else await store.delete(storageKey);
      }
      return current;
    },

    async signIn(tokens: SessionTokens): Promise<SessionSnapshot> {
      const snapshot = snapshotFrom(tokens, nextVersion());
      if (!snapshot) throw new Error('not an access token');
      await store.set(storageKey, { token: tokens.token, refreshToken: tokens.refreshToken } satisfies StoredSession);
      publish(snapshot);
      return snapshot;
    },

    async signOut(reason: SessionEndReason, onlyToken?: string): Promise<SessionSnapshot> {
      if (onlyToken !== undefined && current.token !== onlyToken) return current;
      await store.delete(storageKey);
      if (!current.signedIn && current.endReason === reason) return current;
      publish({ ...signedOutSession, version: nextVersion(), endReason: reason });
      return current;
    },

    /** Takes a change made by a peer engine (dedicated-worker fallback); older ones are ignored. */
    adopt(snapshot: SessionSnapshot): boolean {
      if (snapshot.version <= current.version) return false;
      publish(snapshot);
      return true;
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
