/**
 * Reconnection of the engine's sockets: wait 500 ms × the attempt number before each try,
 * capped at about 30 s and jittered (so that every browser a server restart dropped does not
 * come back in the same instant), and never stop trying. After more than 10 failed attempts
 * the tabs say the connection failed (an alert whose confirm reloads); the attempts go on
 * meanwhile and the alert goes once a connection opens.
 */
export const reconnectStepMs = 500;
export const reconnectAttemptsBeforeAlert = 10;
/** The longest wait between two attempts. */
export const reconnectCapMs = 30_000;
/** Each wait is drawn within ±20 % of its base (never above the cap). */
export const reconnectJitterShare = 0.2;

export type ConnectionStatus = 'connecting' | 'open' | 'closed';

export interface ConnectionState {
  status: ConnectionStatus;
  /** Failed attempts since the last successful connection. */
  failedAttempts: number;
  /** More than 10 attempts failed in a row: the tabs show the alert (the attempts go on). */
  connectionFailed: boolean;
  /** While waiting between attempts: when the next one starts (epoch ms), for the tabs' countdown; else null. */
  retryAtMs: number | null;
}

export const initialConnectionState: ConnectionState = { status: 'connecting', failedAttempts: 0, connectionFailed: false, retryAtMs: null };

/** A number in [0, 1), `Math.random` in the worker; tests pass a fixed one. */
export type RandomSource = () => number;

/** The wait before the attempt after `attempt` failures: 500 ms × attempt up to the cap, ±20 % by `random`. */
export function reconnectDelayMs(attempt: number, random: RandomSource = Math.random, capMs: number = reconnectCapMs): number {
  const base = Math.min(capMs, reconnectStepMs * Math.max(1, attempt));
  const jittered = base * (1 - reconnectJitterShare + 2 * reconnectJitterShare * random());
  return Math.round(Math.min(capMs, jittered));
}

export function connectionOpened(): ConnectionState {
  return { status: 'open', failedAttempts: 0, connectionFailed: false, retryAtMs: null };
}

/**
 * A connection closed or failed to open at `nowMs`: the next state (with when the next
 * attempt starts), and how long to wait before it.
 */
export function connectionLost(
  state: ConnectionState,
  random: RandomSource = Math.random,
  capMs: number = reconnectCapMs,
  nowMs: number = Date.now(),
): { state: ConnectionState; retryInMs: number } {
  const failedAttempts = state.failedAttempts + 1;
  const retryInMs = reconnectDelayMs(failedAttempts, random, capMs);
  return {
    state: { status: 'closed', failedAttempts, connectionFailed: state.connectionFailed || failedAttempts > reconnectAttemptsBeforeAlert, retryAtMs: nowMs + retryInMs },
    retryInMs,
  };
}

/** An attempt starts now: no next attempt is waited for. */
export function attemptStarted(state: ConnectionState): ConnectionState {
  return { ...state, status: 'connecting', retryAtMs: null };
}

/**
 * The network came back or a tab was shown: an attempt now, with the count from the start.
 * A connection that keeps failing says so again after more than 10 attempts (the alert
 * stays up meanwhile: `connectionFailed` is kept until a connection opens).
 */
export function retryNow(state: ConnectionState): ConnectionState {
  return { status: 'connecting', failedAttempts: 0, connectionFailed: state.connectionFailed, retryAtMs: null };
}
