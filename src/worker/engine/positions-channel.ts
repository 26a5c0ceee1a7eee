import type { AccountBalance } from '../../shared/api/account';
import type { OptionOrder } from '../../shared/api/options';
import { exchangeFeedMessage, type ExchangeCadenceMessage } from '../../shared/api/trading';
import type { PositionsState, SessionSnapshot } from '../../shared/protocol/engine';
import type { Timers } from './ports';
import { connectionLost, connectionOpened, initialConnectionState, retryNow, type ConnectionState, type RandomSource } from './reconnect-policy';

/** The positions socket as the channel sees it: the worker gives it a WebSocket, tests a fake. */
export interface PositionsConnection {
  close(): void;
  send(text: string): void;
}

/**
 * The pace asked of the server for pushes that only prices cause while the engine is quiet
 * (no tab visible): nobody sees the profit and loss then, and a tab shown again asks for the
 * server's own pace (0) and hears the latest at its next push. Changes of orders or money
 * (a stop-out, a fill) still come at once.
 */
export const quietCadenceMs = 10_000;

function cadenceMessage(quiet: boolean): string {
  return JSON.stringify({ type: 'cadence', data: { intervalMs: quiet ? quietCadenceMs : 0 } } satisfies ExchangeCadenceMessage);
}

export type PositionsConnector = (
  url: string,
  handlers: { onMessage: (text: string) => void; onClose: (code: number) => void },
) => PositionsConnection;


export const emptyPositions: PositionsState = { holt: null, pending: null, connectionFailed: false };

/** The server closes with this when the token is not (or no longer) good: do not retry with it. */
const refusedCode = 4401;

/**
 * The browser's one exchange socket (`/exchange/ws`): positions, pending orders, option
 * pushes, the balance and the notice count. Opened for the signed-in account,
 * reopened for the other one after an account switch, closed at sign-out; reconnects
 * for ever with the market socket's rule (reconnect-policy.ts: 500 ms × attempt up to 30 s,
 * jittered, the alert after 10) using the session's latest token.
 */
export function createPositionsChannel(options: {
  timers: Timers;
  connect: PositionsConnector;
  onUpdate: (state: PositionsState) => void;
  /** An option placed or settled (the same socket carries them). */
  onOption?: (order: OptionOrder) => void;
  /** The account's balance, pushed when the socket joins and after every change to its money. */
  onAccount?: (balance: AccountBalance) => void;
  /** A notice arrived for the signed-in user: their unread count after it. */
  onNotice?: (unreadCount: number) => void;
  /** The first message of each connection: pushes may have been missed while it was down. */
  onConnected?: () => void;
  /** The server refused the session (4401: signed out, password reset, blocked): check it now. */
  onRefused?: () => void;
  log?: (message: string) => void;
  /** The reconnection waits' jitter (`Math.random` by default; tests fix it). */
  random?: RandomSource;
}) {
  let socketUrl = '';
  let session: SessionSnapshot | null = null;
  let account: string | null = null;
  let connection: PositionsConnection | null = null;
  let retry: unknown = null;
  let connectionState: ConnectionState = initialConnectionState;
  let generation = 0;
  let state: PositionsState = emptyPositions;
  let quiet = false;
  /** The connection has spoken (joined the feed), so it can hear a cadence. */
  let joined = false;

  function publish(next: PositionsState) {
    state = next;
    options.onUpdate(state);
  }

  function drop() {
    generation += 1;
    if (retry !== null) options.timers.clearTimeout(retry);
    retry = null;
    connection?.close();
    connection = null;
  }

  function open() {
    if (!session?.signedIn || !session.token || !socketUrl) return;
    const own = (generation += 1);
    let heard = false;
    joined = false;
    const separator = socketUrl.includes('?') ? '&' : '?';
    connection = options.connect(`${socketUrl}${separator}token=${encodeURIComponent(session.token)}`, {
      onMessage(text) {
        if (own !== generation) return;
        if (!heard) {
          options.onConnected?.();
          joined = true;
          // A new connection is on the server's pace: a quiet engine slows it again.
          if (quiet) connection?.send(cadenceMessage(true));
        }
        heard = true;
        connectionState = connectionOpened();
        // The alert after many failures goes once the socket speaks again.
        if (state.connectionFailed) publish({ ...state, connectionFailed: false });
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          return;
        }
        const message = exchangeFeedMessage.safeParse(parsed);
        if (!message.success) return;
        if (message.data.type === 'option') {
          options.onOption?.(message.data.data);
          return;
        }
        if (message.data.type === 'account') {
          options.onAccount?.(message.data.data);
          return;
        }
        if (message.data.type === 'notice') {
          options.onNotice?.(message.data.data.count);
          return;
        }
        publish(message.data.type === 'holtOrder' ? { ...state, holt: message.data.data } : { ...state, pending: message.data.data });
      },
      onClose(code) {
        if (own !== generation) return;
        connection = null;
        if (code === refusedCode) {
          options.log?.('positions: the server refused the session');
          // No retry with this token: the session check ends the session in every tab (or
          // renews it), and follow() reopens the socket then.
          options.onRefused?.();
          return;
        }
        const lost = connectionLost(connectionState, options.random);
        connectionState = lost.state;
        if (lost.state.connectionFailed && !state.connectionFailed) {
          options.log?.('positions: more than 10 reconnections failed; trying on');
          publish({ ...state, connectionFailed: true });
        }
        retry = options.timers.setTimeout(() => {
          retry = null;
          open();
        }, lost.retryInMs);
      },
    });
  }

  return {
    /** Follows the session: a new account (sign-in, switch) reconnects; sign-out closes. */
    follow(next: SessionSnapshot, url: string) {
      const changedUrl = url !== socketUrl;
      socketUrl = url;
      session = next;
      const nextAccount = next.signedIn ? `${next.uid}|${next.book}` : null;
      if (nextAccount === account && !changedUrl && (connection || retry !== null)) return;
      account = nextAccount;
      drop();
      connectionState = initialConnectionState;
      publish(emptyPositions);
      if (nextAccount) open();
    },
    get state() {
      return state;
    },
    /** The engine is quiet (no tab visible for a while): price-moved pushes at `quietCadenceMs`; back at once otherwise. */
    setQuiet(next: boolean) {
      if (next === quiet) return;
      quiet = next;
      if (connection && joined) connection.send(cadenceMessage(quiet));
    },
    /** The network is back or a tab shows: waiting to reconnect, try now with the count from the start. */
    retryNow() {
      if (retry === null) return;
      options.timers.clearTimeout(retry);
      retry = null;
      connectionState = retryNow(connectionState);
      open();
    },
    stop() {
      drop();
    },
  };
}

export type PositionsChannel = ReturnType<typeof createPositionsChannel>;
