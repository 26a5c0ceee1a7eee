import type { SessionEndReason, SessionSnapshot, SessionTokens } from '../../shared/protocol/engine';
import type { Clock, Timers } from './ports';

/** The specification's session clock: a check every 60 s, a refresh when under 5 minutes remain. */
export const sessionCheckEveryMs = 60_000;
export const refreshWhenUnderMs = 5 * 60_000;

/** The two calls the clock makes; fetch in the worker, a fake in tests. */
export interface SessionApi {
  checkToken(token: string): Promise<'valid' | 'invalid' | 'unreachable'>;
  refresh(tokens: SessionTokens): Promise<{ kind: 'ok'; tokens: SessionTokens } | { kind: 'ended' } | { kind: 'unreachable' }>;
}

/**
 * Keeps the browser's one session alive and honest, in the worker so that hidden tabs'
 * throttled timers do not matter and one browser refreshes once (a second refresh with
 * the same token would look like theft and end the session). On start the token is
 * checked (-1 signs out); then every minute: expired signs out, under five minutes left
 * refreshes, a demo session while demo trading is off signs out.
 */
export function createSessionClock(options: {
  clock: Clock;
  timers: Timers;
  api: SessionApi;
  session: () => SessionSnapshot;
  signIn: (tokens: SessionTokens) => Promise<unknown>;
  signOut: (reason: SessionEndReason) => Promise<unknown>;
  demoAllowed: () => boolean;
  /** Only one engine per browser runs the clock (the dedicated-worker fallback has several). */
  isOwner: () => boolean;
  log?: (message: string) => void;
}) {
  let busy = false;
  let timer: unknown = null;
  /** The start check could not reach the server: it is asked again when the server may be back. */
  let startCheckPending = false;

  async function guarded(work: () => Promise<void>) {
    if (busy || !options.isOwner()) return;
    busy = true;
    try {
      await work();
    } finally {
      busy = false;
    }
  }

  async function refreshNow(current: SessionSnapshot) {
    if (!current.token || !current.refreshToken) return;
    const answer = await options.api.refresh({ token: current.token, refreshToken: current.refreshToken });
    // The session may have changed meanwhile (sign-out, another sign-in): keep the newer one.
    if (options.session().version !== current.version) return;
    if (answer.kind === 'unreachable') options.log?.('session: the refresh could not reach the server; asked again when it is back');
    if (answer.kind === 'ok') await options.signIn(answer.tokens);
    else if (answer.kind === 'ended') await options.signOut('ended-by-server');
  }

  async function tick() {
    await guarded(async () => {
      const current = options.session();
      if (!current.signedIn || current.expiresAtMs === null) return;
      if (current.book === 'demo' && !options.demoAllowed()) {
        await options.signOut('invalid');
        return;
      }
      const left = current.expiresAtMs - options.clock.nowMs();
      if (left <= 0) await options.signOut('expired');
      else if (left < refreshWhenUnderMs) await refreshNow(current);
    });
  }

  /** Whether the stored session's token is still good (-1 signs out); unreachable, asked again later. */
  async function startCheck() {
    await guarded(async () => {
      const current = options.session();
      startCheckPending = false;
      if (!current.signedIn || !current.token) return;
      const verdict = await options.api.checkToken(current.token);
      startCheckPending = verdict === 'unreachable' && options.session().version === current.version;
      if (verdict === 'invalid' && options.session().version === current.version) await options.signOut('invalid');
    });
  }

  return {
    /** The start check, then the minute clock. */
    async start() {
      if (timer !== null) return;
      timer = options.timers.setInterval(() => void tick(), sessionCheckEveryMs);
      await startCheck();
      await tick();
    },
    tick,
    /**
     * The server may be reachable again (a socket reopened, the browser is online, a tab
     * shows): what could not reach it (the start check, a due refresh) is done now rather
     * than at the next minute.
     */
    async resume() {
      if (timer === null) return;
      if (startCheckPending) await startCheck();
      await tick();
    },
    /**
     * Asks the server now whether the session lives (the positions socket was refused with
     * 4401): an ended session signs out in every tab at once, not at the next expiry.
     */
    async verify() {
      await guarded(async () => {
        const current = options.session();
        if (!current.signedIn || !current.token) return;
        const verdict = await options.api.checkToken(current.token);
        if (verdict !== 'invalid' || options.session().version !== current.version) return;
        const expired = current.expiresAtMs !== null && current.expiresAtMs <= options.clock.nowMs();
        await options.signOut(expired ? 'expired' : 'ended-by-server');
      });
    },
    stop() {
      if (timer !== null) options.timers.clearInterval(timer);
      timer = null;
    },
  };
}

export type SessionClock = ReturnType<typeof createSessionClock>;
