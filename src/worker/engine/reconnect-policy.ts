/**
 * Reconnection of the market socket: wait 500 ms × the attempt number before each try;
 * after more than 10 failed attempts tell the user (an alert whose confirm reloads).
 */
export const reconnectStepMs = 500;
export const reconnectAttemptsBeforeAlert = 10;

export type ConnectionStatus = 'connecting' | 'open' | 'closed';

export interface ConnectionState {
  status: ConnectionStatus;
  /** Failed attempts since the last successful connection. */
  failedAttempts: number;
  /** True once the attempts are exhausted; the tabs show the alert. */
  gaveUp: boolean;
}

export const initialConnectionState: ConnectionState = { status: 'connecting', failedAttempts: 0, gaveUp: false };

export function reconnectDelayMs(attempt: number): number {
  return reconnectStepMs * Math.max(1, attempt);
}

export function connectionOpened(): ConnectionState {
  return { status: 'open', failedAttempts: 0, gaveUp: false };
}

/** A connection closed or failed to open: the next state, and how long to wait (null: stop trying). */
export function connectionLost(state: ConnectionState): { state: ConnectionState; retryInMs: number | null } {
  const failedAttempts = state.failedAttempts + 1;
  if (failedAttempts > reconnectAttemptsBeforeAlert) {
    return { state: { status: 'closed', failedAttempts, gaveUp: true }, retryInMs: null };
  }
  return { state: { status: 'closed', failedAttempts, gaveUp: false }, retryInMs: reconnectDelayMs(failedAttempts) };
}
